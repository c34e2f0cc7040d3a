/**
 * A person's data (issue 37, RODO art. 15, 17, 20; ACCESS.md "personal data of a person: export,
 * anonymise — ADMIN"; docs/decisions.md "RODO: export and anonymisation (issue 37)").
 *
 * The demo's Jan Kowalski (kierowca) has an open assignment of WZ12345, orders, a damage and a
 * note; Anna Nowak (manager) has orders, a note and an attachment, and approved an order of the
 * advisor. The export of one holds their rows and none of the other's; the anonymisation of Anna
 * leaves the orders whole and her name nowhere a table filter can find it.
 */
import JSZip from 'jszip';
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../server/audit/verify.ts';
import { recordChange, systemActor } from '../../server/audit/index.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Row = Record<string, unknown>;

describe('a person\'s data: export and anonymisation', () => {
  let t: TestApp;
  let admin: string;
  let ids: Record<string, number>;

  const idOf = async (login: string) => (await t.app.db.selectFrom('app_user').select('id').where('login', '=', login).executeTakeFirstOrThrow()).id;
  const exportOf = (id: number, token = admin) => t.call('POST', `/api/users/${id}/personal-data/export`, { token, body: {} });
  const anonymise = (id: number, token = admin) => t.call('POST', `/api/users/${id}/anonymise`, { token, body: {} });
  /** The rows of a table screen's resource whose column contains the text, as the table's filter finds them. */
  const found = async (resource: string, column: string, text: string) => {
    const res = await t.call('POST', `/api/${resource}/table2`, { token: admin, body: { startRow: 0, endRow: 100, filterModel: { [column]: { filterType: 'text', type: 'contains', filter: text } } } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().rows as Row[];
  };
  async function download(link: string) {
    const res = await t.app.inject({ method: 'GET', url: link });
    return res;
  }
  async function archiveOf(id: number) {
    const res = await exportOf(id);
    expect(res.statusCode, res.body).toBe(200);
    const file = await download(res.json().data);
    expect(file.statusCode, file.body).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    const zip = await JSZip.loadAsync(file.rawPayload);
    const json = async (name: string) => JSON.parse(await zip.file(`json/${name}.json`)!.async('string')) as Row[];
    return { zip, json, link: res.json().data as string };
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    // each leaves a sign-in in the login history and a session
    await t.signIn('kierowca');
    await t.signIn('manager');
    ids = { kierowca: await idOf('kierowca'), manager: await idOf('manager'), doradca: await idOf('doradca'), admin: await idOf('admin') };
  }, 120_000);
  afterAll(async () => t?.close());

  it('exports a person\'s rows and none of another person\'s, as JSON and xlsx with a Polish index, recorded in the trail', async () => {
    // what was done to his account, to another's, and to a part of a record keyed like his (`<key>/<n>`)
    await t.app.db.transaction().execute(async (trx) => {
      for (const recordKey of [ids.kierowca, ids.manager, `${ids.kierowca}/1`]) {
        await recordChange(trx, { actor: systemActor('test'), resource: 'users', recordKey, action: 'update', changes: { telefon: ['1', '2'] } });
      }
    });
    const { zip, json } = await archiveOf(ids.kierowca);
    const index = await zip.file('indeks.txt')!.async('string');
    expect(index).toContain('Jan Kowalski (login kierowca');
    expect(index).toContain('json/zlecenia.json — zlecenia serwisowe');
    expect(index).toContain('dane-osobowe.xlsx');
    expect(zip.file('dane-osobowe.xlsx')).not.toBeNull();

    const user = await json('uzytkownik');
    expect(user).toHaveLength(1);
    expect(user[0]).toMatchObject({ id: ids.kierowca, login: 'kierowca', lastName: 'Kowalski', email: 'jan.kowalski@transbud.pl' });
    expect(user[0]).not.toHaveProperty('passwordHash');
    expect(await json('pracownik')).toEqual([expect.objectContaining({ nazwisko: 'Kowalski', imie: 'Jan' })]);
    expect((await json('przydzialy')).length).toBeGreaterThan(0);

    const orders = await json('zlecenia');
    expect(orders.filter((o) => o.userId === ids.kierowca).length).toBe(2);
    // every order is his or names him; the manager's order of the other vehicle (only Anna Nowak in it) is not there
    for (const o of orders) expect(o.userId === ids.kierowca || JSON.stringify(o).includes('Kowalski')).toBe(true);
    expect(orders.some((o) => o.rejestr === 'WZ67890')).toBe(false);

    expect((await json('szkody')).map((d) => d.zgloNazwiskoImie)).toEqual(['Kowalski Jan']);
    expect((await json('notatki')).map((n) => n.autor)).toEqual(['Jan Kowalski']);
    const signIns = await json('historia-logowan');
    expect(signIns.length).toBeGreaterThan(0);
    expect(new Set(signIns.map((r) => r.login))).toEqual(new Set(['kierowca']));
    const sessions = await json('sesje');
    expect(sessions.length).toBeGreaterThan(0);
    for (const s of sessions) {
      expect(s.userId).toBe(ids.kierowca);
      expect(s).not.toHaveProperty('tokenHash');
    }
    expect((await json('akceptacje')).every((a) => a.userId === ids.kierowca)).toBe(true);
    // the trail: what he did (his sign-in) and what was done to his account, nothing done to another's
    const trail = await json('dziennik-zmian');
    expect(trail.some((e) => e.userId === ids.kierowca && e.action === 'sign-in')).toBe(true);
    expect(trail.filter((e) => e.resource === 'users' && e.job === 'test').map((e) => e.recordKey)).toEqual([String(ids.kierowca)]);
    for (const e of trail) expect(e.userId === ids.kierowca || (e.resource === 'users' && e.recordKey === String(ids.kierowca)), JSON.stringify(e)).toBe(true);
    // nothing of Anna Nowak's own: her attachments, her note
    expect(await json('zalaczniki')).toEqual([]);
    expect(JSON.stringify(await json('notatki'))).not.toContain('Nowak');

    const entry = await t.app.db.selectFrom('audit_entry').selectAll().where('action', '=', 'personal-data-export').where('recordKey', '=', String(ids.kierowca)).executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ actorKind: 'user', userId: ids.admin, actorLabel: 'admin', resource: 'users' });
    const changes = (typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes) as Record<string, [unknown, Record<string, number>]>;
    expect(changes.files[1]).toMatchObject({ uzytkownik: 1, zlecenia: orders.length });
  });

  it('the workbook is for the person: sheets named in Polish, columns by their labels, Polish dates, no empty sheets (issue 49)', async () => {
    const { zip, json } = await archiveOf(ids.kierowca);
    const book = XLSX.read(await zip.file('dane-osobowe.xlsx')!.async('nodebuffer'), { type: 'buffer' });
    expect(book.SheetNames).toContain('Konto w portalu');
    expect(book.SheetNames).toContain('Zlecenia serwisowe');
    // he added no attachment: no sheet saying "0 wierszy" (the JSON file and the index still list it)
    expect(await json('zalaczniki')).toEqual([]);
    expect(book.SheetNames).not.toContain('Załączniki');
    for (const name of book.SheetNames) {
      const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[name]!, { header: 1 });
      expect(rows.length, name).toBeGreaterThan(1);
      expect(JSON.stringify(rows)).not.toMatch(/wierszy/);
    }
    const [header, ...employee] = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['Pracownik']!, { header: 1 });
    expect(header).toEqual(expect.arrayContaining(['ID pracownika', 'Stanowisko', 'Struktura – poziom 1']));
    expect(header).not.toEqual(expect.arrayContaining(['pracId', 'kodStan', 'stru1']));
    const [accountHeader, account] = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets['Konto w portalu']!, { header: 1 });
    expect(accountHeader).toContain('Nazwisko');
    const cells = (account as unknown[]).map(String);
    expect(cells).toContain('Kowalski');
    // dates as the screens write them, never ISO
    expect(cells.some((c) => /^\d{2}\.\d{2}\.\d{4}/.test(c))).toBe(true);
    expect(cells.some((c) => /^\d{4}-\d{2}-\d{2}/.test(c))).toBe(false);
    expect(employee.length).toBe(1);
  });

  it('hands the file out once', async () => {
    const res = await exportOf(ids.doradca);
    const link = res.json().data as string;
    expect((await download(link)).statusCode).toBe(200);
    const again = await download(link);
    expect(again.statusCode).toBe(403);
    expect(again.json().code).toBe('DOWNLOAD_REFUSED');
    expect((await download('/api/personal-data/download?token=nonsense')).statusCode).toBe(403);
    expect(await t.app.db.selectFrom('export_file').select('id').where('filename', 'like', '%doradca%').execute()).toEqual([]);
  });

  it('is for an administrator alone: a manager is refused (403), an integration key too, a signed-out caller 401', async () => {
    const manager = await t.signIn('manager2');
    for (const res of [await exportOf(ids.kierowca, manager), await anonymise(ids.doradca, manager)]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('FORBIDDEN');
    }
    const account = (await t.call('POST', '/api/integration-accounts', { token: admin, body: { name: 'Wszystko', allClients: true, clients: [], scopes: ['read:car'] } })).json();
    const key = (await t.call('POST', `/api/integration-accounts/${account.id}/keys`, { token: admin, body: {} })).json().key as string;
    for (const url of [`/api/users/${ids.kierowca}/personal-data/export`, `/api/users/${ids.doradca}/anonymise`]) {
      const res = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{}' });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/users/${ids.kierowca}/personal-data/export`, headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode).toBe(401);
    expect((await exportOf(999_999)).statusCode).toBe(404);
    expect((await anonymise(999_999)).statusCode).toBe(404);
    // nothing was anonymised by the refused calls
    expect((await t.app.db.selectFrom('app_user').select('login').where('id', '=', ids.doradca).executeTakeFirstOrThrow()).login).toBe('doradca');
  });

  it('refuses a person with an open vehicle assignment, saying why in Polish, and changes nothing', async () => {
    const res = await anonymise(ids.kierowca);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'OPEN_ASSIGNMENT' });
    expect(res.json().detail).toMatch(/^Nie można zanonimizować osoby, która ma otwarty przydział pojazdu WZ12345 \(wydany .+\)\. Najpierw zarejestruj zwrot pojazdu\.$/);
    expect((await t.app.db.selectFrom('app_user').select('lastName').where('id', '=', ids.kierowca).executeTakeFirstOrThrow()).lastName).toBe('Kowalski');
    expect(await t.app.db.selectFrom('audit_entry').select('id').where('action', '=', 'anonymise').execute()).toEqual([]);
  });

  it('refuses one\'s own account', async () => {
    const res = await anonymise(ids.admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toBe('Nie można zanonimizować własnego konta');
  });

  it('anonymises a person: orders stay whole, the name is nowhere a table filter finds it, sign-in ends and is refused, recorded', async () => {
    // a namesake at another client: not her, so neither rewritten nor hers
    const otherCar = await t.app.db.selectFrom('car').select(['pojazdId', 'klientSymbol']).where('klientSymbol', '=', 'KL002').executeTakeFirstOrThrow();
    const namesake = await t.app.db.insertInto('service_order').values({
      pojazdId: otherCar.pojazdId, klientSymbol: otherCar.klientSymbol, autTyp: 0, zgloNazwiskoImie: 'Nowak Anna', zgloZakres: 'Przegląd',
    }).returning('autId').executeTakeFirstOrThrow();
    const ordersBefore = await t.app.db.selectFrom('service_order').select(['autId', 'status', 'zgloZakres', 'userId']).orderBy('autId').execute();
    const managerSession = await t.signIn('manager');
    expect((await found('order', 'zgloNazwiskoImie', 'Nowak')).length).toBeGreaterThan(0);

    // a message already written about her order to another person, and one queued to her
    const about = await t.app.db.insertInto('notification').values({
      userId: ids.doradca, channel: 'inApp', event: 'order.status_changed', dedupeKey: 'rodo-about', state: 'sent',
      payload: JSON.stringify({ order: { zgloNazwiskoImie: 'Nowak Anna', zgloEmail: 'anna.nowak@transbud.pl', zgloZakres: 'Badanie' } }),
    }).returning('id').executeTakeFirstOrThrow();
    const toHer = await t.app.db.insertInto('notification').values({
      userId: ids.manager, channel: 'email', email: 'anna.nowak@transbud.pl', event: 'order.status_changed', dedupeKey: 'rodo-to', payload: '{}',
    }).returning('id').executeTakeFirstOrThrow();

    const res = await anonymise(ids.manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Osobę zanonimizowano, a jej konto zamknięto');

    // the business records stay, the same rows with the same content but the names
    expect(await t.app.db.selectFrom('service_order').select(['autId', 'status', 'zgloZakres', 'userId']).orderBy('autId').execute()).toEqual(ordersBefore);
    const pseudonym = `Osoba zanonimizowana ${ids.manager}`;
    const hers = await t.app.db.selectFrom('service_order').select(['zgloNazwiskoImie', 'zgloEmail', 'zatwierdzil']).where('userId', '=', ids.manager).execute();
    expect(hers.map((o) => o.zgloNazwiskoImie)).toEqual([pseudonym, pseudonym]);
    expect(hers.map((o) => o.zgloEmail)).toEqual([null, null]);
    // the advisor's order she approved names her by the pseudonym too
    expect((await t.app.db.selectFrom('service_order').select('zatwierdzil').where('userId', '=', ids.doradca).executeTakeFirstOrThrow()).zatwierdzil).toBe(pseudonym);

    expect((await t.app.db.selectFrom('service_order').select('zgloNazwiskoImie').where('autId', '=', namesake.autId).executeTakeFirstOrThrow()).zgloNazwiskoImie).toBe('Nowak Anna');
    await t.app.db.deleteFrom('service_order').where('autId', '=', namesake.autId).execute();

    // unfindable by name, e-mail or login through the tables' filters
    for (const [resource, column, text] of [
      ['users', 'lastName', 'Nowak'], ['users', 'email', 'anna.nowak'], ['users', 'login', 'manager'],
      ['order', 'zgloNazwiskoImie', 'Nowak'], ['order', 'zatwierdzil', 'Nowak'], ['order', 'zgloEmail', 'anna.nowak'],
      ['login-history', 'login', 'manager'], ['acceptance-history', 'surname', 'Nowak'], ['notification', 'email', 'anna.nowak'],
    ] as const) {
      // other people share a part (Aleksandra Nowak, manager2): only rows naming Anna Nowak count
      const hers = (await found(resource, column, text)).filter((r) => /anna\.nowak|Nowak Anna|Anna Nowak/i.test(JSON.stringify(r))
        || (r.firstName === 'Anna' && r.lastName === 'Nowak') || (r.name === 'Anna' && r.surname === 'Nowak') || r.login === 'manager');
      expect(hers, `${resource}.${column} ~ ${text}`).toEqual([]);
    }
    // no message names her again, and none is sent to her
    const aboutAfter = await t.app.db.selectFrom('notification').select('payload').where('id', '=', about.id).executeTakeFirstOrThrow();
    expect(aboutAfter.payload).toEqual({ order: { zgloNazwiskoImie: `Osoba zanonimizowana ${ids.manager}`, zgloEmail: '', zgloZakres: 'Badanie' } });
    expect(await t.app.db.selectFrom('notification').select(['state', 'email']).where('id', '=', toHer.id).executeTakeFirstOrThrow()).toEqual({ state: 'skipped', email: null });
    const notes = await t.app.db.selectFrom('note').select('autor').where('userId', '=', ids.manager).execute();
    expect(notes.map((n) => n.autor)).toEqual([pseudonym]);

    // the account is closed: its session ended, no way in by password
    expect((await t.call('GET', '/api/notifications/unread-count', { token: managerSession })).statusCode).toBe(401);
    for (const username of ['manager', `anonim-${ids.manager}`]) {
      const signIn = await t.call('POST', '/api/user/auth', { body: { username, password: 'Manager123!', role: 'MANAGER' } });
      expect(signIn.statusCode, username).toBe(401);
    }
    const account = await t.app.db.selectFrom('app_user').selectAll().where('id', '=', ids.manager).executeTakeFirstOrThrow();
    expect(account).toMatchObject({ login: `anonim-${ids.manager}`, firstName: 'Osoba', email: null, telefon: null, passwordHash: null, ssoSubject: null });
    expect(account.deletedAt).not.toBeNull();
    expect(await t.app.db.selectFrom('user_session').select('userId').where('userId', '=', ids.manager).execute()).toEqual([]);

    // recorded: who, whom; the trail learns no value it did not hold, and the chain holds
    const entry = await t.app.db.selectFrom('audit_entry').selectAll().where('action', '=', 'anonymise').executeTakeFirstOrThrow();
    expect(entry).toMatchObject({ userId: ids.admin, resource: 'users', recordKey: String(ids.manager) });
    const text = typeof entry.changes === 'string' ? entry.changes : JSON.stringify(entry.changes);
    expect(text).not.toMatch(/Nowak|anna\.nowak|22 611/);
    expect(text).toContain(`anonim-${ids.manager}`);
    const counts = (typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes).rewrittenRows[1] as Record<string, number>;
    expect(counts).toMatchObject({ uzytkownik: 1, sesje: expect.any(Number) });
    expect(counts.notatki).toBeGreaterThanOrEqual(1);
    expect(counts.zlecenia).toBeGreaterThanOrEqual(3);
    expect((await verifyChain(t.app.db)).ok).toBe(true);

    // once is enough
    const again = await anonymise(ids.manager);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_ANONYMISED');
  });
});
