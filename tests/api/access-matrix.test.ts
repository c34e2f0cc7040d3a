/**
 * Every table resource as every demo role, with no token and with a forged token: the status is
 * what schemas/resources/<name>.json declares (ACCESS.md), and no row outside the caller's scope
 * comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { effectiveAccess } from '../../server/resources/scope.ts';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

const ROLES: Record<string, DemoAccount> = { ADMIN: 'admin', MANAGER: 'manager', USER: 'kierowca', ADVISOR: 'doradca' };

describe('access matrix of the table resources', () => {
  let t: TestApp;
  const tokens: Record<string, string> = {};
  const sessions: Record<string, any> = {};

  beforeAll(async () => {
    t = await startTestApp();
    for (const [role, account] of Object.entries(ROLES)) {
      const res = await t.call('POST', '/api/user/auth', { body: (await import('../support/test-app.ts')).DEMO[account] });
      tokens[role] = res.json().id_token;
      sessions[role] = res.json().body.userDetails;
    }
  }, 60_000);
  afterAll(async () => t?.close());

  it('covers every declared resource', () => {
    expect(Object.keys(t.app.config.bundle.resources).length).toBeGreaterThanOrEqual(2);
  });

  it('answers each role as the resource declares and keeps rows in scope', async () => {
    const failures: string[] = [];
    for (const [name, resource] of Object.entries(t.app.config.bundle.resources)) {
      const props = t.app.config.bundle.schemas[resource.entity].properties;
      for (const [role, scope] of Object.entries({ ADMIN: undefined, MANAGER: undefined, USER: undefined, ADVISOR: undefined, ...effectiveAccess(resource) })) {
        for (const path of ['table', 'table2', 'table-count', ...(resource.listAliases ?? [])]) {
          const res = await t.call('POST', `/api/${name}/${path}`, { token: tokens[role], body: { startRow: 0, endRow: 500 } });
          const expected = scope ? 200 : 403;
          if (res.statusCode !== expected) failures.push(`${role} ${name}/${path}: ${res.statusCode}, expected ${expected}`);
          if (!scope || path === 'table-count' || res.statusCode !== 200) continue;
          const rows: any[] = path === 'table2' ? res.json().rows : res.json();
          const s = sessions[role];
          if (scope === 'parent') failures.push(...(await foreignParents(name, role, rows)));
          for (const row of rows) {
            if (scope === 'client' && 'klientSymbol' in props && row.klientSymbol !== s.klientSymbol) failures.push(`${role} ${name}: foreign client ${row.klientSymbol}`);
            if (scope === 'ownVehicle' && 'pojazdId' in props && row.pojazdId !== s.pojazdId) failures.push(`${role} ${name}: foreign vehicle ${row.pojazdId}`);
            if (scope === 'station' && 'stacjaSerw' in props && row.stacjaSerw !== s.stacjaSerw && row.pojazdId !== s.pojazdId) failures.push(`${role} ${name}: foreign station ${row.stacjaSerw}`);
            if ('passwordHash' in row) failures.push(`${role} ${name}: password hash leaked`);
          }
        }
      }
      for (const token of [undefined, 'Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA']) {
        for (const path of ['table', 'table2', 'table-count', ...(resource.listAliases ?? [])]) {
          const res = await t.call('POST', `/api/${name}/${path}`, { token, body: { startRow: 0, endRow: 30 } });
          if (res.statusCode !== 401) failures.push(`${token ? 'forged' : 'no'} token ${name}/${path}: ${res.statusCode}`);
          if (res.body.includes('"rows"') || res.body.startsWith('[')) failures.push(`${name}/${path}: rows without a session`);
        }
      }
    }
    expect(failures).toEqual([]);
  });

  /**
   * Rows of a parent-scoped resource (note, attachment) whose parent the same caller cannot read:
   * the parent resource itself is the oracle, asked for exactly those parent ids.
   */
  async function foreignParents(name: string, role: string, rows: any[]): Promise<string[]> {
    const resource = t.app.config.bundle.resources[name];
    const { typeColumn, idColumn, parents } = resource.parentScope!;
    const out: string[] = [];
    for (const [type, parentName] of Object.entries(parents)) {
      const ids = [...new Set(rows.filter((r) => r[typeColumn] === type).map((r) => r[idColumn]))];
      if (ids.length === 0) continue;
      const parent = t.app.config.bundle.resources[parentName];
      const res = await t.call('POST', `/api/${parentName}/table`, {
        token: tokens[role],
        body: { startRow: 0, endRow: 1000, filterModel: { [parent.key]: { filterType: 'set', values: ids } } },
      });
      const visible = new Set(res.statusCode === 200 ? res.json().map((p: any) => p[parent.key]) : []);
      for (const id of ids) if (!visible.has(id)) out.push(`${role} ${name}: row of ${type} ${id}, a parent the caller cannot read`);
    }
    return out;
  }

  it('keeps saved table settings to their owner: every role reads its own, no token and a forged token get 401', async () => {
    const failures: string[] = [];
    for (const role of Object.keys(ROLES)) {
      const res = await t.call('GET', '/api/user-table-view/ORDER_TABLE', { token: tokens[role] });
      if (res.statusCode !== 200) failures.push(`${role} GET user-table-view: ${res.statusCode}`);
    }
    for (const token of [undefined, 'Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA']) {
      const calls = [
        t.call('GET', '/api/user-table-view/ORDER_TABLE', { token }),
        t.call('POST', '/api/user-table-filter', { token, body: { name: 'x', tablename: 'ORDER_TABLE', filterModel: {} } }),
        t.call('POST', '/api/user-table-view', { token, body: { name: 'x', tablename: 'ORDER_TABLE', columnorder: ['autNr'] } }),
        t.call('DELETE', '/api/user-table-filter?id=1', { token }),
        t.call('DELETE', '/api/user-table-view?id=1', { token }),
      ];
      for (const res of await Promise.all(calls)) if (res.statusCode !== 401) failures.push(`${token ? 'forged' : 'no'} token: ${res.statusCode}`);
    }
    expect(failures).toEqual([]);
  });
});
