/**
 * How e-mails go out (issue 35, "faster deliveries"): several at once over the pooled connections
 * to the SMTP server, never more connections than `smtpConnections`; e-mails that found the server
 * unreachable wait for it without spending their retries and are all sent once it answers again,
 * found by the process's own probe, not by the minute's sweep. Runs on PGlite, and on PostgreSQL
 * with DATABASE_URL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.ts';
import { freePort } from '../support/portal-process.ts';
import { startTestSmtp, useTestSmtp, type TestSmtp } from '../support/smtp.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const MANAGERS_KL001 = 2; // a damage of WZ12345 is e-mailed to the client's two fleet managers

describe('notifications: sent side by side over pooled connections, and after an outage', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let driver: string;
  let sweeps = 0;

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestApp({
      notifications: {
        worker: true, publicUrl: 'https://portal.example.pl', pollingIntervalSeconds: 0.5,
        // the sweep once an hour (at minute 0): what waited must go out without it
        delivery: { concurrency: 8, smtpConnections: 3, probeSeconds: 1, retryLimit: 5, retryDelaySeconds: 1, sweepEveryMinutes: 60 },
      },
    });
    await useTestSmtp(t.app.db, smtp);
    driver = await t.signIn('kierowca');
    // the sweeps counted
    const sweep = t.app.notifications.sweep;
    t.app.notifications.sweep = async (now?: boolean) => {
      sweeps++;
      return sweep(now);
    };
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  /** Damages of the demo driver's vehicle, each e-mailed to the client's managers; answers their ids. */
  async function reportDamages(count: number): Promise<number[]> {
    const car = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr', 'pracId']).where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const res = await t.call('POST', '/api/damage/add', {
        token: driver,
        body: {
          pojazdId: car.pojazdId, rejestr: car.rejestr, pracId: car.pracId, dataSzkod: new Date().toISOString(), rodzSzkod: 'Kolizja drogowa',
          zgloNazwiskoImie: 'Kowalski Jan', zgloTelef: '+48 600 100 200', zgloEmail: 'jan.kowalski@transbud.pl',
        },
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(res.json().sprawaId);
    }
    return ids;
  }
  const emailsOf = (damages: number[]) => t.app.db.selectFrom('notification').select(['id', 'state', 'attempts', 'lastError'])
    .where('event', '=', 'damageReported').where('channel', '=', 'email').where('entityId', 'in', damages).execute();

  it('sends several e-mails at once, over no more connections than smtpConnections', async () => {
    smtp.answerAfter(300); // each message answered after 300 ms: senders overlap
    try {
      const damages = await reportDamages(5);
      await eventually(async () => (await emailsOf(damages)).every((e) => e.state === 'sent'), { what: 'the ten e-mails sent', within: 60_000 });
    } finally {
      smtp.answerAfter(0);
    }
    // three connections, each a message at a time: three answers awaited at once (of eight
    // deliveries running side by side), never more
    expect(smtp.maxAwaitingAnswer()).toBe(3);
  });

  it('e-mails that found the server unreachable wait without spending retries, and all go out when it answers again, without the sweep', async () => {
    // the server "down": the configuration points at a port nobody listens on
    const port = smtp.port;
    await t.app.db.updateTable('email_config').set({ smtpPort: await freePort() }).where('id', '=', 1).execute();
    const damages = await reportDamages(3);
    const waiting = await eventually(async () => {
      const rows = await emailsOf(damages);
      return rows.length === 3 * MANAGERS_KL001 && rows.every((e) => e.state === 'queued' && e.lastError === 'SMTP_DOWN') && rows;
    }, { what: 'the e-mails waiting for the server', within: 60_000 });
    for (const row of waiting) expect(row.attempts).toBe(0);

    sweeps = 0;
    const before = smtp.received.length;
    // the server is back (the same as before): the probe finds it and every waiting e-mail is queued
    await t.app.db.updateTable('email_config').set({ smtpPort: port }).where('id', '=', 1).execute();
    await eventually(async () => (await emailsOf(damages)).every((e) => e.state === 'sent'), { what: 'the waiting e-mails sent', within: 60_000 });
    expect(smtp.received.length - before).toBe(3 * MANAGERS_KL001);
    for (const row of await emailsOf(damages)) expect(row).toMatchObject({ state: 'sent', attempts: 1, lastError: null });
    expect(sweeps).toBe(0);
  });
});
