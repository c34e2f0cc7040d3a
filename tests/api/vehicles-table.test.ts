import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('vehicles table (car resource)', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let driver: string;
  let advisor: string;
  let managerClient: string;
  const table2 = (token: string, body: object) => t.call('POST', '/api/car/table2', { token, body });

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, driver, advisor] = await Promise.all([t.signIn('admin'), t.signIn('manager'), t.signIn('kierowca'), t.signIn('doradca')]);
    const m = await t.app.db.selectFrom('app_user').select('klientSymbol').where('login', '=', 'manager').executeTakeFirstOrThrow();
    managerClient = m.klientSymbol!;
  }, 60_000);
  afterAll(async () => t?.close());

  it('returns blocks of 30 with lastRow for the admin, who sees every vehicle', async () => {
    const total = Number((await t.app.db.selectFrom('car').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    expect(total).toBeGreaterThan(30);
    const first = (await table2(admin, { startRow: 0, endRow: 30 })).json();
    expect(first.rows).toHaveLength(30);
    expect(first.lastRow).toBe(total);
    const last = (await table2(admin, { startRow: 30, endRow: 60 })).json();
    expect(last.rows.length).toBe(Math.min(30, total - 30));
    const ids = new Set([...first.rows, ...last.rows].map((r: any) => r.pojazdId));
    expect(ids.size).toBe(first.rows.length + last.rows.length); // blocks do not overlap
  });

  it('sorts on the server, by several columns', async () => {
    const res = (await table2(admin, { startRow: 0, endRow: 60, sortModel: [{ colId: 'marka', sort: 'asc' }, { colId: 'rejestr', sort: 'desc' }] })).json();
    const keys = res.rows.map((r: any) => [r.marka ?? '', r.rejestr]);
    const sorted = [...keys].sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? 1 : -1) : a[0].localeCompare(b[0], 'en')));
    expect(keys.map((k: any) => k[0])).toEqual(sorted.map((k) => k[0]));
  });

  it('filters on the server by text, number and date', async () => {
    const byPlate = (await table2(admin, { startRow: 0, endRow: 30, filterModel: { rejestr: { filterType: 'text', type: 'equals', filter: 'wz12345' } } })).json();
    expect(byPlate.rows.map((r: any) => r.rejestr)).toEqual(['WZ12345']);
    expect(byPlate.lastRow).toBe(1);
    const heavy = (await table2(admin, { startRow: 0, endRow: 100, filterModel: { aktStanLicz: { filterType: 'number', type: 'greaterThan', filter: 100000 } } })).json();
    expect(heavy.rows.length).toBeGreaterThan(0);
    expect(heavy.rows.every((r: any) => r.aktStanLicz > 100000)).toBe(true);
    const recent = (await table2(admin, { startRow: 0, endRow: 100, filterModel: { dataRej: { filterType: 'date', type: 'greaterThan', dateFrom: '2022-01-01 00:00:00' } } })).json();
    expect(recent.rows.every((r: any) => r.dataRej > '2022-01-01')).toBe(true);
  });

  it('sends dates as calendar days', async () => {
    const res = (await table2(admin, { startRow: 0, endRow: 30, filterModel: { rejestr: { filterType: 'text', type: 'equals', filter: 'WZ12345' } } })).json();
    expect(res.rows[0].dataRej).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('refuses an unknown column and an unsupported filter with 400 and the field', async () => {
    const unknown = await table2(admin, { startRow: 0, endRow: 30, sortModel: [{ colId: 'passwordHash', sort: 'asc' }] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0]).toMatchObject({ field: 'passwordHash', message: 'Nieznana kolumna: passwordHash' });
    const injected = await table2(admin, { startRow: 0, endRow: 30, filterModel: { 'rejestr" or 1=1 --': { filterType: 'text', type: 'equals', filter: 'x' } } });
    expect(injected.statusCode).toBe(400);
    const wrongType = await table2(admin, { startRow: 0, endRow: 30, filterModel: { rejestr: { filterType: 'number', type: 'equals', filter: 1 } } });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().errors[0].field).toBe('rejestr');
  });

  it('shows a manager only the vehicles of their client', async () => {
    const expected = Number((await t.app.db.selectFrom('car').select(sql<string>`count(*)`.as('n')).where('klientSymbol', '=', managerClient).executeTakeFirstOrThrow()).n);
    const res = (await table2(manager, { startRow: 0, endRow: 1000 })).json();
    expect(res.rows).toHaveLength(expected);
    const foreign = await t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '!=', managerClient).execute();
    expect(foreign.length).toBeGreaterThan(0);
    const seen = new Set(res.rows.map((r: any) => r.pojazdId));
    expect(foreign.some((f) => seen.has(f.pojazdId))).toBe(false);
    const count = (await t.call('POST', '/api/car/table-count', { token: manager, body: { startRow: 0, endRow: 30 } })).json();
    expect(count.count).toBe(expected);
  });

  it('shows a driver and an advisor only the vehicle of their session', async () => {
    for (const token of [driver, advisor]) {
      const res = (await table2(token, { startRow: 0, endRow: 30 })).json();
      expect(res.rows.map((r: any) => r.rejestr)).toEqual(['WZ12345']);
      const single = await t.call('GET', '/api/car/single-car', { token });
      expect(single.statusCode).toBe(200);
      expect(single.json()).toMatchObject({ rejestr: 'WZ12345' });
      expect(single.json().nrPodw).toMatch(/000123$/);
    }
  });

  it('answers a request for another client’s vehicle by id as if it did not exist', async () => {
    const foreign = await t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '!=', managerClient).executeTakeFirstOrThrow();
    const own = await t.app.db.selectFrom('car').select('pojazdId').where('klientSymbol', '=', managerClient).executeTakeFirstOrThrow();
    expect((await t.call('GET', `/api/car/${own.pojazdId}`, { token: manager })).statusCode).toBe(200);
    const res = await t.call('GET', `/api/car/${foreign.pojazdId}`, { token: manager });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toMatch(/rejestr/);
    expect((await t.call('GET', `/api/car/${foreign.pojazdId}`, { token: admin })).statusCode).toBe(200);
    expect((await t.call('GET', `/api/car/${own.pojazdId}`, { token: driver })).statusCode).toBe(own.pojazdId === (await t.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow()).pojazdId ? 200 : 404);
    const byFilter = (await table2(manager, { startRow: 0, endRow: 30, filterModel: { pojazdId: { filterType: 'number', type: 'equals', filter: foreign.pojazdId } } })).json();
    expect(byFilter.rows).toEqual([]);
  });

  it('refuses a role a resource does not name with 403', async () => {
    const res = await t.call('POST', '/api/tire/table2', { token: advisor, body: { startRow: 0, endRow: 30 } });
    expect(res.statusCode).toBe(403);
  });

  it('limits an embedded table to its parent through srcId', async () => {
    const car = await t.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const res = (await t.call('POST', '/api/tire/table2', { token: manager, body: { startRow: 0, endRow: 30, srcId: car.pojazdId } })).json();
    expect(res.rows.every((r: any) => r.pojazdId === car.pojazdId)).toBe(true);
  });
});
