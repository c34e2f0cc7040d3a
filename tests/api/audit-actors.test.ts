/**
 * "Kto" of Dziennik zmian as a choice of the person (issue 49, docs/decisions.md "Dziennik zmian by
 * the person"): GET /api/audit/actors lists the accounts and integration keys that have entries in
 * the trail, by name, login or key, with the value the table filters on (`actor`, an indexed id);
 * the table filtered by it shows that person's entries alone. Who may ask, from ACCESS.md
 * ("audit trail: Administracja → Dziennik zmian (every entry)"):
 *
 * | call                          | ADMIN | MANAGER | USER | ADVISOR |
 * |-------------------------------|-------|---------|------|---------|
 * | the persons of the trail      | all   | —       | —    | —       |
 * | the trail filtered by person  | all   | —       | —    | —       |
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { recordChange, systemActor } from '../../server/audit/index.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('Dziennik zmian: the choice of the person', () => {
  let t: TestApp;
  const tok: Record<'admin' | 'manager' | 'kierowca' | 'doradca', string> = { admin: '', manager: '', kierowca: '', doradca: '' };
  const ids: Record<string, number> = {};
  let key: { id: number; prefix: string };

  const actors = (query: string, token = tok.admin, headers?: Record<string, string>) => t.call('GET', `/api/audit/actors${query}`, { token, headers });
  const table = (filterModel: unknown, token = tok.admin) => t.call('POST', '/api/audit/table2', { token, body: { startRow: 0, endRow: 100, filterModel } });

  beforeAll(async () => {
    t = await startTestApp();
    // each sign-in is an entry of its user: admin, manager, the driver and the advisor are in the trail; manager2 and nowy.kierowca are not
    for (const who of ['admin', 'manager', 'kierowca', 'doradca'] as const) tok[who] = await t.signIn(who);
    for (const u of await t.app.db.selectFrom('app_user').select(['id', 'login']).execute()) ids[u.login] = u.id;
    // the manager's own change and one of the system's
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: { kind: 'user', userId: ids.manager!, role: 'MANAGER', label: 'manager' }, resource: 'order', recordKey: '1', action: 'update', changes: { uwagi: ['a', 'b'] },
    }));
    await t.app.db.transaction().execute((trx) => recordChange(trx, { actor: systemActor('test'), resource: 'order', recordKey: '1', action: 'update', changes: { uwagi: ['b', 'c'] } }));
    // an integration key that changed something
    const account = await t.call('POST', '/api/integration-accounts', { token: tok.admin, body: { name: 'ERP Kadry', allClients: true, scopes: ['read:car'] } });
    expect(account.statusCode, account.body).toBe(201);
    const made = await t.call('POST', `/api/integration-accounts/${account.json().id}/keys`, { token: tok.admin, body: { name: 'produkcja' } });
    expect(made.statusCode, made.body).toBe(201);
    const stored = await t.app.db.selectFrom('integration_key').select(['id', 'displayPrefix']).where('accountId', '=', account.json().id).executeTakeFirstOrThrow();
    key = { id: stored.id, prefix: stored.displayPrefix };
    await t.app.db.transaction().execute((trx) => recordChange(trx, {
      actor: { kind: 'integration', keyId: key.id, accountId: account.json().id, label: 'ERP Kadry' }, resource: 'car', recordKey: '1', action: 'update', changes: { przebieg: [1, 2] },
    }));
  }, 300_000);
  afterAll(async () => t?.close());

  it('lists the accounts with entries by surname and first name, with the login beside, and finds them by a part of either', async () => {
    const manager = await t.app.db.selectFrom('app_user').select(['firstName', 'lastName']).where('login', '=', 'manager').executeTakeFirstOrThrow();
    const res = await actors('?q=MANAG');
    expect(res.statusCode, res.body).toBe(200);
    // manager2 matches the text but has no entry: not a person of the trail
    expect(res.json()).toEqual({ items: [{ value: `user:${ids.manager}`, label: `${manager.lastName} ${manager.firstName}`, detail: 'manager' }], more: false });
    const bySurname = (await actors(`?q=${encodeURIComponent(manager.lastName.slice(1, 5).toLowerCase())}`)).json().items;
    expect(bySurname).toContainEqual(expect.objectContaining({ value: `user:${ids.manager}` }));
    const all = (await actors('?limit=50')).json().items.map((i: { value: string }) => i.value);
    expect(all).toEqual(expect.arrayContaining([`user:${ids.admin}`, `user:${ids.manager}`, `user:${ids.kierowca}`, `user:${ids.doradca}`, `key:${key.id}`]));
    expect(all).not.toContain(`user:${ids.manager2}`);
    expect(all).not.toContain(`user:${ids['nowy.kierowca']}`);
    expect(all.some((v: string) => v.startsWith('job:'))).toBe(false);
  });

  it('lists an integration key by its account and name, told apart by its prefix in the reader\'s language', async () => {
    const pl = (await actors('?q=kadry')).json().items;
    expect(pl).toEqual([{ value: `key:${key.id}`, label: 'ERP Kadry: produkcja', detail: `Klucz integracyjny ${key.prefix}…` }]);
    const en = (await actors('?q=kadry', tok.admin, { 'accept-language': 'en' })).json().items;
    expect(en[0].detail).toBe(`Integration key ${key.prefix}…`);
    expect((await actors(`?q=${key.prefix}`)).json().items.map((i: { value: string }) => i.value)).toEqual([`key:${key.id}`]);
  });

  it('says when more persons match than were asked for, and finds nobody for a text no one has', async () => {
    const one = await actors('?limit=1');
    expect(one.json().items).toHaveLength(1);
    expect(one.json().more).toBe(true);
    expect((await actors('?q=%25')).json()).toEqual({ items: [], more: false }); // % is a character, not a wildcard
    expect((await actors('?q=nikt-taki')).json()).toEqual({ items: [], more: false });
  });

  it('the table filtered by the chosen person shows that person\'s entries alone, all of them, also beside the filter by what', async () => {
    const expected = await t.app.db.selectFrom('audit_entry').select('id').where('userId', '=', ids.manager!).orderBy('at', 'desc').orderBy('id', 'desc').execute();
    expect(expected.length).toBeGreaterThanOrEqual(2);
    const res = await table({ actor: { filterType: 'set', values: [`user:${ids.manager}`] } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().rows.map((r: { id: number }) => r.id)).toEqual(expected.map((e) => e.id));
    expect(res.json().rows.every((r: { actorLabel: string; actor: string }) => r.actorLabel === 'manager' && r.actor === `user:${ids.manager}`)).toBe(true);
    expect(res.json().lastRow).toBe(expected.length); // a short first block: its lastRow is the exact count
    const orders = (await table({ actor: { filterType: 'set', values: [`user:${ids.manager}`] }, resource: { filterType: 'set', values: ['order'] } })).json().rows;
    expect(orders.map((r: { action: string; resource: string }) => [r.resource, r.action])).toEqual([['order', 'update']]);
    const byKey = (await table({ actor: { filterType: 'set', values: [`key:${key.id}`] } })).json().rows;
    expect(byKey.map((r: { actorKind: string; resource: string }) => [r.actorKind, r.resource])).toEqual([['integration', 'car']]);
    // two persons at once: each one's entries, newest first
    const both = (await table({ actor: { filterType: 'set', values: [`user:${ids.manager}`, `key:${key.id}`] } })).json().rows;
    expect(both).toHaveLength(expected.length + 1);
    expect(both.map((r: { at: string }) => r.at)).toEqual([...both.map((r: { at: string }) => r.at)].sort().reverse());
  });

  it('refuses the list and the filtered table to every role but the administrator (ACCESS.md: the trail is ADMIN\'s)', async () => {
    for (const who of ['manager', 'kierowca', 'doradca'] as const) {
      const list = await actors('?q=a', tok[who]);
      expect(list.statusCode, `${who}: ${list.body}`).toBe(403);
      expect(list.body).not.toContain('manager');
      expect((await table({ actor: { filterType: 'set', values: [`user:${ids[who]}`] } }, tok[who])).statusCode).toBe(403);
    }
    expect((await t.call('GET', '/api/audit/actors?q=a')).statusCode).toBe(401);
  });

  it('answers bad input with 400 naming the field in the caller\'s language, never 500', async () => {
    for (const [query, field] of [['?limit=0', 'limit'], ['?limit=51', 'limit'], ['?limit=abc', 'limit'], [`?q=${'a'.repeat(101)}`, 'q'], ['?q=a%00b', 'q']] as const) {
      const res = await actors(query);
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      expect(res.json().errors?.map((e: { field: string }) => e.field), res.body).toContain(field);
    }
    const en = await actors('?limit=0', tok.admin, { 'accept-language': 'en' });
    const pl = await actors('?limit=0');
    expect(en.json().errors[0].message).not.toBe(pl.json().errors[0].message);
  });
});
