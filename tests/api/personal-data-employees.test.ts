/**
 * A person's data from an employee (driver), issue 37: "ADMIN, on a user or an employee (driver):
 * Eksport danych osobowych … Anonimizuj" (ACCESS.md "personal data of a person: export, anonymise —
 * ADMIN"; "employees — ADMIN all, MANAGER client"). Administracja → Pracownicy lists the employees;
 * an employee with no account is exported and anonymised as the employee record and the business
 * records naming them; one with an account is the person of that account.
 */
import JSZip from 'jszip';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyChain } from '../../server/audit/verify.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Row = Record<string, unknown>;

describe('a person\'s data from an employee without an account', () => {
  let t: TestApp;
  let admin: string;
  /** A driver of the demo with no account, an open assignment and a damage he reported or drove in. */
  let driver: { pracId: number; imie: string; nazwisko: string; klient: string; nrPrac: string; email: string };

  const exportOf = (pracId: number | string, token = admin) => t.call('POST', `/api/employees/${pracId}/personal-data/export`, { token, body: {} });
  const anonymise = (pracId: number | string, token = admin) => t.call('POST', `/api/employees/${pracId}/anonymise`, { token, body: {} });
  const entries = (action: string, resource: string, key: number) => t.app.db.selectFrom('audit_entry').selectAll()
    .where('action', '=', action).where('resource', '=', resource).where('recordKey', '=', String(key)).execute();
  async function archiveOf(pracId: number) {
    const res = await exportOf(pracId);
    expect(res.statusCode, res.body).toBe(200);
    const file = await t.app.inject({ method: 'GET', url: res.json().data });
    expect(file.statusCode, file.body).toBe(200);
    const zip = await JSZip.loadAsync(file.rawPayload);
    return { zip, headers: file.headers, json: async (name: string) => JSON.parse(await zip.file(`json/${name}.json`)!.async('string')) as Row[] };
  }
  /** The employees table as the given caller's table calls read it, filtered by surname. */
  const employees = async (token: string, surname?: string) => {
    const res = await t.call('POST', '/api/employee/table2', {
      token, body: { startRow: 0, endRow: 500, ...(surname ? { filterModel: { nazwisko: { filterType: 'text', type: 'contains', filter: surname } } } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().rows as Row[];
  };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    const found = await sql<typeof driver>`
      select e."pracId", e."imie", e."nazwisko", e."klient", e."nrPrac", e."email" from employee e
      where not exists (select 1 from app_user u where u."pracId" = e."pracId")
        and exists (select 1 from vehicle_assignment a where a."pracId" = e."pracId" and a."dataZd" is null)
        and exists (select 1 from damage d where d."pracId" = e."pracId")
      order by e."pracId" limit 1`.execute(t.app.db);
    driver = found.rows[0];
    expect(driver, 'the demo has a driver without an account, with an open assignment and a damage').toBeDefined();
  }, 120_000);
  afterAll(async () => t?.close());

  it('lists the employees for an administrator, a fleet manager only his client\'s, an advisor his vehicle\'s client\'s, a driver none', async () => {
    const all = await employees(admin);
    expect(new Set(all.map((r) => r.klientSymbol)).size).toBeGreaterThan(1);
    expect(all.find((r) => r.pracId === driver.pracId)).toMatchObject({ nazwisko: driver.nazwisko, imie: driver.imie, nrPrac: driver.nrPrac });
    const manager = await t.signIn('manager');
    const client = (await t.app.db.selectFrom('app_user').select('klientSymbol').where('login', '=', 'manager').executeTakeFirstOrThrow()).klientSymbol;
    const his = await employees(manager);
    expect(his.length).toBeGreaterThan(0);
    expect(new Set(his.map((r) => r.klientSymbol))).toEqual(new Set([client]));
    const advisorVehicle = await t.app.db.selectFrom('car').select('klientSymbol').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const advisors = await employees(await t.signIn('doradca'));
    expect(advisors.length).toBeGreaterThan(0);
    expect(new Set(advisors.map((r) => r.klientSymbol))).toEqual(new Set([advisorVehicle.klientSymbol]));
    expect((await t.call('POST', '/api/employee/table2', { token: await t.signIn('kierowca'), body: { startRow: 0, endRow: 10 } })).statusCode).toBe(403);
  });

  it('exports the employee\'s rows as the person they are, with no account, recorded under the employee', async () => {
    const { zip, json, headers } = await archiveOf(driver.pracId);
    expect(String(headers['content-disposition'])).toContain(encodeURIComponent(`Dane osobowe pracownika ${driver.pracId}`).slice(0, 20));
    const index = await zip.file('indeks.txt')!.async('string');
    expect(index).toContain(`${driver.imie} ${driver.nazwisko} (pracownik nr ${driver.pracId}, bez konta w portalu)`);
    expect(await json('uzytkownik')).toEqual([]);
    expect(await json('pracownik')).toEqual([expect.objectContaining({ pracId: driver.pracId, nazwisko: driver.nazwisko, nrPrac: driver.nrPrac })]);
    const assignments = await json('przydzialy');
    expect(assignments.length).toBeGreaterThan(0);
    for (const a of assignments) expect(a.pracId).toBe(driver.pracId);
    const damages = await json('szkody');
    expect(damages.some((d) => d.pracId === driver.pracId)).toBe(true);
    // no account: no sign-ins, sessions or acceptances of anybody's
    for (const file of ['historia-logowan', 'sesje', 'akceptacje', 'powiadomienia']) expect(await json(file), file).toEqual([]);
    const [entry] = await entries('personal-data-export', 'employee', driver.pracId);
    expect(entry).toMatchObject({ actorKind: 'user', actorLabel: 'admin', resource: 'employee', recordKey: String(driver.pracId) });
  });

  it('refuses an employee with an open vehicle assignment, saying why in Polish, and changes nothing', async () => {
    const res = await anonymise(driver.pracId);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'OPEN_ASSIGNMENT' });
    expect(res.json().detail).toMatch(/^Nie można zanonimizować osoby, która ma otwarty przydział pojazdu \S+ \(wydany .+\)\. Najpierw zarejestruj zwrot pojazdu\.$/);
    expect((await t.app.db.selectFrom('employee').select('nazwisko').where('pracId', '=', driver.pracId).executeTakeFirstOrThrow()).nazwisko).toBe(driver.nazwisko);
    expect(await entries('anonymise', 'employee', driver.pracId)).toEqual([]);
  });

  it('anonymises the employee once the vehicle is back: the records stay, named by a pseudonym, the name and number found nowhere; recorded', async () => {
    // the vehicle returned (what the return form writes that matters here: the day it came back)
    await t.app.db.updateTable('vehicle_assignment').set({ dataZd: sql`"dataWy"` }).where('pracId', '=', driver.pracId).where('dataZd', 'is', null).execute();
    const damagesBefore = await t.app.db.selectFrom('damage').select(['sprawaId', 'pojazdId', 'pracId']).where('pracId', '=', driver.pracId).orderBy('sprawaId').execute();
    // an order of his client naming him as the vehicle's user, and a namesake's at another client
    const orderFor = async (client: string) => {
      const car = await t.app.db.selectFrom('car').select(['pojazdId', 'klientSymbol']).where('klientSymbol', '=', client).executeTakeFirstOrThrow();
      return (await t.app.db.insertInto('service_order').values({
        pojazdId: car.pojazdId, klientSymbol: car.klientSymbol, autTyp: 0, uzytkPojazdu: `${driver.nazwisko} ${driver.imie}`, zgloZakres: 'Wymiana opon',
      }).returning('autId').executeTakeFirstOrThrow()).autId;
    };
    const his = await orderFor(driver.klient);
    const otherClient = (await t.app.db.selectFrom('client').select('klient').where('klient', '<>', driver.klient).executeTakeFirstOrThrow()).klient;
    const namesake = await orderFor(otherClient);
    const userOf = async (autId: number) => (await t.app.db.selectFrom('service_order').select('uzytkPojazdu').where('autId', '=', autId).executeTakeFirstOrThrow()).uzytkPojazdu;

    const res = await anonymise(driver.pracId);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Pracownika zanonimizowano');

    const record = await t.app.db.selectFrom('employee').selectAll().where('pracId', '=', driver.pracId).executeTakeFirstOrThrow();
    expect(record).toMatchObject({ imie: 'Pracownik', nazwisko: `zanonimizowany ${driver.pracId}`, nrPrac: null, email: null, telefonKom: null, ulica: null });
    // the damages stay, still his (by pracId), without his name
    expect(await t.app.db.selectFrom('damage').select(['sprawaId', 'pojazdId', 'pracId']).where('pracId', '=', driver.pracId).orderBy('sprawaId').execute()).toEqual(damagesBefore);
    const named = await t.app.db.selectFrom('damage').select('sprawaId')
      .where(sql<boolean>`"klientSymbol" = ${driver.klient} and (lower(coalesce("zgloNazwiskoImie", '')) like ${`%${driver.nazwisko.toLowerCase()} ${driver.imie.toLowerCase()}%`})`).execute();
    expect(named).toEqual([]);
    expect(await userOf(his)).toBe(`Pracownik zanonimizowany ${driver.pracId}`);
    expect(await userOf(namesake)).toBe(`${driver.nazwisko} ${driver.imie}`);
    await t.app.db.deleteFrom('service_order').where('autId', 'in', [his, namesake]).execute();
    // the employees table finds him by neither name nor number
    expect((await employees(admin, driver.nazwisko)).filter((r) => r.imie === driver.imie)).toEqual([]);
    expect((await employees(admin)).filter((r) => r.nrPrac === driver.nrPrac && r.klientSymbol === driver.klient)).toEqual([]);

    const [entry] = await entries('anonymise', 'employee', driver.pracId);
    const changes = (typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes) as Record<string, [unknown, unknown]>;
    expect(changes).toMatchObject({ firstName: ['zmieniono', 'Pracownik'], lastName: ['zmieniono', `zanonimizowany ${driver.pracId}`], email: ['zmieniono', null], nrPrac: ['zmieniono', null] });
    // the trail holds no value of his: the values before are "zmieniono"
    expect(JSON.stringify(entry)).not.toContain(driver.email);
    expect((await verifyChain(t.app.db)).ok).toBe(true);

    const again = await anonymise(driver.pracId);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_ANONYMISED');
  });

  it('treats an employee with an account as the person of that account', async () => {
    const account = await t.app.db.selectFrom('app_user').select(['id', 'pracId']).where('login', '=', 'kierowca').executeTakeFirstOrThrow();
    const { json, zip } = await archiveOf(account.pracId!);
    expect((await json('uzytkownik')).map((u) => u.login)).toEqual(['kierowca']);
    expect(await zip.file('indeks.txt')!.async('string')).toContain('(login kierowca');
    expect(await entries('personal-data-export', 'users', account.id)).toHaveLength(1);
    // his open assignment refuses it as from the users' table
    expect((await anonymise(account.pracId!)).json().code).toBe('OPEN_ASSIGNMENT');
  });

  it('is for an administrator alone: other roles 403, an integration key 403, signed out 401, an unknown employee 404, a malformed id 400', async () => {
    const other = await t.app.db.selectFrom('employee').select('pracId')
      .where(sql<boolean>`not exists (select 1 from app_user u where u."pracId" = employee."pracId")`).where('pracId', '<>', driver.pracId).executeTakeFirstOrThrow();
    for (const account of ['manager', 'kierowca', 'doradca'] as const) {
      const token = await t.signIn(account);
      for (const res of [await exportOf(other.pracId, token), await anonymise(other.pracId, token)]) {
        expect(res.statusCode, account).toBe(403);
        expect(res.json().code).toBe('FORBIDDEN');
      }
    }
    const created = (await t.call('POST', '/api/integration-accounts', { token: admin, body: { name: 'Kadry', allClients: true, clients: [], scopes: ['read:employee'] } })).json();
    const key = (await t.call('POST', `/api/integration-accounts/${created.id}/keys`, { token: admin, body: {} })).json().key as string;
    for (const url of [`/api/employees/${other.pracId}/personal-data/export`, `/api/employees/${other.pracId}/anonymise`]) {
      const res = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, payload: '{}' });
      expect(res.statusCode, res.body).toBe(403);
    }
    expect((await t.app.inject({ method: 'POST', url: `/api/employees/${other.pracId}/anonymise`, headers: { 'content-type': 'application/json' }, payload: '{}' })).statusCode).toBe(401);
    expect((await exportOf(999_999)).statusCode).toBe(404);
    expect((await anonymise(999_999)).statusCode).toBe(404);
    expect((await exportOf('abc')).statusCode).toBe(400);
    // none of the refused calls changed him
    const after = await t.app.db.selectFrom('employee').select('imie').where('pracId', '=', other.pracId).executeTakeFirstOrThrow();
    expect(after.imie).not.toBe('Pracownik');
  });
});
