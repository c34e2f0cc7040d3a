/**
 * E-mail notifications sent once by several server processes (issue 25, docs/deployment.md "What
 * runs once across the fleet"): two portals (`server/main.ts`, one process each) on one
 * PostgreSQL schema, both running the delivery worker of the job queue, and a real SMTP server
 * (tests/support/smtp.ts) configured as the portal's mail server. The notifications are queued the
 * way the app queues them: drivers report damages through the API of either process, and each
 * report writes its e-mails and their jobs in its own transaction. Each notification's Message-ID
 * (`<notification-<id>@…>`, server/notifications/mail.ts) tells which one arrived.
 *
 * Always on PostgreSQL (DATABASE_URL, or the local one at 127.0.0.1:5432), as the other tests of
 * several processes: PGlite belongs to one process.
 */
import { PgBoss } from 'pg-boss';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { EMAIL_QUEUE, SWEEP_QUEUE } from '../../server/jobs/queue.ts';
import { deliverySettings, notificationsFile } from '../../server/notifications/events.ts';
import { loadBundle } from '../../server/config/load-bundle.ts';
import { call, freePort, startPortal, TEST_POSTGRES_URL, type PortalProcess } from '../support/portal-process.ts';
import { startTestSmtp, useTestSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts';
import { DEMO, ROOT } from '../support/test-app.ts';

const SCHEMA = `notify_${process.pid}`;
const PUBLIC_URL = 'https://portal.example.pl';
const MANAGERS_KL001 = ['anna.nowak@transbud.pl', 'ewa.nowicka@transbud.pl'];

/** The notification a mail is: its Message-ID names the notification's id. */
const notificationOf = (mail: ReceivedMail) => Number(/^Message-ID:\s*<notification-(\d+)@portal\.example\.pl>/im.exec(mail.raw)?.[1]);

/** Polls `probe` until it answers true; fails with `describe()` after `ms`. */
async function until(probe: () => Promise<boolean> | boolean, ms: number, describe: () => Promise<string> | string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${await describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The values that occur more than once. */
const repeated = (values: number[]) => [...new Set(values.filter((v, i) => values.indexOf(v) !== i))];

describe('e-mail notifications from two server processes on one PostgreSQL', () => {
  let smtp: TestSmtp;
  let a: PortalProcess;
  let b: PortalProcess;
  let database: DatabaseHandle;
  let signingName: string;
  let driver: string;
  let car: { pojazdId: number; rejestr: string; pracId: number | null };

  /** A driver reports `count` damages, through process a and b by turns; answers the damages' ids. */
  async function reportDamages(count: number, ports: number[]): Promise<number[]> {
    const ids: number[] = [];
    for (let i = 0; i < count; i++) {
      const answer = await call(ports[i % ports.length], 'POST', '/api/damage/add', {
        token: driver, signingName,
        body: {
          pojazdId: car.pojazdId, rejestr: car.rejestr, pracId: car.pracId, dataSzkod: new Date().toISOString(), rodzSzkod: 'Kolizja drogowa',
          zgloNazwiskoImie: 'Kowalski Jan', zgloTelef: '+48 600 100 200', zgloEmail: 'jan.kowalski@transbud.pl',
        },
      });
      expect(answer.status, answer.body.toString()).toBe(200);
      ids.push(answer.json().sprawaId);
    }
    return ids;
  }

  /** The e-mail notifications of those damages. */
  const rowsOf = (damageIds: number[]) => database.db.selectFrom('notification')
    .select(['id', 'email', 'state', 'lastError', 'attempts'])
    .where('event', '=', 'damageReported').where('channel', '=', 'email').where('entityId', 'in', damageIds)
    .orderBy('id').execute();
  /** The rows' states counted, for a failure message. */
  const statesOf = async (damageIds: number[]) => {
    const counts: Record<string, number> = {};
    for (const r of await rowsOf(damageIds)) {
      const key = r.lastError ? `${r.state} ${r.lastError}` : r.state;
      counts[key] = (counts[key] ?? 0) + 1;
    }
    return counts;
  };

  beforeAll(async () => {
    smtp = await startTestSmtp();
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
    // one process each (no WORKERS): the pid of the child is the process that sends
    const env = { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: SCHEMA, PUBLIC_URL, SHUTDOWN_TIMEOUT_MS: '5000' };
    a = startPortal({ ...env, INSTANCE_ID: 'a', PORT: String(await freePort()) });
    b = startPortal({ ...env, INSTANCE_ID: 'b', PORT: String(await freePort()) });
    await Promise.all([a.ready(), b.ready()]);
    database = await openDatabase({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await useTestSmtp(database.db, smtp);
    signingName = (await call(a.port, 'GET', '/api/init/pre-config')).json().name;
    const signIn = await call(a.port, 'POST', '/api/user/auth', { body: DEMO.kierowca, signingName });
    expect(signIn.status, signIn.body.toString()).toBe(200);
    driver = signIn.json().id_token;
    car = await database.db.selectFrom('car').select(['pojazdId', 'rejestr', 'pracId']).where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await database?.close();
    await smtp?.close();
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
  });

  it('delivers each message once while both processes send', async () => {
    // a slow mail server, so that the two processes' workers are seen sending at the same time
    smtp.answerAfter(200);
    const damages = await reportDamages(12, [a.port, b.port]);
    await until(async () => (await rowsOf(damages)).every((r) => r.state === 'sent'), 20_000,
      async () => `states ${JSON.stringify(await statesOf(damages))}`);
    smtp.answerAfter(0);

    const rows = await rowsOf(damages);
    expect(rows).toHaveLength(24); // both managers of the client, for each of the 12 damages
    const ids = rows.map((r) => r.id);
    const mails = smtp.received.filter((m) => ids.includes(notificationOf(m)));
    expect(repeated(mails.map(notificationOf))).toEqual([]);
    expect(mails.map(notificationOf).sort((x, y) => x - y)).toEqual(ids);
    for (const row of rows) {
      expect(mails.find((m) => notificationOf(m) === row.id)!.to).toEqual([row.email]);
      expect(row.attempts).toBe(1);
    }
    expect([...new Set(mails.flatMap((m) => m.to))].sort()).toEqual(MANAGERS_KL001);
    // one process sends at most 2 at once (its concurrency): more at once means both were sending
    expect(smtp.maxAwaitingAnswer()).toBeGreaterThan(2);
  }, 30_000);

  it('loses nothing and sends nothing twice when a process is killed in the middle of a batch', async () => {
    const receivedBefore = smtp.received.length;
    // the first 4 of the batch are answered; from then on the mail server takes each message in
    // whole and holds its answer, so every connection of both processes (smtpConnections each,
    // screens/notifications.json) ends up waiting in the middle of a send; the rest of a process's
    // jobs wait, rendered and unclaimed, for a connection
    const connections = deliverySettings(notificationsFile(loadBundle({ root: ROOT }))).smtpConnections;
    smtp.hold(4);
    const damages = await reportDamages(20, [a.port, b.port]);
    await until(() => smtp.awaitingAnswer().length === 2 * connections, 30_000,
      async () => `${smtp.awaitingAnswer().length} messages wait for their answer; states ${JSON.stringify(await statesOf(damages))}`);

    process.kill(a.child.pid!, 'SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    // the dead process's connections close: their messages were taken in but never answered
    await until(() => smtp.cut.length === connections, 5_000, () => `${smtp.cut.length} cut`);
    const cutIds = smtp.cut.map(notificationOf).sort((x, y) => x - y);
    smtp.release();

    // process b sends what it holds and what is left on the queue; the rows a was sending stay in
    // `sending`, the ones a held unclaimed stay `queued` (their jobs active until they expire).
    // b's own sends pass through `sending` too, and the held answers are released at once: both of
    // b's connections end together, and for an instant the cut rows alone are in `sending` while b
    // still holds rows it fetched and has not claimed yet. So the wait is for a settled state: no
    // job left to fetch, and the same rows in the same states on reads a second apart.
    const jobs = sql.table(`${jobQueueSchema(SCHEMA)}.job`);
    const settled = async () => {
      const unfetched = await sql<{ count: string }>`
        select count(*) from ${jobs} where name = ${EMAIL_QUEUE} and state in ('created', 'retry')`.execute(database.db);
      const rows = await rowsOf(damages);
      const ok = Number(unfetched.rows[0].count) === 0
        && JSON.stringify(rows.filter((r) => r.state === 'sending').map((r) => r.id)) === JSON.stringify(cutIds)
        && rows.filter((r) => r.state === 'sent').length + rows.filter((r) => r.state === 'queued').length === rows.length - connections;
      return ok ? JSON.stringify(rows.map((r) => [r.id, r.state])) : undefined;
    };
    let seen: string | undefined;
    await until(async () => {
      const now = await settled();
      const same = now !== undefined && now === seen;
      seen = now;
      if (!same) await new Promise((r) => setTimeout(r, 1_000));
      return same;
    }, 30_000, async () => `states ${JSON.stringify(await statesOf(damages))}`);
    let rows = await rowsOf(damages);
    expect(rows).toHaveLength(40);
    expect(rows.filter((r) => r.state === 'sending').map((r) => r.id)).toEqual(cutIds);

    // the sweep (pg-boss cron, every minute) closes a row left in sending longer than
    // delivery.sendingTimeoutMinutes (15): the claim is moved back by that time rather than
    // waited for, and the sweep's job is queued as the cron queues it; process b runs it
    await database.db.updateTable('notification').set({ claimedAt: sql<Date>`"claimedAt" - interval '16 minutes'` }).where('id', 'in', cutIds).execute();
    const boss = new PgBoss({ connectionString: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA), supervise: false, schedule: false, migrate: false });
    await boss.start();
    try {
      await boss.send(SWEEP_QUEUE, {});
      await until(async () => (await rowsOf(damages)).filter((r) => r.state === 'failed').length === connections, 15_000,
        async () => `states ${JSON.stringify(await statesOf(damages))}`);

      // the dead process's jobs are still active; pg-boss fails such a job when it outlives its
      // expiry (300 s) and retries it after the retry delay. They are moved back by that time,
      // pg-boss's maintenance expires them, and process b runs the retries: the rows a was
      // sending are no longer claimable, so nothing is sent again; the ones it held unclaimed are sent now
      const active = (await sql<{ id: string; notification: number }>`
        select id, (data->>'id')::int as notification from ${jobs} where name = ${EMAIL_QUEUE} and state = 'active'`.execute(database.db)).rows;
      expect(active.map((j) => j.notification)).toEqual(expect.arrayContaining(cutIds));
      const ids = active.map((j) => j.id);
      await sql`update ${jobs} set started_on = started_on - interval '10 minutes' where id = any(${ids}::uuid[])`.execute(database.db);
      await boss.supervise(EMAIL_QUEUE); // the maintenance pass that expires them
      await sql`update ${jobs} set start_after = now() where id = any(${ids}::uuid[]) and state = 'retry'`.execute(database.db);
      const states = async () => (await sql<{ state: string }>`select state from ${jobs} where id = any(${ids}::uuid[])`.execute(database.db)).rows.map((r) => r.state);
      await until(async () => (await states()).every((state) => state === 'completed'), 30_000, async () => `the retried jobs: ${(await states()).join()}`);
    } finally {
      await boss.stop({ graceful: false });
    }

    await until(async () => (await rowsOf(damages)).filter((r) => r.state === 'sent').length === 40 - connections, 30_000,
      async () => `states ${JSON.stringify(await statesOf(damages))}`);
    rows = await rowsOf(damages);
    const ids = rows.map((r) => r.id);
    const mails = smtp.received.slice(receivedBefore).filter((m) => ids.includes(notificationOf(m)));
    // nothing twice: no Message-ID arrived twice, and none of the two cut ones was sent again
    expect(repeated(mails.map(notificationOf))).toEqual([]);
    expect(mails.map(notificationOf).filter((id) => cutIds.includes(id))).toEqual([]);
    // nothing lost: every other notification arrived, once; the two whose answer the kill cut
    // are failed INTERRUPTED (never resent by themselves: they may have arrived), for an administrator's "send again"
    expect(mails.map(notificationOf).sort((x, y) => x - y)).toEqual(ids.filter((id) => !cutIds.includes(id)));
    for (const row of rows) {
      if (cutIds.includes(row.id)) expect(row).toMatchObject({ state: 'failed', lastError: 'INTERRUPTED', attempts: 1 });
      else expect(row).toMatchObject({ state: 'sent', lastError: null, attempts: 1 });
    }
    expect(b.child.exitCode).toBeNull(); // b served on throughout
  }, 60_000);
});
