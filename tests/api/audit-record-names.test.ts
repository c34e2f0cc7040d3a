/**
 * "Rekord" of Dziennik zmian (issue 49, docs/decisions.md "Rekord of Dziennik zmian"): the list and
 * an entry's details name the record as users know it — a user by the login, an order by its number
 * or, before it has one, by its day, its position by the order, a vehicle by its registration, an
 * employee by name, an integration account by its name (also once deleted, from the entry itself) —
 * with the path that opens it; entries written before the names existed are named the same (at
 * read time). A caller who may not see a record gets neither its name nor its link (ACCESS.md: the
 * trail is the administrator's; the names are read in the caller's own row scope).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChange, systemActor } from '../../server/audit/index.ts';
import { nameRecords } from '../../server/audit/record-names.ts';
import { findSession } from '../../server/auth/sessions.ts';
import { dateText } from '../../runtime/core/date-text.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const yearAhead = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

describe('Dziennik zmian: the record by its name, and a link that opens it', () => {
  let t: TestApp;
  let admin: string;

  /** The list's rows about one record, newest first, as the table answers them. */
  const listed = async (resource: string, recordKey: string | number, token = admin) => t.call('POST', '/api/audit/table2', { token, body: {
    startRow: 0, endRow: 50, sortModel: [],
    filterModel: { resource: { filterType: 'text', type: 'equals', filter: resource }, recordKey: { filterType: 'text', type: 'equals', filter: String(recordKey) } },
  } });
  const rowsOf = async (resource: string, recordKey: string | number) => {
    const res = await listed(resource, recordKey);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().rows as { id: number; action: string; recordKey: string; recordName: string | null; recordOpen: string | null }[];
  };
  const details = async (id: number, token = admin) => t.call('GET', `/api/audit/${id}/changes`, { token });
  /** An entry written as the recorders write them (or as an older portal did). */
  const record = (resource: string, recordKey: string | number, action: string, changes: Record<string, [unknown, unknown]>) =>
    t.app.db.transaction().execute((trx) => recordChange(trx, { actor: systemActor('test'), resource, recordKey, action, changes }));
  const reported = async (autId: number) =>
    dateText(new Date((await t.app.db.selectFrom('service_order').select('zgloData').where('autId', '=', autId).executeTakeFirstOrThrow()).zgloData), 'Europe/Warsaw', 'DD.MM.YYYY');

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
  }, 120_000);
  afterAll(async () => t?.close());

  it('names a user by his login in the list and in the details, with the path that opens him', async () => {
    const res = await t.call('POST', '/api/users', { token: admin, body: {
      login: 'r.rekordowa', firstName: 'Regina', lastName: 'Rekordowa', email: 'r.rekordowa@transbud.pl', dataDo: yearAhead(), klientSymbol: 'KL001', password: 'Zielony#Rower42',
    } });
    expect(res.statusCode, res.body).toBe(200);
    const id = res.json().user.id as number;
    const [created] = await rowsOf('users', id);
    expect(created).toMatchObject({ action: 'create', recordKey: String(id), recordName: 'r.rekordowa', recordOpen: `/app/users?open=${id}` });
    const answer = await details(created!.id);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json().entry).toMatchObject({ recordKey: String(id), recordName: 'r.rekordowa', recordOpen: `/app/users?open=${id}` });
    // a sign-in is about the same account, and names it the same way
    await t.signIn('manager2');
    const manager2 = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager2').executeTakeFirstOrThrow();
    const [signIn] = await rowsOf('login', manager2.id);
    expect(signIn).toMatchObject({ recordName: 'manager2', recordOpen: `/app/users?open=${manager2.id}` });
  });

  it('names an order by its number, before it has one by the day it was reported, and a position by its order', async () => {
    // order 1 of the seed has no number; order 2 is authorised
    await record('order', 1, 'update', { uwagi: [null, 'Pilne'] });
    await record('order', 2, 'update', { uwagi: [null, 'Po terminie'] });
    await record('order-position', '1/77', 'update', { ilosc: [1, 2] });
    const [unnumbered] = await rowsOf('order', 1);
    expect(unnumbered).toMatchObject({ recordName: `z ${await reported(1)}`, recordOpen: '/app/order?open=1' });
    const number = (await t.app.db.selectFrom('service_order').select('autNr').where('autId', '=', 2).executeTakeFirstOrThrow()).autNr;
    expect(number).toMatch(/^AUT\//);
    expect((await rowsOf('order', 2))[0]).toMatchObject({ recordName: number, recordOpen: '/app/order?open=2' });
    expect((await rowsOf('order-position', '1/77'))[0]).toMatchObject({ recordName: `z ${await reported(1)}`, recordOpen: '/app/order?open=1' });
    // once it has a number, every entry about it — also those written before — names it by that number
    await t.app.db.updateTable('service_order').set({ autNr: 'AUT/2026/0000049' }).where('autId', '=', 1).execute();
    try {
      expect((await rowsOf('order', 1)).map((r) => r.recordName)).toEqual(['AUT/2026/0000049']);
    } finally {
      await t.app.db.updateTable('service_order').set({ autNr: null }).where('autId', '=', 1).execute();
    }
  });

  it('names a vehicle by its registration and an employee by name; a key that is no record\'s shows as it is', async () => {
    const car = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    await record('car', car.pojazdId, 'reading', { aktStanLicz: [88000, 88100] });
    expect((await rowsOf('car', car.pojazdId))[0]).toMatchObject({ recordName: 'WZ12345', recordOpen: `/app/dane-pojazdu?open=${car.pojazdId}` });
    const employee = await t.app.db.selectFrom('employee').select(['pracId', 'imie', 'nazwisko']).where('nazwisko', 'is not', null).orderBy('pracId').executeTakeFirstOrThrow();
    await record('employee', employee.pracId, 'create', { nazwisko: [null, employee.nazwisko] });
    expect((await rowsOf('employee', employee.pracId))[0]).toMatchObject({
      recordName: [employee.imie, employee.nazwisko].filter(Boolean).join(' '), recordOpen: `/app/pracownicy?open=${employee.pracId}`,
    });
    // no vehicle has this key: the entry shows the key, and nothing to open
    await record('car', 987654, 'reading', { aktStanLicz: [1, 2] });
    expect((await rowsOf('car', 987654))[0]).toMatchObject({ recordName: '987654', recordOpen: null });
  });

  it('names a deleted integration account by the name its entries recorded, with nothing to open', async () => {
    const account = (await t.call('POST', '/api/integration-accounts', { token: admin, body: { name: 'System kadrowy', allClients: true, scopes: ['read:car'] } })).json();
    expect((await rowsOf('integration-accounts', account.id))[0]).toMatchObject({ recordName: 'System kadrowy', recordOpen: `/app/konta-integracyjne?open=${account.id}` });
    expect((await t.call('DELETE', `/api/integration-accounts/${account.id}`, { token: admin })).statusCode).toBe(200);
    const rows = await rowsOf('integration-accounts', account.id);
    expect(rows.map((r) => [r.action, r.recordName, r.recordOpen])).toEqual([['delete', 'System kadrowy', null], ['create', 'System kadrowy', null]]);
    expect((await details(rows[0]!.id)).json().entry).toMatchObject({ recordName: 'System kadrowy', recordOpen: null });
  });

  it('exports the names as the list shows them', async () => {
    const session = (await findSession(t.app.db, admin))!;
    const page = await t.app.tableQueries.page('audit', session, {
      startRow: 0, endRow: 10, sortModel: [], filterModel: { resource: { filterType: 'text', type: 'equals', filter: 'car' } },
    }, { fields: ['recordName'] });
    expect(page.rows.map((r) => r.recordName)).toContain('WZ12345');
  });

  it('gives no one but the administrator the list or an entry\'s details, so no name of a record', async () => {
    const [entry] = await rowsOf('users', (await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'r.rekordowa').executeTakeFirstOrThrow()).id);
    for (const who of ['manager', 'doradca', 'kierowca'] as const) {
      const token = await t.signIn(who);
      const list = await listed('users', entry!.recordKey, token);
      expect(list.statusCode, `${who}: ${list.body}`).toBe(403);
      expect(list.body).not.toContain('r.rekordowa');
      const one = await details(entry!.id, token);
      expect(one.statusCode, who).toBe(403);
      expect(one.body).not.toContain('r.rekordowa');
    }
  });

  it('names a record only for a caller who may see it: a manager\'s own client\'s vehicle, not another client\'s', async () => {
    const own = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('klientSymbol', '=', 'KL001').orderBy('pojazdId').executeTakeFirstOrThrow();
    const foreign = await t.app.db.selectFrom('car').select(['pojazdId', 'rejestr']).where('klientSymbol', '!=', 'KL001').orderBy('pojazdId').executeTakeFirstOrThrow();
    const manager = (await findSession(t.app.db, await t.signIn('manager')))!;
    await record('car', foreign.pojazdId, 'reading', { rejestr: [foreign.rejestr, foreign.rejestr] });
    const entries = [
      { resource: 'car', recordKey: String(own.pojazdId) },
      // another client's vehicle: not named, not linked, and not named from the entry's own change either
      { resource: 'car', recordKey: String(foreign.pojazdId), changes: { rejestr: [foreign.rejestr, foreign.rejestr] as [unknown, unknown] } },
      // the users are the administrator's: a manager reads none of them
      { resource: 'users', recordKey: String(manager.userId) },
    ];
    const t2 = (key: string) => t.app.config.t(key);
    const refs = await nameRecords(t.app, manager, entries, t2);
    expect(refs[0]).toMatchObject({ recordName: own.rejestr });
    expect(refs[1]).toEqual({ recordName: String(foreign.pojazdId), recordOpen: null });
    expect(refs[2]).toEqual({ recordName: String(manager.userId), recordOpen: null });
    // the administrator, who sees every record, gets the names
    const adminSession = (await findSession(t.app.db, admin))!;
    const forAdmin = await nameRecords(t.app, adminSession, entries, t2);
    expect(forAdmin.map((r) => r.recordName)).toEqual([own.rejestr, foreign.rejestr, 'manager']);
  });
});
