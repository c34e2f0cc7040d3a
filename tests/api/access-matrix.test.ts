/**
 * Every table resource as every demo role, with no token and with a forged token: the status is
 * what schemas/resources/<name>.json declares (ACCESS.md), and no row outside the caller's scope
 * comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      for (const [role, scope] of Object.entries({ ADMIN: undefined, MANAGER: undefined, USER: undefined, ADVISOR: undefined, ...resource.access })) {
        for (const path of ['table', 'table2', 'table-count']) {
          const res = await t.call('POST', `/api/${name}/${path}`, { token: tokens[role], body: { startRow: 0, endRow: 500 } });
          const expected = scope ? 200 : 403;
          if (res.statusCode !== expected) failures.push(`${role} ${name}/${path}: ${res.statusCode}, expected ${expected}`);
          if (!scope || path === 'table-count' || res.statusCode !== 200) continue;
          const rows: any[] = path === 'table' ? res.json() : res.json().rows;
          const s = sessions[role];
          for (const row of rows) {
            if (scope === 'client' && 'klientSymbol' in props && row.klientSymbol !== s.klientSymbol) failures.push(`${role} ${name}: foreign client ${row.klientSymbol}`);
            if (scope === 'ownVehicle' && 'pojazdId' in props && row.pojazdId !== s.pojazdId) failures.push(`${role} ${name}: foreign vehicle ${row.pojazdId}`);
            if (scope === 'station' && 'stacjaSerw' in props && row.stacjaSerw !== s.stacjaSerw && row.pojazdId !== s.pojazdId) failures.push(`${role} ${name}: foreign station ${row.stacjaSerw}`);
            if ('passwordHash' in row) failures.push(`${role} ${name}: password hash leaked`);
          }
        }
      }
      for (const token of [undefined, 'Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA']) {
        const res = await t.call('POST', `/api/${name}/table2`, { token, body: { startRow: 0, endRow: 30 } });
        if (res.statusCode !== 401) failures.push(`${token ? 'forged' : 'no'} token ${name}: ${res.statusCode}`);
        if (res.body.includes('"rows"')) failures.push(`${name}: rows without a session`);
      }
    }
    expect(failures).toEqual([]);
  });
});
