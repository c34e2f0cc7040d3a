/**
 * Report subscriptions (issue 46): a manager subscribes to a report with his grouping and filters;
 * he sees his own, an administrator everyone's; the refusals of ACCESS.md ("report subscriptions |
 * self, and list all | self"); bad input a 400 naming the field; "Wyślij teraz" e-mails the last
 * complete period with the file attached, through the outbox and the real job queue to a real SMTP
 * server; the scheduled run sends a period once however often it runs; the file holds the owner's
 * rows as his rights are when it is sent, and an owner who lost the role or whose account ended
 * gets nothing, the send logged as skipped with the reason.
 */
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastPeriod, momentOf } from '../../server/reports/subscriptions.ts';
import { startTestSmtp, useTestSmtp, type ReceivedMail, type TestSmtp } from '../support/smtp.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const MANAGER = 'anna.nowak@transbud.pl'; // manager, KL001
const MANAGER2 = 'tomasz.wisniewski@mleczpol.pl'; // manager2, KL002

/** The attached file of a message: its part's headers and its decoded content. */
function attachmentOf(mail: ReceivedMail): { head: string; content: Buffer } | undefined {
  const boundaries = [...mail.raw.matchAll(/boundary="?([^";\r\n]+)"?/gi)].map((m) => m[1]);
  let parts = [mail.raw];
  for (const b of boundaries) parts = parts.flatMap((p) => p.split(`--${b}`));
  const part = parts.find((p) => /^Content-Disposition: attachment/im.test(p));
  if (!part) return undefined;
  const split = part.indexOf('\r\n\r\n');
  return { head: part.slice(0, split), content: Buffer.from(part.slice(split + 4).replace(/\s+/g, ''), 'base64') };
}

/** Every cell's text of an xlsx file. */
async function cellsOf(content: Buffer): Promise<string[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(content as unknown as ArrayBuffer);
  const out: string[] = [];
  book.eachSheet((sheet) => sheet.eachRow((row) => row.eachCell((cell) => out.push(String(cell.text)))));
  return out;
}

describe('report subscriptions', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  const tok: Record<string, string> = {};
  const plates: Record<string, string[]> = {};

  const subscribe = (who: string, body: Record<string, unknown>) => t.call('POST', '/api/report-subscriptions', { token: tok[who], body });
  const pending = async () => Number((await sql<{ n: number }>`
    select count(*)::int as n from notification where channel = 'email' and state in ('queued', 'sending')`.execute(t.app.db)).rows[0].n);
  /** The mails that arrived once every queued e-mail is delivered. */
  async function delivered(before: number): Promise<ReceivedMail[]> {
    const until = Date.now() + 30_000;
    while ((await pending()) > 0) {
      if (Date.now() > until) throw new Error('the report e-mails were not delivered');
      await new Promise((r) => setTimeout(r, 100));
    }
    return smtp.received.slice(before);
  }

  beforeAll(async () => {
    smtp = await startTestSmtp();
    t = await startTestApp({ notifications: { worker: true, publicUrl: 'https://portal.example.pl', pollingIntervalSeconds: 0.5 } });
    await useTestSmtp(t.app.db, smtp);
    for (const who of ['admin', 'manager', 'manager2', 'kierowca'] as const) tok[who] = await t.signIn(who);
    for (const client of ['KL001', 'KL002']) {
      plates[client] = (await t.app.db.selectFrom('car').select('rejestr').where('klientSymbol', '=', client).execute()).map((c) => String(c.rejestr));
    }
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('periods: weekly the previous Monday–Sunday, monthly the previous calendar month; the moment in this week or month', () => {
    expect(lastPeriod('weekly', '2026-12-03')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // a Thursday
    expect(lastPeriod('weekly', '2026-11-30')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // a Monday
    expect(lastPeriod('weekly', '2026-12-06')).toEqual({ from: '2026-11-23', to: '2026-11-29' }); // a Sunday
    expect(lastPeriod('monthly', '2026-03-01')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(lastPeriod('monthly', '2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(momentOf({ frequency: 'weekly', day: 5, hour: 7 }, '2026-12-03')).toBe('2026-12-04 07');
    expect(momentOf({ frequency: 'monthly', day: 2, hour: 18 }, '2026-12-03')).toBe('2026-12-02 18');
  });

  let mine: number;
  let theirs: number;

  it('a manager subscribes with his grouping and filters; he lists his own, an administrator everyone\'s with the owner; the trail records it', async () => {
    const res = await subscribe('manager', { report: 'vehicle-cost', frequency: 'monthly', format: 'xlsx', params: { groupBy: ['vehicle'] }, day: 2, hour: 6 });
    expect(res.statusCode, res.body).toBe(200);
    mine = res.json().id;
    expect(res.json()).toMatchObject({ message: expect.stringContaining('Koszt pojazdów'), subscription: { id: mine, report: 'vehicle-cost', frequency: 'monthly', day: 2, hour: 6, format: 'xlsx', owner: { login: 'manager' }, sends: [] } });
    const other = await subscribe('manager2', { report: 'co2-emissions', frequency: 'weekly', format: 'pdf', params: {} });
    expect(other.statusCode, other.body).toBe(200);
    theirs = other.json().id;
    expect(other.json().subscription).toMatchObject({ day: 1, hour: 7, params: { groupBy: ['month', 'fuelType'] } });

    const own = (await t.call('GET', '/api/report-subscriptions', { token: tok.manager })).json();
    expect(own.map((s: { id: number }) => s.id)).toEqual([mine]);
    const all = (await t.call('GET', '/api/report-subscriptions', { token: tok.admin })).json();
    expect(all.map((s: { id: number; owner: { login: string } }) => [s.id, s.owner.login])).toEqual(expect.arrayContaining([[mine, 'manager'], [theirs, 'manager2']]));
    const entry = await t.app.db.selectFrom('audit_entry').select(['action', 'changes']).where('resource', '=', 'report-subscription').where('recordKey', '=', String(mine)).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ action: 'create', changes: { report: [null, 'vehicle-cost'], frequency: [null, 'monthly'] } });
  });

  it('refusals: a driver may not subscribe or list; another manager\'s subscription is answered as absent; without a session 401', async () => {
    expect((await subscribe('kierowca', { report: 'vehicle-cost', frequency: 'weekly', format: 'xlsx' })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/report-subscriptions', { token: tok.kierowca })).statusCode).toBe(403);
    expect((await t.call('GET', '/api/report-subscriptions')).statusCode).toBe(401);
    for (const [method, url] of [['DELETE', `/api/report-subscriptions/${mine}`], ['POST', `/api/report-subscriptions/${mine}/send`], ['GET', `/api/report-subscriptions/${mine}/sends`]] as const) {
      const res = await t.call(method, url, { token: tok.manager2 });
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.body).not.toContain('vehicle-cost');
    }
    expect((await t.call('GET', `/api/report-subscriptions/${mine}/sends`, { token: tok.admin })).statusCode).toBe(200);
  });

  it('bad input: each a 400 naming the field, in Polish, and nothing written', async () => {
    const before = await t.app.db.selectFrom('report_subscription').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    const cases: [Record<string, unknown>, string, RegExp][] = [
      [{ report: 'no-such-report', frequency: 'weekly', format: 'xlsx' }, 'report', /Nie ma takiego raportu/],
      [{ report: 'vehicle-cost', frequency: 'weekly', format: 'xlsx', params: { groupBy: ['category'] } }, 'params/groupBy/0', /nie pozwala grupować według „Kategoria”/],
      [{ report: 'vehicle-cost', frequency: 'weekly', format: 'xlsx', params: { filters: { category: ['serwis'] } } }, 'params/filters/category', /nie pozwala filtrować/],
      [{ report: 'vehicle-cost', frequency: 'weekly', format: 'xlsx', day: 8 }, 'day', /od 1 \(poniedziałek\) do 7 \(niedziela\)/],
      [{ report: 'vehicle-cost', frequency: 'monthly', format: 'xlsx', day: 29 }, 'day', /od 1 do 28/],
      [{ report: 'vehicle-cost', frequency: 'monthly', format: 'xlsx', hour: 24 }, 'hour', /od 0 do 23/],
    ];
    for (const [body, field, message] of cases) {
      const res = await subscribe('manager', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors).toEqual([{ field, message: expect.stringMatching(message) }]);
    }
    const wrongFormat = await subscribe('manager', { report: 'vehicle-cost', frequency: 'daily', format: 'doc' });
    expect(wrongFormat.statusCode).toBe(400);
    const after = await t.app.db.selectFrom('report_subscription').select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it('"Wyślij teraz" sends the last complete period: one e-mail with the xlsx attached, the owner\'s vehicles only; the log says sent', async () => {
    const before = smtp.received.length;
    const res = await t.call('POST', `/api/report-subscriptions/${mine}/send`, { token: tok.manager });
    expect(res.statusCode, res.body).toBe(200);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date());
    const period = lastPeriod('monthly', today);
    expect(res.json().send).toMatchObject({ periodFrom: period.from, periodTo: period.to, manual: true, state: 'queued' });
    const mails = await delivered(before);
    expect(mails).toHaveLength(1);
    expect(mails[0].to).toEqual([MANAGER]);
    expect(mails[0].subject).toContain('Koszt pojazdów');
    const file = attachmentOf(mails[0])!;
    expect(file.head).toMatch(/application\/vnd\.openxmlformats-officedocument\.spreadsheetml\.sheet/);
    const cells = await cellsOf(file.content);
    expect(cells.join(' ')).toContain('Koszt pojazdów');
    expect(cells.filter((c) => plates.KL002.some((p) => c.includes(p)))).toEqual([]);
    expect(cells.some((c) => plates.KL001.some((p) => c.includes(p)))).toBe(true);
    const log = (await t.call('GET', `/api/report-subscriptions/${mine}/sends`, { token: tok.manager })).json();
    expect(log[0]).toMatchObject({ manual: true, state: 'sent', reason: null });
  });

  it('a PDF subscription sends a PDF', async () => {
    const before = smtp.received.length;
    expect((await t.call('POST', `/api/report-subscriptions/${theirs}/send`, { token: tok.manager2 })).statusCode).toBe(200);
    const mails = await delivered(before);
    expect(mails.map((m) => m.to)).toEqual([[MANAGER2]]);
    const file = attachmentOf(mails[0])!;
    expect(file.head).toMatch(/application\/pdf/);
    expect(file.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });

  it('the scheduled run sends a due subscription once per period, however often it runs', async () => {
    // made long ago, due on the 1st at midnight: this month's moment has passed
    await t.app.db.updateTable('report_subscription').set({ day: 1, hour: 0, createdAt: new Date(Date.now() - 70 * 86_400_000) }).where('id', '=', mine).execute();
    const before = smtp.received.length;
    const runs = await Promise.all([t.app.reportSubscriptions.schedule(), t.app.reportSubscriptions.schedule()]);
    expect(runs.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await t.app.reportSubscriptions.schedule()).toBe(0);
    const mails = await delivered(before);
    expect(mails.filter((m) => m.to.includes(MANAGER))).toHaveLength(1);
    const scheduled = await t.app.db.selectFrom('report_send').select(['periodFrom', 'scheduled']).where('subscriptionId', '=', mine).where('scheduled', 'is not', null).execute();
    expect(scheduled).toHaveLength(1);
    // one made after this period's moment waits for the next one
    await t.app.db.updateTable('report_subscription').set({ createdAt: new Date() }).where('id', '=', theirs).execute();
    await t.app.db.updateTable('report_subscription').set({ day: 1, hour: 0 }).where('id', '=', theirs).execute();
    expect(await t.app.reportSubscriptions.schedule()).toBe(0);
  });

  it('judged by the owner\'s rights when it is sent: his row scope then; a lost role or an ended account gets nothing, logged as skipped with the reason', async () => {
    // the manager moved to the other client: the next file holds that client's vehicles, not his former ones
    await t.app.db.updateTable('app_user').set({ klientSymbol: 'KL002' }).where('login', '=', 'manager').execute();
    try {
      const before = smtp.received.length;
      expect((await t.call('POST', `/api/report-subscriptions/${mine}/send`, { token: tok.admin })).statusCode).toBe(200);
      const [mail] = await delivered(before);
      const cells = await cellsOf(attachmentOf(mail)!.content);
      expect(cells.filter((c) => plates.KL001.some((p) => c.includes(p)))).toEqual([]);
      expect(cells.some((c) => plates.KL002.some((p) => c.includes(p)))).toBe(true);
    } finally {
      await t.app.db.updateTable('app_user').set({ klientSymbol: 'KL001' }).where('login', '=', 'manager').execute();
    }
    // a role that may not run reports: skipped, no e-mail
    await t.app.db.updateTable('app_user').set({ rola: 'USER' }).where('login', '=', 'manager2').execute();
    try {
      const before = smtp.received.length;
      const res = await t.call('POST', `/api/report-subscriptions/${theirs}/send`, { token: tok.admin });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().send).toMatchObject({ state: 'skipped', reason: expect.stringContaining('nie może już uruchamiać tego raportu') });
      expect(res.json().message).toMatch(/^Nie wysłano raportu/);
      expect(await delivered(before)).toEqual([]);
    } finally {
      await t.app.db.updateTable('app_user').set({ rola: 'MANAGER' }).where('login', '=', 'manager2').execute();
    }
    // an account that ended: the scheduled send is skipped
    await t.app.db.updateTable('report_subscription').set({ createdAt: new Date(Date.now() - 70 * 86_400_000) }).where('id', '=', theirs).execute();
    const ended = await t.app.db.selectFrom('app_user').select(['id', 'dataDo']).where('login', '=', 'manager2').executeTakeFirstOrThrow();
    await t.app.db.updateTable('app_user').set({ dataDo: '2020-01-01' }).where('id', '=', ended.id).execute();
    try {
      const before = smtp.received.length;
      expect(await t.app.reportSubscriptions.schedule()).toBe(1);
      expect(await delivered(before)).toEqual([]);
      const log = (await t.call('GET', `/api/report-subscriptions/${theirs}/sends`, { token: tok.admin })).json();
      expect(log[0]).toMatchObject({ manual: false, state: 'skipped', reason: expect.stringContaining('Konto właściciela subskrypcji jest zamknięte') });
    } finally {
      await t.app.db.updateTable('app_user').set({ dataDo: ended.dataDo }).where('id', '=', ended.id).execute();
    }
  });

  it('the owner deletes his subscription (the trail records it); another manager may not', async () => {
    expect((await t.call('DELETE', `/api/report-subscriptions/${mine}`, { token: tok.manager2 })).statusCode).toBe(404);
    const res = await t.call('DELETE', `/api/report-subscriptions/${mine}`, { token: tok.manager });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toContain('Koszt pojazdów');
    expect((await t.call('GET', '/api/report-subscriptions', { token: tok.manager })).json()).toEqual([]);
    const entries = await t.app.db.selectFrom('audit_entry').select('action').where('resource', '=', 'report-subscription').where('recordKey', '=', String(mine)).orderBy('seq').execute();
    expect(entries.map((e) => e.action)).toEqual(['create', 'delete']);
  });
});
