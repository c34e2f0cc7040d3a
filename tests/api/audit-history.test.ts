/**
 * A record's "Historia zmian" (issue 37, docs/decisions.md "Record history"): the trail's entries
 * about the record and its children (`<key>/<child>`), labelled as the forms name the fields and
 * the screens the values; read in the record resource's own row scope (ACCESS.md: ADMIN all,
 * MANAGER his client's records and only the fields he may read, USER and ADVISOR not at all).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChange, systemActor } from '../../server/audit/index.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('record history (Historia zmian)', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let own: { autId: number | null; status: number | null };
  let other: { autId: number | null };

  beforeAll(async () => {
    t = await startTestApp();
    admin = await t.signIn('admin');
    manager = await t.signIn('manager');
    const client = (await t.app.db.selectFrom('app_user').select('klientSymbol').where('login', '=', 'manager').executeTakeFirstOrThrow()).klientSymbol!;
    // an order of the manager's client whose prices are hidden from him (cenaWidoczna not T), one of another client
    own = await t.app.db.selectFrom('v_order').select(['autId', 'status']).where('klientSymbol', '=', client)
      .where((eb) => eb.or([eb('cenaWidoczna', 'is', null), eb('cenaWidoczna', '<>', 'T')])).orderBy('autId').executeTakeFirstOrThrow();
    other = await t.app.db.selectFrom('v_order').select('autId').where('klientSymbol', '<>', client).orderBy('autId').executeTakeFirstOrThrow();
    // a position's change as a recorder of child records writes it (`<order>/<position>`), and an entry of another order whose key begins alike
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: systemActor('test'), resource: 'order-position', recordKey: `${own.autId}/1`, action: 'update', changes: { tresc: ['Olej', 'Olej 5W30'], cena: [100, 120] },
    }));
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: systemActor('test'), resource: 'order', recordKey: `${own.autId}0`, action: 'update', changes: { uwagi: ['a', 'b'] },
    }));
  }, 120_000);
  afterAll(async () => t?.close());

  it('shows an order\'s status move with the statuses\' names, and its positions\' changes, newest first', async () => {
    const moved = await t.call('POST', `/api/order/${own.autId}/transition`, { token: admin, body: { to: 7 } });
    expect(moved.statusCode, moved.body).toBe(200);
    const res = await t.call('GET', `/api/audit/history/order/${own.autId}`, { token: admin });
    expect(res.statusCode, res.body).toBe(200);
    const { changes, more } = res.json();
    expect(more).toBe(false);
    expect(changes[0]).toMatchObject({ action: 'transition', actorLabel: 'admin', role: 'ADMIN', field: 'status', label: 'Kod statusu', after: 'Anulowane' });
    expect(changes.map((c: any) => `${c.resource}.${c.field}`).sort()).toEqual(['order-position.cena', 'order-position.tresc', 'order.status', 'order.transition']);
    expect(changes.slice(2).every((c: any) => c.resource === 'order-position')).toBe(true);
    expect(changes.find((c: any) => c.field === 'tresc')).toMatchObject({ label: 'Treść', before: 'Olej', after: 'Olej 5W30' });
    // the order 10 × its key's entries are another order's
    expect(changes.some((c: any) => c.field === 'uwagi')).toBe(false);
  });

  it('the "Dziennik zmian" details show a value by its label, as the screens name it', async () => {
    const entry = await t.app.db.selectFrom('audit_entry').select('id').where('resource', '=', 'order').where('recordKey', '=', String(own.autId)).orderBy('seq', 'desc').executeTakeFirstOrThrow();
    const details = (await t.call('GET', `/api/audit/${entry.id}/changes`, { token: admin })).json();
    expect(details.changes[0]).toMatchObject({ field: 'status', label: 'Kod statusu', after: 'Anulowane' });
  });

  it('a manager reads the history of his client\'s order without the fields hidden from him', async () => {
    const res = await t.call('GET', `/api/audit/history/order/${own.autId}`, { token: manager });
    expect(res.statusCode, res.body).toBe(200);
    const fields = res.json().changes.map((c: any) => c.field);
    expect(fields).toContain('status');
    expect(fields).toContain('tresc');
    expect(fields).not.toContain('cena');
  });

  it('another client\'s order is answered as if it did not exist; a role that reads no history is refused', async () => {
    expect((await t.call('GET', `/api/audit/history/order/${other.autId}`, { token: manager })).statusCode).toBe(404);
    expect((await t.call('GET', `/api/audit/history/order/${other.autId}`, { token: admin })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/audit/history/order/99999999', { token: admin })).statusCode).toBe(404);
    // users are ADMIN's alone (ACCESS.md), and drivers and advisors read no history
    expect((await t.call('GET', '/api/audit/history/users/1', { token: manager })).statusCode).toBe(403);
    expect((await t.call('GET', `/api/audit/history/order/${own.autId}`, { token: await t.signIn('kierowca') })).statusCode).toBe(403);
    expect((await t.call('GET', `/api/audit/history/order/${own.autId}`, { token: await t.signIn('doradca') })).statusCode).toBe(403);
    // a resource without a declared history, and a key that is no key
    expect((await t.call('GET', '/api/audit/history/invoice/1', { token: admin })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/audit/history/order/1%20or%201', { token: admin })).statusCode).toBe(400);
    expect((await t.call('GET', `/api/audit/history/order/${own.autId}`, {})).statusCode).toBe(401);
  });

  it('a user\'s history names the fields as the user form does', async () => {
    const user = await t.app.db.selectFrom('app_user').selectAll().where('login', '=', 'manager2').executeTakeFirstOrThrow();
    const res = await t.call('PUT', `/api/users/${user.id}`, { token: admin, body: {
      login: user.login, firstName: 'Zofia', lastName: user.lastName, email: user.email, dataDo: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10), klientSymbol: user.klientSymbol,
    } });
    expect(res.statusCode, res.body).toBe(200);
    const history = await t.call('GET', `/api/audit/history/users/${user.id}`, { token: admin });
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().changes).toContainEqual(expect.objectContaining({ action: 'update', field: 'firstName', label: 'Imię', after: 'Zofia' }));
    // dates and instants as the screens write them (the portal's time zone, Europe/Warsaw)
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: systemActor('test'), resource: 'users', recordKey: user.id, action: 'update', changes: { dataDo: ['2026-01-31', '2027-01-31'], createdAt: [null, '2026-11-27T02:33:38.599Z'] },
    }));
    const dated = (await t.call('GET', `/api/audit/history/users/${user.id}`, { token: admin })).json().changes;
    expect(dated).toContainEqual(expect.objectContaining({ field: 'dataDo', before: '31.01.2026', after: '31.01.2027' }));
    expect(dated).toContainEqual(expect.objectContaining({ field: 'createdAt', before: '', after: '27.11.2026 03:33' }));
  });

  it('a user\'s phone number as the user form writes it, "22 600 01 11"; a value typed otherwise stays as typed (issue 49)', async () => {
    const user = await t.app.db.selectFrom('app_user').selectAll().where('login', '=', 'manager2').executeTakeFirstOrThrow();
    const res = await t.call('PUT', `/api/users/${user.id}`, { token: admin, body: {
      login: user.login, firstName: user.firstName, lastName: user.lastName, email: user.email, telefon: '226000111',
      dataDo: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10), klientSymbol: user.klientSymbol,
    } });
    expect(res.statusCode, res.body).toBe(200);
    const changes = (await t.call('GET', `/api/audit/history/users/${user.id}`, { token: admin })).json().changes;
    expect(changes).toContainEqual(expect.objectContaining({ field: 'telefon', label: 'Telefon', after: '22 600 01 11' }));
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: systemActor('test'), resource: 'users', recordKey: user.id, action: 'update', changes: { telefonKom: ['+48 600-100-200', '600100200'] },
    }));
    const mobile = (await t.call('GET', `/api/audit/history/users/${user.id}`, { token: admin })).json().changes;
    expect(mobile).toContainEqual(expect.objectContaining({ field: 'telefonKom', before: '+48 600-100-200', after: '600 100 200' }));
  });
  it('a record older than the trail says from which day its changes are kept; one whose creation the trail holds does not (issue 49)', async () => {
    const first = await t.app.db.selectFrom('audit_entry').select('at').orderBy('at').orderBy('id').limit(1).executeTakeFirstOrThrow();
    const day = new Intl.DateTimeFormat('pl-PL', { timeZone: 'Europe/Warsaw', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date(first.at));
    // the seeded order: approved long before the trail began, with no entry of its creation
    const older = (await t.call('GET', `/api/audit/history/order/${other.autId}`, { token: admin })).json();
    expect(older).toMatchObject({ changes: [], untrackedBefore: day });
    // a vehicle whose creation the trail holds: nothing before it is missing
    const car = await t.app.db.selectFrom('car').select('pojazdId').orderBy('pojazdId').executeTakeFirstOrThrow();
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: systemActor('test'), resource: 'car', recordKey: String(car.pojazdId), action: 'create', changes: { rejestr: [null, 'WA49001'] },
    }));
    const young = (await t.call('GET', `/api/audit/history/car/${car.pojazdId}`, { token: admin })).json();
    expect(young.changes.some((c: { action: string }) => c.action === 'create')).toBe(true);
    expect(young.untrackedBefore).toBeNull();
  });
  it('the details of an import run and of an instant no schema declares read as the screens write them (issue 49)', async () => {
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: systemActor('test'), resource: 'import', recordKey: '4901', action: 'import',
      changes: { mode: [null, 'import'], state: [null, 'succeeded'], onError: [null, 'allOrNothing'], missing: [null, 'deactivate'], expiresAt: [null, '2027-12-03T06:56:49.461Z'] },
    }));
    const entry = await t.app.db.selectFrom('audit_entry').select('id').where('resource', '=', 'import').where('recordKey', '=', '4901').executeTakeFirstOrThrow();
    const { changes } = (await t.call('GET', `/api/audit/${entry.id}/changes`, { token: admin })).json();
    const shown = Object.fromEntries(changes.map((c: { label: string; after: string }) => [c.label, c.after]));
    expect(shown).toMatchObject({ Tryb: 'Import', Wynik: 'Zakończony', 'Przy błędach': 'Wszystko albo nic', 'Rekordy nieobecne w pliku': 'Wycofaj', 'Ważny do': '03.12.2027 07:56' });
  });
});
