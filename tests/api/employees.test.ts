/**
 * The participant picker and the new employee dialog (spec §3 Employee, §5 Employee, §7 GET
 * /employees, POST /tenant/employee; ACCESS.md "unit, employees, tenant/employee (create)": ADMIN
 * all, MANAGER client, USER none, ADVISOR the own vehicle's client read only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

type Who = 'admin' | 'manager' | 'manager2' | 'kierowca' | 'doradca';
const REQUIRED = 'Pole nie może być puste';

describe('employees of a client', () => {
  let t: TestApp;
  const bearer = {} as Record<Who, string>;
  let unitKL001: number, unitKL002: number, vehicleKL001: number, vehicleKL002: number;

  const search = (who: Who, query: string) => t.call('GET', `/api/employees?${query}`, { token: bearer[who] });
  const create = (who: Who, body: Record<string, unknown>) => t.call('POST', '/api/tenant/employee', { token: bearer[who], body });
  const valid = (extra: Record<string, unknown> = {}) => ({
    nazwisko: 'Wiśniewska', imie: 'Ewa', nrPrac: 'E-777', kodStan: 'Specjalista ds. floty', email: 'ewa.wisniewska@transbud.pl',
    telefonKom: '+48 600 700 800', kodPoczt: '00-950', miejscow: 'Warszawa', ulica: 'ul. Marszałkowska 1', dataJednOd: '2026-01-05',
    jednId: unitKL001, ...extra,
  });

  beforeAll(async () => {
    t = await startTestApp();
    for (const who of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const) bearer[who] = await t.signIn(who);
    const leaf = (klient: string) => t.app.db.selectFrom('unit').select('jednId').where('klient', '=', klient).where('poziom', '=', 3).orderBy('jednId').executeTakeFirstOrThrow();
    unitKL001 = (await leaf('KL001')).jednId;
    unitKL002 = (await leaf('KL002')).jednId;
    const vehicle = (klient: string) => t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '=', klient).orderBy('pojazdId').executeTakeFirstOrThrow();
    vehicleKL001 = (await vehicle('KL001')).pojazdId;
    vehicleKL002 = (await vehicle('KL002')).pojazdId;
  });
  afterAll(async () => t?.close());

  it('finds employees by surname, first name or number after more than 2 characters', async () => {
    const res = await search('manager', 'searchText=kowal');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toContainEqual(expect.objectContaining({ nazwisko: 'Kowalski', imie: 'Jan', nrPrac: '000001' }));
    expect((await search('manager', 'searchText=000001')).json().map((e: { nazwisko: string }) => e.nazwisko)).toContain('Kowalski');
    const short = await search('manager', 'searchText=ko');
    expect(short.statusCode).toBe(400);
    expect(short.json().errors).toEqual([{ field: 'searchText', message: 'Pole musi mieć co najmniej 3 znaków' }]);
  });

  it('lists only the employees within the caller\'s scope, or of the named vehicle\'s client', async () => {
    const clientOf = async (who: Who, query: string) => {
      const res = await search(who, query);
      expect(res.statusCode, `${who} ${query}`).toBe(200);
      const ids = res.json().map((e: { pracId: number }) => e.pracId);
      const rows = ids.length ? await t.app.db.selectFrom('employee').select('klient').distinct().where('pracId', 'in', ids).execute() : [];
      return rows.map((r) => r.klient).sort();
    };
    expect(await clientOf('manager', 'searchText=ska')).toEqual(['KL001']);
    expect(await clientOf('manager2', 'searchText=ska')).toEqual(['KL002']);
    expect(await clientOf('doradca', 'searchText=ska')).toEqual(['KL001']);
    expect((await clientOf('admin', 'searchText=ska')).length).toBeGreaterThan(1);
    expect(await clientOf('admin', `searchText=ska&pojazdId=${vehicleKL002}`)).toEqual(['KL002']);
    expect((await search('manager', `searchText=ska&pojazdId=${vehicleKL002}`)).statusCode).toBe(404);
    expect((await search('kierowca', 'searchText=kowal')).statusCode).toBe(403);
    expect((await search('manager', `searchText=ska&pojazdId=${vehicleKL001}`)).statusCode).toBe(200);
  });

  it('adds an employee to a unit of the manager\'s client, with the unit\'s path as stru1…stru3', async () => {
    const res = await create('manager', valid());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('Dodano pracownika');
    const row = await t.app.db.selectFrom('employee').selectAll().where('pracId', '=', res.json().pracId).executeTakeFirstOrThrow();
    expect(row).toMatchObject({ klient: 'KL001', nazwisko: 'Wiśniewska', jednId: unitKL001, dataJednOd: '2026-01-05' });
    expect(row.stru1).toMatch(/Centrala/);
    expect(row.stru3).not.toBeNull();
    expect((await search('manager', `searchText=${encodeURIComponent('wiśniewska')}`)).json()).toContainEqual(expect.objectContaining({ pracId: res.json().pracId }));
    // the same number twice for one client
    const again = await create('manager', valid({ email: 'inna@transbud.pl' }));
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0].field).toBe('nrPrac');
  });

  it('refuses a unit of another client as if it did not exist, and USER and ADVISOR altogether', async () => {
    const foreign = await create('manager', valid({ nrPrac: 'E-778', jednId: unitKL002 }));
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([{ field: 'jednId', message: 'Nie znaleziono jednostki organizacyjnej' }]);
    const missing = await create('manager', valid({ nrPrac: 'E-779', jednId: 99_999_999 }));
    // the same answer but for the request's own id
    const { requestId: _missingId, ...missingBody } = missing.json();
    const { requestId: _foreignId, ...foreignBody } = foreign.json();
    expect(missingBody).toEqual(foreignBody);
    expect((await create('admin', valid({ nrPrac: 'E-780', jednId: unitKL002 }))).statusCode).toBe(200);
    expect((await create('kierowca', valid({ nrPrac: 'E-781' }))).statusCode).toBe(403);
    expect((await create('doradca', valid({ nrPrac: 'E-782' }))).statusCode).toBe(403);
  });

  it.each([
    ['nazwisko', 30], ['imie', 20], ['nrPrac', 10], ['kodStan', 50], ['telefonKom', 60], ['miejscow', 35], ['ulica', 35],
  ] as const)('refuses %s longer than %i characters', async (field, max) => {
    const res = await create('manager', valid({ [field]: 'x'.repeat(max + 1) }));
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({ field, message: `Pole może mieć najwyżej ${max} znaków` });
  });

  it.each(['nazwisko', 'imie', 'email', 'dataJednOd', 'jednId'])('refuses a new employee without %s', async (field) => {
    const body: Record<string, unknown> = valid({ nrPrac: null });
    delete body[field];
    const res = await create('manager', body);
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toContainEqual({ field, message: REQUIRED });
  });

  it('refuses a bad e-mail (also over 50 characters) and a postcode not NN-NNN', async () => {
    const cases: [Record<string, unknown>, string, string][] = [
      [{ email: 'ewa' }, 'email', 'Niepoprawny adres email'],
      [{ email: `${'e'.repeat(44)}@abc.pl` }, 'email', 'Pole może mieć najwyżej 50 znaków'],
      [{ kodPoczt: '00950' }, 'kodPoczt', 'Niepoprawny format'],
      [{ kodPoczt: '0-0950' }, 'kodPoczt', 'Niepoprawny format'],
    ];
    for (const [extra, field, message] of cases) {
      const res = await create('manager', valid({ nrPrac: null, ...extra }));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().errors).toContainEqual({ field, message });
    }
  });
});
