/**
 * The daily digest and the administrators' failure summary (issue 25, events 5 and 6), through the
 * API, the real job queue and a real SMTP server, with the day fixed: the first digest lists what is
 * due; the same digest again sends nothing; the next day brings only what got worse by the date or
 * by a write; each user's hour is kept, and once a day is once even when two runs meet; a failed
 * delivery reaches the administrators once.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partsOf, startTestSmtp, useTestSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const MANAGER = 'anna.nowak@transbud.pl'; // manager, KL001
const MANAGER2 = 'tomasz.wisniewski@mleczpol.pl'; // manager2, KL002
const ADMIN = 'admin@partnercfm.pl';
const DIGEST = /nowe lub pilniejsze sprawy/;
const FAILURES = /nieudanych wysyłek/;

describe('the daily digest and the failure summary', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let admin: string;
  // 08:00 in Warsaw on the seed's day: past the default digest hour (7)
  let now = new Date();
  now.setUTCHours(7, 0, 0, 0);
  const clock = () => now;
  const day = (offset: number) => {
    const d = new Date(now);
    d.setUTCDate(d.getUTCDate() + offset);
    return d.toISOString().slice(0, 10);
  };

  const pending = async () => Number((await sql<{ n: number }>`
    select count(*)::int as n from notification where channel = 'email' and state in ('queued', 'sending')`.execute(t.app.db)).rows[0].n);
  /** Runs the digest as the administrators' button does, and answers the mails it brought, once all are delivered. */
  async function runDigest(): Promise<{ answer: { users: number; queued: number; message: string }; mails: ReceivedMail[] }> {
    const before = smtp.received.length;
    const res = await t.call('POST', '/api/admin/notifications/digest', { token: admin, body: {} });
    expect(res.statusCode, res.body).toBe(200);
    const until = Date.now() + 30_000;
    while ((await pending()) > 0) {
      if (Date.now() > until) throw new Error('the digest\'s mails were not delivered');
      await new Promise((r) => setTimeout(r, 100));
    }
    return { answer: res.json(), mails: smtp.received.slice(before) };
  }
  /** How many items the manager's first digest counted. */
  let firstTotal = 0;
  const to = (mails: ReceivedMail[], address: string, subject: RegExp) => mails.filter((m) => m.to.includes(address) && subject.test(m.subject));
  const textOf = (mail: ReceivedMail) => partsOf(mail).text;
  const lines = (mail: ReceivedMail) => textOf(mail).split(/\r?\n/).filter((l) => l.startsWith('• '));

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestApp({ clock, notifications: { worker: true, publicUrl: 'https://portal.example.pl', pollingIntervalSeconds: 0.5 } });
    await useTestSmtp(t.app.db, smtp);
    admin = await t.signIn('admin');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('lists what is due in the first digest, in Polish, and sends nothing the second time when nothing changed', async () => {
    // a policy of the manager's client that turns urgent tomorrow (15 days left today, 14 tomorrow: the next test)
    const vehicle = (await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('klientSymbol', '=', 'KL001').orderBy('pojazdId').executeTakeFirstOrThrow());
    await t.app.db.updateTable('car').set({ nwDataDo: day(15) }).where('pojazdId', '=', vehicle.pojazdId).execute();

    const first = await runDigest();
    expect(first.answer.message).toMatch(/^Uruchomiono podsumowanie dzienne: \d+ użytkowników, \d+ wiadomości w kolejce\.$/);
    const [mail] = to(first.mails, MANAGER, DIGEST);
    expect(mail.subject).toMatch(/^Partner CFM: \d+ – nowe lub pilniejsze sprawy od ostatniego podsumowania$/);
    expect(textOf(mail)).toContain('Od ostatniego podsumowania pojawiły się lub stały się pilniejsze te sprawy');
    // the most urgent first, 30 named and the rest counted
    const total = Number(/: (\d+) –/.exec(mail.subject)![1]);
    firstTotal = total;
    expect(lines(mail)).toHaveLength(Math.min(total, 30));
    expect(lines(mail)[0]).toMatch(/^• Po terminie: [A-Z]{2}\d+ .+ – .+/);
    if (total > 30) expect(textOf(mail)).toContain(`…oraz ${total - 30} kolejnych – pełna lista na Pulpicie portalu.`);
    // only his client's vehicles: no line names a vehicle of another client
    const others = (await t.app.db.selectFrom('car').select('rejestr').where('klientSymbol', '<>', 'KL001').execute()).map((c) => c.rejestr);
    expect(lines(mail).filter((l) => others.some((r) => r && l.includes(` ${r} `)))).toEqual([]);
    expect(textOf(mail)).toContain('https://portal.example.pl/app/account/notifications');
    // another client's manager gets his own, an administrator (digest off by default) none
    expect(to(first.mails, MANAGER2, DIGEST)).toHaveLength(1);
    expect(to(first.mails, ADMIN, DIGEST)).toHaveLength(0);

    const again = await runDigest();
    expect(to(again.mails, MANAGER, DIGEST)).toEqual([]);
    expect(to(again.mails, MANAGER2, DIGEST)).toEqual([]);
  });

  it('sends the next day only what got worse: by the date alone, and by a write', async () => {
    now = new Date(now.getTime() + 24 * 3600_000);
    const vehicle = (await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('klientSymbol', '=', 'KL001').orderBy('pojazdId').executeTakeFirstOrThrow());
    const other = (await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('klientSymbol', '=', 'KL001').orderBy('pojazdId', 'desc').executeTakeFirstOrThrow());
    // a write: the other vehicle's inspection is found to have passed yesterday
    await t.app.db.updateTable('car').set({ dataPrzeg: day(-1) }).where('pojazdId', '=', other.pojazdId).execute();

    const next = await runDigest();
    const [mail] = to(next.mails, MANAGER, DIGEST);
    const found = lines(mail);
    expect(found.some((l) => l.startsWith(`• Pilne: ${vehicle.rejestr}`) && l.includes('Polisa NW'))).toBe(true);
    expect(found.some((l) => l.startsWith(`• Po terminie: ${other.rejestr}`) && l.includes('Badanie techniczne'))).toBe(true);
    // nothing that stayed as it was: far fewer lines than the first digest had
    const total = Number(/: (\d+) –/.exec(mail.subject)![1]);
    expect(total).toBeLessThan(firstTotal);
    expect(total).toBeGreaterThanOrEqual(2);
  });

  it('keeps each user\'s hour, and runs once a day when two runs meet', async () => {
    now = new Date(now.getTime() + 24 * 3600_000);
    now.setUTCHours(4, 0, 0, 0); // 05:00 in Warsaw, before the default hour
    expect(await t.app.digest.run()).toEqual({ users: 0, queued: 0 });
    now.setUTCHours(9, 0, 0, 0);
    await t.app.db.updateTable('car').set({ acDataDo: day(-2) }).where('klientSymbol', '=', 'KL001').execute();
    const before = smtp.received.length;
    const [a, b] = await Promise.all([t.app.digest.run(), t.app.digest.run()]);
    expect(a.queued + b.queued).toBeGreaterThan(0);
    const until = Date.now() + 30_000;
    while ((await pending()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(to(smtp.received.slice(before), MANAGER, DIGEST)).toHaveLength(1);
    expect(await t.app.digest.run()).toMatchObject({ queued: 0 });
  });

  it('tells the administrators once of the deliveries that failed', async () => {
    const manager = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
    await t.app.db.insertInto('notification').values({
      event: 'orderAwaitingAcceptance', userId: manager.id, email: MANAGER, channel: 'email', entity: 'order', entityId: 1,
      dedupeKey: 'test:failed:1', state: 'failed', attempts: 8, lastError: 'NO_EMAIL', claimedAt: sql<Date>`now()`,
    }).execute();
    const first = await runDigest();
    const [mail] = to(first.mails, ADMIN, FAILURES);
    expect(mail.subject).toBe('Partner CFM: 1 nieudanych wysyłek powiadomień');
    expect(lines(mail)[0]).toMatch(/^• #\d+ Zlecenie czeka na akceptację – manager <anna\.nowak@transbud\.pl>, prób: 8\. Odbiorca nie ma adresu e-mail\.$/);
    const again = await runDigest();
    expect(to(again.mails, ADMIN, FAILURES)).toEqual([]);
  });
});
