/**
 * The table resources added for issue 4: note and attachment (rows take the scope of their parent
 * record, listed per parent by group + srcId), unit (an advisor reads the units of the client that
 * owns the car at the station) and the users list under POST /users/users.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('note, attachment, unit and users/users tables', () => {
  let t: TestApp;
  const tok: Record<string, string> = {};
  let demoDamage: number;
  let foreignOrder: { autId: number; klientSymbol: string };
  let stationOrder: number;

  const post = (path: string, token: string | undefined, body: object) => t.call('POST', `/api${path}`, { token, body });
  const ids = (res: { json(): any }, key: string) => (res.json().rows ?? res.json()).map((r: any) => r[key]);

  beforeAll(async () => {
    t = await startTestApp();
    for (const a of ['admin', 'manager', 'manager2', 'kierowca', 'doradca'] as const) tok[a] = await t.signIn(a);
    const db = t.app.db;
    demoDamage = (await db.selectFrom('damage').select('sprawaId').where('pojazdId', '=', 1).orderBy('sprawaId').executeTakeFirstOrThrow()).sprawaId;
    foreignOrder = await db.selectFrom('service_order').select(['autId', 'klientSymbol']).where('klientSymbol', '=', 'KL002').orderBy('autId').executeTakeFirstOrThrow();
    stationOrder = (await db.selectFrom('service_order').select('autId').where('stacjaSerw', '=', 'SS01').where('pojazdId', '!=', 1).orderBy('autId').executeTakeFirstOrThrow()).autId;
    // Known notes and attachments on records of another client, of the advisor's station, and of the advisor's car.
    await db.insertInto('note').values([
      { zrodlo: 'AUTORY', zrodloId: foreignOrder.autId, autor: 'Test', tresc: 'Notatka innego klienta' },
      { zrodlo: 'AUTORY', zrodloId: stationOrder, autor: 'Test', tresc: 'Notatka zlecenia stacji' },
    ]).execute();
    await db.insertInto('attachment').values([
      { grupa: 'SA_AUTO', parentId: foreignOrder.autId, tytul: 'Obcy załącznik', filename: 'a.txt', size: 1, content: Buffer.from('a') },
      { grupa: 'SA_AUTO', parentId: stationOrder, tytul: 'Załącznik stacji', filename: 'b.txt', size: 1, content: Buffer.from('b') },
    ]).execute();
  }, 60_000);
  afterAll(async () => t?.close());

  it('lists the notes of one order by group AUTORY and srcId, newest first, with the Polish fields', async () => {
    const res = await post('/note/table2', tok.admin, { startRow: 0, endRow: 30, group: 'AUTORY', srcId: stationOrder });
    expect(res.statusCode).toBe(200);
    expect(res.json().rows.map((r: any) => r.tresc)).toEqual(['Notatka zlecenia stacji']);
    expect(res.json().rows[0]).toMatchObject({ zrodlo: 'AUTORY', zrodloId: stationOrder, autor: 'Test' });
    expect(res.json().lastRow).toBe(1);
    const count = await post('/note/table-count', tok.admin, { startRow: 0, endRow: 30, group: 'SZKODY', srcId: demoDamage });
    expect(count.json().count).toBeGreaterThanOrEqual(1);
  });

  it('shows a manager the notes of their client’s records only, and another manager none of them', async () => {
    const foreign = await post('/note/table', tok.manager, { startRow: 0, endRow: 30, group: 'AUTORY', srcId: foreignOrder.autId });
    expect(foreign.statusCode).toBe(200);
    expect(foreign.json()).toEqual([]);
    const own = await post('/note/table', tok.manager2, { startRow: 0, endRow: 30, group: 'AUTORY', srcId: foreignOrder.autId });
    expect(own.json().map((r: any) => r.tresc)).toContain('Notatka innego klienta');
    const damageNote = await post('/note/table', tok.manager2, { startRow: 0, endRow: 30, group: 'SZKODY', srcId: demoDamage });
    expect(damageNote.json()).toEqual([]);
  });

  it('shows an advisor the notes of their station’s orders but never a damage note, even of their own car', async () => {
    const station = await post('/note/table', tok.doradca, { startRow: 0, endRow: 30, group: 'AUTORY', srcId: stationOrder });
    expect(station.json().map((r: any) => r.tresc)).toEqual(['Notatka zlecenia stacji']);
    // the advisor may not read damages (ACCESS.md), so not their notes either — though the damage is of the car they signed in with
    const damage = await post('/note/table', tok.doradca, { startRow: 0, endRow: 30, group: 'SZKODY', srcId: demoDamage });
    expect(damage.json()).toEqual([]);
    const all = await post('/note/table', tok.doradca, { startRow: 0, endRow: 1000 });
    expect(all.json().every((r: any) => r.zrodlo === 'AUTORY')).toBe(true);
    const foreign = await post('/note/table', tok.doradca, { startRow: 0, endRow: 30, group: 'AUTORY', srcId: foreignOrder.autId });
    expect(foreign.json()).toEqual([]);
  });

  it('shows a driver the damage note of their own car and nothing of other cars', async () => {
    const own = await post('/note/table', tok.kierowca, { startRow: 0, endRow: 30, group: 'SZKODY', srcId: demoDamage });
    expect(own.json().length).toBeGreaterThanOrEqual(1);
    const other = await post('/note/table', tok.kierowca, { startRow: 0, endRow: 30, group: 'AUTORY', srcId: stationOrder });
    expect(other.json()).toEqual([]);
  });

  it('lists attachments per parent without their content, in the parent’s scope', async () => {
    const own = await post('/attachment/table', tok.manager2, { startRow: 0, endRow: 30, group: 'SA_AUTO', srcId: foreignOrder.autId });
    expect(own.json().map((r: any) => r.tytul)).toEqual(['Obcy załącznik']);
    expect(own.json()[0]).not.toHaveProperty('content');
    expect(Object.keys(own.json()[0]).sort()).toEqual(['dataMod', 'filename', 'grupa', 'mime', 'opis', 'parentId', 'size', 'tytul', 'zalaczId']);
    const foreign = await post('/attachment/table', tok.manager, { startRow: 0, endRow: 30, group: 'SA_AUTO', srcId: foreignOrder.autId });
    expect(foreign.json()).toEqual([]);
    const vehicle = await post('/attachment/table', tok.kierowca, { startRow: 0, endRow: 30, group: 'SA_POJA', srcId: 1 });
    expect(vehicle.json().map((r: any) => r.tytul)).toContain('Dowód rejestracyjny');
    const count = await post('/attachment/table-count', tok.doradca, { startRow: 0, endRow: 30, group: 'SA_SZKODY', srcId: demoDamage });
    expect(count.json()).toEqual({ count: 0, estimated: false });
  });

  it('refuses a group on a resource without one, and a filter on an unknown column, with 400', async () => {
    const noGroup = await post('/contract/table2', tok.admin, { startRow: 0, endRow: 30, group: 'X' });
    expect(noGroup.statusCode).toBe(400);
    const unknown = await post('/note/table2', tok.admin, { startRow: 0, endRow: 30, filterModel: { klientSymbol: { filterType: 'text', type: 'equals', filter: 'KL001' } } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('klientSymbol');
  });

  it('serves units: the admin all, a manager their client, an advisor the client of their car, a driver nothing', async () => {
    const total = Number((await t.app.db.selectFrom('unit').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow()).n);
    const kl001 = Number((await t.app.db.selectFrom('unit').select(sql<string>`count(*)`.as('n')).where('klient', '=', 'KL001').executeTakeFirstOrThrow()).n);
    expect(kl001).toBeGreaterThan(0);
    expect(total).toBeGreaterThan(kl001);
    expect((await post('/unit/table-count', tok.admin, { startRow: 0, endRow: 30 })).json().count).toBe(total);
    expect((await post('/unit/table-count', tok.manager, { startRow: 0, endRow: 30 })).json().count).toBe(kl001);
    // the advisor signed in with WZ12345, a car of KL001
    const advisor = await post('/unit/table', tok.doradca, { startRow: 0, endRow: 1000 });
    expect(advisor.json()).toHaveLength(kl001);
    expect((await post('/unit/table2', tok.kierowca, { startRow: 0, endRow: 30 })).statusCode).toBe(403);
    const sorted = (await post('/unit/table', tok.admin, { startRow: 0, endRow: 5 })).json();
    expect(sorted.map((u: any) => u.poziom)).toEqual([...sorted.map((u: any) => u.poziom)].sort());
  });

  it('answers POST /users/users like the users table, for the admin only', async () => {
    const list = await post('/users/users', tok.admin, { startRow: 0, endRow: 100, filterModel: { rola: { filterType: 'set', values: ['MANAGER'] } } });
    expect(list.statusCode).toBe(200);
    expect(list.json().map((u: any) => u.login)).toEqual(expect.arrayContaining(['manager', 'manager2']));
    expect(list.json().every((u: any) => u.rola === 'MANAGER' && !('passwordHash' in u))).toBe(true);
    for (const who of ['manager', 'kierowca', 'doradca']) expect((await post('/users/users', tok[who], { startRow: 0, endRow: 30 })).statusCode).toBe(403);
    expect((await post('/users/users', undefined, { startRow: 0, endRow: 30 })).statusCode).toBe(401);
  });

  it('filters a coded number column by a choice list (order status and type)', async () => {
    const res = await post('/order/table', tok.admin, { startRow: 0, endRow: 1000, filterModel: { status: { filterType: 'set', values: [4, 6] }, autTyp: { filterType: 'set', values: [1, 2] } } });
    expect(res.statusCode).toBe(200);
    expect(res.json().length).toBeGreaterThan(0);
    expect(res.json().every((o: any) => [4, 6].includes(o.status) && [1, 2].includes(o.autTyp))).toBe(true);
    const bad = await post('/order/table', tok.admin, { startRow: 0, endRow: 30, filterModel: { status: { filterType: 'set', values: ['4 or 1=1'] } } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('status');
  });
});
