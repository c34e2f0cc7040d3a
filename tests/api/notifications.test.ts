/**
 * Notifications that reach people (issue 25), through the API, the real job queue (pg-boss on the
 * test's own database) and a real SMTP server: each event reaches the people screens/notifications.json
 * names and no one else, in Polish; a price only where the order lets the recipient see it; a
 * manager moved to another client hears nothing more of the old one; a mail server that is down
 * or missing delays a message, never loses or doubles it; a refused transition leaves nothing.
 * The bell and the settings: tests/api/notification-inbox.test.ts.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partsOf, startTestSmtp, useTestSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';
import { dateText } from '../../runtime/core/date-text.ts';

const PUBLIC_URL = 'https://portal.example.pl';
const MANAGERS_KL001 = ['anna.nowak@transbud.pl', 'ewa.nowicka@transbud.pl'];
const DRIVER = 'jan.kowalski@transbud.pl'; // kierowca, the reporter of orders 1 and 4
const ADVISOR_SS01 = 'marek.lewandowski@kowalczyk-serwis.pl';

describe('notifications: who gets what, by e-mail', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const tokens: Partial<Record<DemoAccount, string>> = {};
  const as = async (who: DemoAccount) => (tokens[who] ??= await t.signIn(who));

  /** Rows of the outbox not yet at rest (queued without a reason, or being sent). */
  const pending = async () => Number((await sql<{ n: number }>`
    select count(*)::int as n from notification where channel = 'email' and (state = 'sending' or (state = 'queued' and "lastError" is null))`.execute(t.app.db)).rows[0].n);

  /** The mails whose subject matches, once every e-mail of the outbox is at rest (polled with a deadline). */
  async function mailsAbout(subject: RegExp, atLeast: number, deadlineMs = 20_000): Promise<ReceivedMail[]> {
    const until = Date.now() + deadlineMs;
    for (;;) {
      const found = smtp.received.filter((m) => subject.test(m.subject));
      if (found.length >= atLeast && (await pending()) === 0) return found;
      if (Date.now() > until) throw new Error(`${found.length} of ${atLeast} mails "${subject}" arrived; ${await pending()} pending`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  const recipients = (mails: ReceivedMail[]) => mails.flatMap((m) => m.to).sort();
  const transition = async (who: DemoAccount, autId: number, to: number) =>
    t.call('POST', `/api/order/${autId}/transition`, { token: await as(who), body: { to } });
  /** An order as the mails name it: its number, else the day it was reported ("z 01.12.2026"); never its id. */
  const named = async (autId: number) => {
    const o = await t.app.db.selectFrom('service_order').select(['autNr', 'zgloData']).where('autId', '=', autId).executeTakeFirstOrThrow();
    return o.autNr ?? `z ${dateText(new Date(o.zgloData), 'Europe/Warsaw', 'DD.MM.YYYY')}`;
  };
  const re = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestApp({
      notifications: { worker: true, publicUrl: PUBLIC_URL, pollingIntervalSeconds: 0.5, delivery: { retryDelaySeconds: 1, retryLimit: 5 } },
    });
    await useTestSmtp(t.app.db, smtp);
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('a confirmed estimate reaches its reporter; the order submitted for acceptance reaches the client\'s managers, and no one else', async () => {
    expect((await t.call('GET', '/api/order/confirm-pricing/1', { token: await as('doradca') })).statusCode).toBe(200);
    const one = await named(1);
    expect(one).toMatch(/^z \d{2}\.\d{2}\.\d{4}$/); // order 1 has no number yet
    const confirmed = await mailsAbout(new RegExp(`^Kosztorys zlecenia ${re(one)} \\(WZ12345\\) został zatwierdzony$`), 1);
    expect(recipients(confirmed)).toEqual([DRIVER]);

    expect((await transition('doradca', 1, 1)).statusCode).toBe(200);
    const awaiting = await mailsAbout(new RegExp(`^Zlecenie ${re(one)} \\(WZ12345\\) czeka na Twoją akceptację$`), 2);
    expect(recipients(awaiting)).toEqual(MANAGERS_KL001);
    const mail = awaiting[0];
    const { text, html } = partsOf(mail);
    expect(text).toContain(`Zlecenie ${one} dla pojazdu WZ12345 (Škoda Octavia) czeka na akceptację fleet managera.`);
    // links from PUBLIC_URL, never from a request's Host; the record and the recipient's settings
    expect(text).toContain(`Otwórz w portalu: ${PUBLIC_URL}/app/order?open=1`);
    expect(text).toContain(`Zmień ustawienia powiadomień: ${PUBLIC_URL}/app/account/notifications`);
    expect(html).toMatch(new RegExp(`<a href="${PUBLIC_URL}/app/order\\?open=1" style="display:inline-block[^"]*">Otwórz zlecenie w portalu</a>`));
    expect(html).toContain('Partner CFM');
    // the facts a manager needs without opening the portal: which order, which vehicle, its type, status and date
    expect(text).toContain(`Zlecenie: ${one}\nPojazd: WZ12345 (Škoda Octavia)\n`);
    // the order's internal id is in its link only, never in what a person reads
    expect(mail.subject + text.replace(/\S*\?open=1\b/g, '')).not.toMatch(/lecenie:? 1\b|zlecenia 1\b/);
    expect(text).toMatch(/\nStatus: Oczekuje na akceptację Fleet Managera\n/);
    expect(text).toMatch(/\nZgłoszono: \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}\n/);
    expect(html).toMatch(/class="fact-label"[^>]*>Pojazd<\/td><td class="fact-value"[^>]*>WZ12345 \(Škoda Octavia\)<\/td>/);
    expect(mail.raw).toMatch(/^From: Partner CFM <portal@partnercfm\.pl>/im);
    expect(mail.raw).toMatch(/^Message-ID: <notification-\d+@portal\.example\.pl>/im);
    // order 1 hides its prices from managers (cenaWidoczna N)
    expect(text).not.toContain('Wartość netto');
  }, 60_000);

  it('a decision on the order reaches its reporter and the advisors of its station', async () => {
    const before = smtp.received.length;
    expect((await transition('manager', 1, 2)).statusCode).toBe(200);
    const accepted = await mailsAbout(new RegExp(`^Zlecenie ${re(await named(1))} \\(WZ12345\\): `), 2);
    expect(recipients(accepted)).toEqual([ADVISOR_SS01, DRIVER].sort());
    expect(smtp.received.length - before).toBe(2);
    // a driver cannot open the orders table: his mail leads to his vehicle's panel, which opens the order
    const driverMail = accepted.find((m) => m.to.includes(DRIVER))!;
    expect(partsOf(driverMail).text).toContain(`Otwórz w portalu: ${PUBLIC_URL}/app/dane-pojazdu?open=1\n`);
    expect(partsOf(driverMail).html).toContain(`<a href="${PUBLIC_URL}/app/dane-pojazdu?open=1" style="display:inline-block`);
    expect(partsOf(accepted.find((m) => m.to.includes(ADVISOR_SS01))!).text).toContain(`${PUBLIC_URL}/app/order?open=1`);
  }, 60_000);

  it('shows a manager the net total only when the order shows him prices (cenaWidoczna T)', async () => {
    // order 2 (priced, cenaWidoczna T) back before its submission
    await t.app.db.updateTable('service_order').set({ status: 0 }).where('autId', '=', 2).execute();
    expect((await transition('doradca', 2, 1)).statusCode).toBe(200);
    // order 2 is authorised: its number names it
    expect(await named(2)).toMatch(/^AUT\/\d{4}\/0000002$/);
    const mails = await mailsAbout(new RegExp(`^Zlecenie ${re(await named(2))} \\(WZ12345\\) czeka na Twoją akceptację$`), 2);
    for (const mail of mails) expect(partsOf(mail).text).toMatch(/Wartość netto kosztorysu: 753,00\s*zł/);
  }, 60_000);

  it('a refused transition, or one that fails after its notifications were written, leaves no notification and no mail', async () => {
    const count = async () => Number((await sql<{ n: number }>`select count(*)::int as n from notification`.execute(t.app.db)).rows[0].n);
    const before = await count();
    expect((await transition('manager', 1, 4)).statusCode).toBe(409); // authorising is the administrator's
    // the database refuses the last write of the transaction, after the outbox rows: all of it goes back
    await sql`create function refuse_notification() returns trigger language plpgsql as $$ begin raise exception 'refused for the test' using errcode = '22023'; end $$`.execute(t.app.db);
    await sql`create trigger refuse_notification after insert on notification for each statement execute function refuse_notification()`.execute(t.app.db);
    try {
      await t.app.db.updateTable('service_order').set({ status: 1 }).where('autId', '=', 4).execute();
      expect((await transition('manager', 4, 10)).statusCode).toBe(400);
    } finally {
      await sql`drop trigger refuse_notification on notification`.execute(t.app.db);
      await sql`drop function refuse_notification()`.execute(t.app.db);
    }
    expect(await count()).toBe(before);
    const order = await t.app.db.selectFrom('service_order').select('status').where('autId', '=', 4).executeTakeFirstOrThrow();
    expect(order.status).toBe(1);
    expect(await t.app.db.selectFrom('order_transition').select('id').where('autId', '=', 4).execute()).toEqual([]);
  }, 60_000);

  it('without a mail server the e-mail waits with its reason; a manager moved to another client meanwhile gets nothing about the old one', async () => {
    await t.app.db.updateTable('email_config').set({ smtpHost: null }).where('id', '=', 1).execute();
    await t.app.db.updateTable('service_order').set({ status: 0, pricingConfirmed: true }).where('autId', '=', 4).execute();
    expect((await transition('doradca', 4, 1)).statusCode).toBe(200);
    const rows = () => t.app.db.selectFrom('notification as n').innerJoin('app_user as u', 'u.id', 'n.userId')
      .select(['u.login', 'n.state', 'n.lastError']).where('n.channel', '=', 'email').where('n.entityId', '=', 4).orderBy('u.login').execute();
    const until = Date.now() + 15_000;
    while ((await rows()).some((r) => r.lastError !== 'NO_SMTP') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await rows()).toEqual([
      { login: 'manager', state: 'queued', lastError: 'NO_SMTP' },
      { login: 'nowy.manager', state: 'queued', lastError: 'NO_SMTP' },
    ]);
    // the manager now serves another client; then the mail server is configured (saving it re-queues what waited)
    await t.app.db.updateTable('app_user').set({ klientSymbol: 'KL002' }).where('login', '=', 'manager').execute();
    try {
      const settings = { smtpHost: '127.0.0.1', smtpPort: smtp.port, smtpUser: 'portal', smtpPassword: 'smtp-haslo', smtpEmail: 'portal@partnercfm.pl', smtpSsl: 'OFF' };
      expect((await t.call('PUT', '/api/settings/email', { token: await as('admin'), body: settings })).statusCode).toBe(200);
      const mails = await mailsAbout(new RegExp(`^Zlecenie ${re(await named(4))} \\(WZ12345\\) czeka na Twoją akceptację$`), 1);
      expect(recipients(mails)).toEqual(['ewa.nowicka@transbud.pl']);
      expect(await rows()).toEqual([
        { login: 'manager', state: 'skipped', lastError: 'NOT_VISIBLE' },
        { login: 'nowy.manager', state: 'sent', lastError: null },
      ]);
    } finally {
      await t.app.db.updateTable('app_user').set({ klientSymbol: 'KL001' }).where('login', '=', 'manager').execute();
    }
  }, 60_000);

  it('with the mail server refusing, a reported damage waits, is retried with backoff, and arrives once when the server is back', async () => {
    const driver = await as('kierowca');
    const car = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr', 'pracId']).where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    smtp.refuseAll(true);
    const res = await t.call('POST', '/api/damage/add', {
      token: driver,
      body: {
        pojazdId: car.pojazdId, rejestr: car.rejestr, pracId: car.pracId, dataSzkod: new Date().toISOString(), rodzSzkod: 'Kolizja drogowa',
        zgloNazwiskoImie: 'Kowalski Jan', zgloTelef: '+48 600 100 200', zgloEmail: DRIVER,
      },
    });
    expect(res.statusCode).toBe(200);
    const sprawaId = res.json().sprawaId as number;
    const states = () => t.app.db.selectFrom('notification').select(['state', 'attempts', 'lastError'])
      .where('event', '=', 'damageReported').where('entityId', '=', sprawaId).where('channel', '=', 'email').execute();
    const until = Date.now() + 15_000;
    while (!(await states()).every((r) => r.state === 'failed') && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    const failed = await states();
    expect(failed).toHaveLength(2);
    for (const row of failed) expect(row).toMatchObject({ state: 'failed', lastError: expect.stringMatching(/^SMTP: .*Mailbox unavailable/) });
    smtp.refuseAll(false);
    const mails = await mailsAbout(new RegExp(`^Zgłoszono szkodę SZK/\\d{4}/\\d+ \\(WZ12345\\)$`), 2, 30_000);
    expect(recipients(mails)).toEqual(MANAGERS_KL001);
    expect(partsOf(mails[0]).text).toContain('Rodzaj szkody: Kolizja drogowa.');
    for (const row of await states()) {
      expect(row.state).toBe('sent');
      expect(row.attempts).toBeGreaterThanOrEqual(2);
    }
    // the delivery ran again after it was sent: nothing more goes out (at most once)
    const ids = await t.app.db.selectFrom('notification').select('id').where('event', '=', 'damageReported').where('entityId', '=', sprawaId).execute();
    for (const { id } of ids) expect(await t.app.notifications.deliver(id)).toBe('nothing');
    expect(smtp.received.filter((m) => m.subject.startsWith('Zgłoszono szkodę'))).toHaveLength(2);
  }, 60_000);
});
