/**
 * Every table resource and every Excel export as every demo role, with no token and with a forged
 * token: the status and the row scope are those of ACCESS.md, written out below as a literal table
 * (never read from schemas/resources, which is what the server enforces), and no row outside the
 * caller's scope comes back, neither in a table answer nor in an exported file.
 */
import * as XLSX from 'xlsx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

const ROLES: Record<string, DemoAccount> = { ADMIN: 'admin', MANAGER: 'manager', USER: 'kierowca', ADVISOR: 'doradca' };

type Scope = 'all' | 'client' | 'ownVehicle' | 'station' | 'ownVehicleClient' | 'parent';
/**
 * ACCESS.md's table, per resource: the row scope of each role that may read it (a role absent gets
 * 403). Notes and attachments take the scope of their parent record ('parent'): a role that can
 * read at least one of the parents (attachment: assignment, car, order, damage; note: order,
 * damage) reads them.
 */
const ACCESS: Record<string, Partial<Record<keyof typeof ROLES, Scope>>> = {
  car: { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle', ADVISOR: 'ownVehicle' },
  assignment: { ADMIN: 'all', MANAGER: 'client' },
  order: { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle', ADVISOR: 'station' },
  damage: { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle' },
  contract: { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle' },
  'fuel-card': { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle' },
  tire: { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle' },
  invoice: { ADMIN: 'all', MANAGER: 'client' },
  // issue 46: "fuel transactions, invoice lines: read | all | client | own vehicle's"; "fuel anomalies: read | all | client"
  'fuel-transaction': { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle' },
  'invoice-line': { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle' },
  'fuel-anomaly': { ADMIN: 'all', MANAGER: 'client' },
  // issue 47: "inspections: read | all | client | own | own vehicle"
  inspection: { ADMIN: 'all', MANAGER: 'client', USER: 'ownVehicle', ADVISOR: 'ownVehicle' },
  unit: { ADMIN: 'all', MANAGER: 'client', ADVISOR: 'ownVehicleClient' },
  // "unit, employees … | all | client | — | own vehicle's client, read only" (Administracja → Pracownicy, issue 37)
  employee: { ADMIN: 'all', MANAGER: 'client', ADVISOR: 'ownVehicleClient' },
  note: { ADMIN: 'parent', MANAGER: 'parent', USER: 'parent', ADVISOR: 'parent' },
  attachment: { ADMIN: 'parent', MANAGER: 'parent', USER: 'parent', ADVISOR: 'parent' },
  users: { ADMIN: 'all' },
  'login-history': { ADMIN: 'all' },
  'acceptance-history': { ADMIN: 'all' },
  // issue 25, ACCESS.md "notification log (Administracja → Powiadomienia) | ADMIN all"
  notification: { ADMIN: 'all' },
  // issue 34, ACCESS.md "integration accounts and their keys (create, rotate, revoke, list) | ADMIN all"
  'integration-accounts': { ADMIN: 'all' },
  // issue 35, ACCESS.md "webhook endpoints, their log, resend, recover, test event | ADMIN all"
  'webhook-endpoint': { ADMIN: 'all' },
  'webhook-message': { ADMIN: 'all' },
  // issue 37: "Administracja → Dziennik zmian (ADMIN)": the audit trail, every entry for an administrator
  'audit': { ADMIN: 'all' },
};
const expectedAccess = (name: string) => {
  if (!ACCESS[name]) throw new Error(`resource "${name}" is not in the literal ACCESS table of this test`);
  return ACCESS[name];
};

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

  it('has a row of the literal table for every declared resource, and a resource for every row', () => {
    expect(Object.keys(t.app.config.bundle.resources).sort()).toEqual(Object.keys(ACCESS).sort());
  });

  it('answers each role as the resource declares and keeps rows in scope', async () => {
    const failures: string[] = [];
    for (const [name, resource] of Object.entries(t.app.config.bundle.resources)) {
      for (const [role, scope] of Object.entries({ ADMIN: undefined, MANAGER: undefined, USER: undefined, ADVISOR: undefined, ...expectedAccess(name) })) {
        for (const path of ['table', 'table2', 'table-count', ...(resource.listAliases ?? [])]) {
          const res = await t.call('POST', `/api/${name}/${path}`, { token: tokens[role], body: { startRow: 0, endRow: 500 } });
          const expected = scope ? 200 : 403;
          if (res.statusCode !== expected) failures.push(`${role} ${name}/${path}: ${res.statusCode}, expected ${expected}`);
          if (!scope || path === 'table-count' || res.statusCode !== 200) continue;
          const rows: any[] = path === 'table2' ? res.json().rows : res.json();
          failures.push(...(await foreignRows(name, role, scope, rows)));
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

  /** Rows outside the caller's scope, by the scope columns the rows carry. */
  async function foreignRows(name: string, role: string, scope: string, rows: any[]): Promise<string[]> {
    const props = t.app.config.bundle.schemas[t.app.config.bundle.resources[name].entity].properties ?? {};
    const s = sessions[role];
    const out: string[] = [];
    if (scope === 'parent') out.push(...(await foreignParents(name, role, rows)));
    const vehicleClient = scope === 'ownVehicleClient'
      ? (await t.app.db.selectFrom('car').select('klientSymbol').where('pojazdId', '=', s.pojazdId).executeTakeFirst())?.klientSymbol
      : undefined;
    for (const row of rows) {
      if (scope === 'client' && 'klientSymbol' in props && row.klientSymbol !== s.klientSymbol) out.push(`${role} ${name}: foreign client ${row.klientSymbol}`);
      if (scope === 'ownVehicle' && 'pojazdId' in props && row.pojazdId !== s.pojazdId) out.push(`${role} ${name}: foreign vehicle ${row.pojazdId}`);
      if (scope === 'ownVehicleClient' && 'klientSymbol' in props && row.klientSymbol !== vehicleClient) out.push(`${role} ${name}: client ${row.klientSymbol} is not the vehicle's`);
      if (scope === 'station' && 'stacjaSerw' in props && row.stacjaSerw !== s.stacjaSerw && row.pojazdId !== s.pojazdId) out.push(`${role} ${name}: foreign station ${row.stacjaSerw}`);
      if ('passwordHash' in row) out.push(`${role} ${name}: password hash leaked`);
    }
    return out;
  }

  it('exports through excel/prepare exactly as the table answers: status per role, no foreign row in the file, nothing without a session', async () => {
    const failures: string[] = [];
    const forged = 'Zm9yZ2VkLXRva2VuLW5vdC1yZWFsLWF0LWFsbA';
    for (const [name, resource] of Object.entries(t.app.config.bundle.resources)) {
      const props = t.app.config.bundle.schemas[resource.entity].properties ?? {};
      // the key and every scope column the rows carry, so the file itself shows whose rows it holds
      const fields = [resource.key, 'klientSymbol', 'pojazdId', 'stacjaSerw', 'userId', resource.parentScope?.typeColumn, resource.parentScope?.idColumn]
        .filter((f, i, all): f is string => Boolean(f) && f! in props && all.indexOf(f) === i);
      const body = { fieldNames: fields, columnNames: fields, rowParams: { startRow: 0, endRow: 20000 } };
      for (const [role, scope] of Object.entries({ ADMIN: undefined, MANAGER: undefined, USER: undefined, ADVISOR: undefined, ...expectedAccess(name) })) {
        const res = await t.call('POST', `/api/${name}/excel/prepare`, { token: tokens[role], body });
        const expected = !resource.excelExport ? 404 : scope ? 200 : 403;
        if (res.statusCode !== expected) failures.push(`${role} ${name}/excel/prepare: ${res.statusCode}, expected ${expected}`);
        if (res.statusCode !== 200) continue;
        const file = await t.call('GET', res.json().data);
        if (file.statusCode !== 200) {
          failures.push(`${role} ${name}/excel/download: ${file.statusCode}`);
          continue;
        }
        const book = XLSX.read(file.rawPayload, { type: 'buffer' });
        const rows = XLSX.utils.sheet_to_json<any>(book.Sheets[book.SheetNames[0]]);
        const listed = await t.call('POST', `/api/${name}/table`, { token: tokens[role], body: { startRow: 0, endRow: 1000 } });
        if (rows.length !== listed.json().length) failures.push(`${role} ${name}: ${rows.length} rows exported, ${listed.json().length} listed`);
        failures.push(...(await foreignRows(name, role, scope!, rows)));
      }
      if (!resource.excelExport) continue;
      for (const token of [undefined, forged]) {
        const res = await t.call('POST', `/api/${name}/excel/prepare`, { token, body });
        if (res.statusCode !== 401) failures.push(`${token ? 'forged' : 'no'} token ${name}/excel/prepare: ${res.statusCode}`);
        if (res.body.includes('/excel/download')) failures.push(`${name}/excel/prepare: a link without a session`);
      }
      for (const query of ['', '?token=', `?token=${forged}`, `?token=${'A'.repeat(43)}`]) {
        const res = await t.call('GET', `/api/${name}/excel/download${query}`);
        if (res.statusCode !== 403) failures.push(`${name}/excel/download${query}: ${res.statusCode}`);
        if (res.headers['content-type'] !== 'application/json; charset=utf-8' || res.rawPayload.subarray(0, 2).toString() === 'PK') failures.push(`${name}/excel/download${query}: data without a token`);
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
