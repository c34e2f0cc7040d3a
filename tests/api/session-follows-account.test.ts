/**
 * A session is only as good as the account behind it (docs/security.md "Sessions follow the
 * account"): an account whose end date has passed, that is deleted, locked, or whose role changed
 * loses its sessions at once (the next call is 401), and a request acts with the account's role as
 * it is now. Until a user with a first-login password has chosen their own, only the terms calls,
 * the password calls and sign-out answer them (403 FIRST_LOGIN_REQUIRED).
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const NEW_PASSWORD = 'Zielony-Rower-2026!';

describe('sessions follow the account', () => {
  let t: TestApp;
  let seq = 0;

  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  /** A fresh account with the demo manager's password and client, every terms document accepted. */
  async function account(rola: 'MANAGER' | 'ADMIN', extra: Record<string, unknown> = {}) {
    const manager = await t.app.db.selectFrom('app_user').select(['passwordHash', 'klientSymbol']).where('login', '=', 'manager').executeTakeFirstOrThrow();
    const login = `konto.${++seq}`;
    const { id } = await t.app.db.insertInto('app_user').values({
      login, rola, firstName: 'Jan', lastName: 'Testowy', passwordHash: manager.passwordHash, klientSymbol: manager.klientSymbol, firstLogin: false, ...extra,
    }).returning('id').executeTakeFirstOrThrow();
    await t.app.db.insertInto('terms_acceptance')
      .columns(['userId', 'templateId', 'acceptedAt'])
      .expression((eb) => eb.selectFrom('terms_template').select([sql.lit(id).as('userId'), 'id', sql`now()`.as('acceptedAt')]).where('current', '=', true))
      .execute();
    const res = await t.call('POST', '/api/user/auth', { body: { username: login, password: 'Manager123!', role: 'MANAGER' } });
    expect(res.statusCode).toBe(200);
    return { id, login, token: res.json().id_token as string };
  }
  const carTable = (token: string) => t.call('POST', '/api/car/table2', { token, body: { startRow: 0, endRow: 5 } });

  it('ends the sessions of an account whose end date (dataDo) has passed: the next call is 401', async () => {
    const a = await account('MANAGER');
    expect((await carTable(a.token)).statusCode).toBe(200);
    await t.app.db.updateTable('app_user').set({ dataDo: sql`current_date - 1` }).where('id', '=', a.id).execute();
    const res = await carTable(a.token);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHORIZED');
    // an account that ends today still works today
    const b = await account('MANAGER', { dataDo: sql`current_date` });
    expect((await carTable(b.token)).statusCode).toBe(200);
  });

  it('ends the sessions of a deleted account', async () => {
    const a = await account('MANAGER');
    expect((await carTable(a.token)).statusCode).toBe(200);
    await t.app.db.deleteFrom('terms_acceptance').where('userId', '=', a.id).execute();
    await t.app.db.deleteFrom('app_user').where('id', '=', a.id).execute();
    expect((await carTable(a.token)).statusCode).toBe(401);
  });

  it('ends the sessions of a locked account, and they do not come back when the lock passes', async () => {
    const a = await account('MANAGER');
    expect((await carTable(a.token)).statusCode).toBe(200);
    await t.app.db.updateTable('app_user').set({ lockedUntil: new Date(Date.now() + 60 * 60_000) }).where('id', '=', a.id).execute();
    expect((await carTable(a.token)).statusCode).toBe(401);
    await t.app.db.updateTable('app_user').set({ lockedUntil: null }).where('id', '=', a.id).execute();
    expect((await carTable(a.token)).statusCode).toBe(401);
  });

  it('ends the sessions of an account whose role changed; signed in again it has the new role only', async () => {
    const a = await account('ADMIN');
    expect((await t.call('GET', '/api/settings/email', { token: a.token })).statusCode).toBe(200);
    await t.app.db.updateTable('app_user').set({ rola: 'MANAGER' }).where('id', '=', a.id).execute();
    expect((await t.call('GET', '/api/settings/email', { token: a.token })).statusCode).toBe(401);
    expect((await carTable(a.token)).statusCode).toBe(401);
    // changing it back does not revive the old session
    await t.app.db.updateTable('app_user').set({ rola: 'ADMIN' }).where('id', '=', a.id).execute();
    expect((await carTable(a.token)).statusCode).toBe(401);
    await t.app.db.updateTable('app_user').set({ rola: 'MANAGER' }).where('id', '=', a.id).execute();
    const again = await t.call('POST', '/api/user/auth', { body: { username: a.login, password: 'Manager123!', role: 'MANAGER' } });
    const token = again.json().id_token;
    expect((await t.call('GET', '/api/settings/email', { token })).statusCode).toBe(403);
    expect((await carTable(token)).statusCode).toBe(200);
  });

  it('takes the client of a request from the account as it is now', async () => {
    const a = await account('MANAGER');
    const before = (await carTable(a.token)).json().rows.map((r: any) => r.klientSymbol);
    expect(before.length).toBeGreaterThan(0);
    const other = await t.app.db.selectFrom('car').select('klientSymbol').where('klientSymbol', 'not in', [...new Set(before)] as string[]).executeTakeFirstOrThrow();
    await t.app.db.updateTable('app_user').set({ klientSymbol: other.klientSymbol }).where('id', '=', a.id).execute();
    const after = (await carTable(a.token)).json().rows.map((r: any) => r.klientSymbol);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((k: string) => k === other.klientSymbol)).toBe(true);
  });
});

describe('first sign-in is enforced by the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  it('answers a first-login user only the terms calls, the password calls and sign-out until they choose a password', async () => {
    const token = await t.signIn('nowyKierowca');
    const userId = (await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'nowy.kierowca').executeTakeFirstOrThrow()).id;
    // the terms come first (the runtime's gates are in the same order)
    expect((await t.call('GET', '/api/terms/status', { token })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/terms/accept-current', { token })).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['GET', '/api/car/single-car', undefined],
      ['POST', '/api/order/table2', { startRow: 0, endRow: 5 }],
      ['GET', '/api/user-table-view/ORDER_TABLE', undefined],
      ['POST', '/api/user-table-view', { name: 'x', tablename: 'ORDER_TABLE', columnorder: ['autNr'] }],
    ] as const) {
      const res = await t.call(method, url, { token, body });
      expect(res.statusCode, url).toBe(403);
      expect(res.json(), url).toMatchObject({ code: 'FIRST_LOGIN_REQUIRED', detail: 'Ustaw własne hasło, aby korzystać z portalu.' });
    }
    // the password call answers, and after it everything else does
    const changed = await t.call('PUT', '/api/users/change-password', { token, body: { userId, password: NEW_PASSWORD, firstLogin: true } });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await t.call('GET', '/api/car/single-car', { token })).statusCode).toBe(200);
  });

  it('lets a first-login user sign out', async () => {
    const token = await t.signIn('nowyManager');
    expect((await t.call('POST', '/api/user/logout', { token })).statusCode).toBe(204);
    expect((await t.call('GET', '/api/terms/status', { token })).statusCode).toBe(401);
  });

  it('treats a password an administrator set like a first sign-in', async () => {
    const admin = await t.signIn('admin');
    const manager2 = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager2').executeTakeFirstOrThrow();
    const set = await t.call('PUT', '/api/users/change-password', { token: admin, body: { userId: manager2.id, password: NEW_PASSWORD } });
    expect(set.statusCode, set.body).toBe(200);
    const signIn = await t.call('POST', '/api/user/auth', { body: { username: 'manager2', password: NEW_PASSWORD, role: 'MANAGER' } });
    expect(signIn.statusCode).toBe(200);
    const token = signIn.json().id_token;
    const res = await t.call('POST', '/api/car/table2', { token, body: { startRow: 0, endRow: 5 } });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('FIRST_LOGIN_REQUIRED');
    const own = await t.call('PUT', '/api/users/change-password', { token, body: { userId: manager2.id, password: 'Inne-Haslo-2026!', firstLogin: true } });
    expect(own.statusCode, own.body).toBe(200);
    expect((await t.call('POST', '/api/car/table2', { token, body: { startRow: 0, endRow: 5 } })).statusCode).toBe(200);
  });
});
