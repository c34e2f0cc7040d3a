import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestApp, type TestApp } from '../support/test-app.ts';

describe('sign-in and sign-out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  it.each([
    ['admin', 'ADMIN', null],
    ['manager', 'MANAGER', null],
    ['kierowca', 'USER', 'WZ12345'],
    ['doradca', 'ADVISOR', 'WZ12345'],
  ] as const)('signs %s in with the role %s', async (account, rola, rejestr) => {
    const res = await t.call('POST', '/api/user/auth', { body: DEMO[account] });
    expect(res.statusCode).toBe(200);
    const { id_token, body } = res.json();
    expect(id_token).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(body.userDetails).toMatchObject({ login: account, rola, firstLogin: false, rejestr });
    expect(body.postConfig.logicConfig).toHaveProperty('hideRangeForManager');
  });

  it('gives a driver their own employee record in the session (the participant of the damages they report)', async () => {
    const res = await t.call('POST', '/api/user/auth', { body: DEMO.kierowca });
    const own = await t.app.db.selectFrom('app_user').select('pracId').where('login', '=', 'kierowca').executeTakeFirstOrThrow();
    expect(own.pracId).not.toBeNull();
    expect(res.json().body.userDetails.pracId).toBe(own.pracId);
  });

  it('refuses a wrong password with the Polish message, and records the attempt', async () => {
    const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.manager, password: 'Zle-haslo1!' } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', detail: 'Błąd logowania: Błędny login lub hasło!' });
    const history = await t.app.db.selectFrom('login_history').selectAll().where('login', '=', 'manager').where('success', '=', false).execute();
    expect(history.length).toBeGreaterThan(0);
  });

  it('refuses an unknown login exactly like a wrong password', async () => {
    const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.manager, username: 'nikt' } });
    expect(res.statusCode).toBe(401);
    expect(res.json().detail).toBe('Błąd logowania: Błędny login lub hasło!');
  });

  it('refuses a role choice that does not fit the account', async () => {
    const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.manager, role: 'USER', rejestr: 'WZ12345' } });
    expect(res.statusCode).toBe(401);
  });

  it('refuses a driver who names a vehicle that is not theirs exactly like a wrong password', async () => {
    const other = await t.app.db.selectFrom('car').select('rejestr').where('rejestr', '!=', 'WZ12345').executeTakeFirstOrThrow();
    const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.kierowca, rejestr: other.rejestr } });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED', detail: 'Błąd logowania: Błędny login lub hasło!' });
  });

  it('refuses an advisor whose VIN part does not match the plate', async () => {
    const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.doradca, vin: '999999' } });
    expect(res.statusCode).toBe(401);
  });

  it('answers bad input with 400, the field and the Polish message', async () => {
    const res = await t.call('POST', '/api/user/auth', { body: { username: '', password: 'x', role: 'ADVISOR', rejestr: 'WZ12345', vin: '12' } });
    expect(res.statusCode).toBe(400);
    const { errors } = res.json();
    expect(errors).toContainEqual({ field: 'username', message: 'Pole nie może być puste' });
    expect(errors).toContainEqual({ field: 'vin', message: 'Podaj dokładnie 6 ostatnich znaków numeru VIN' });
  });

  it('accepts the plate in lower case', async () => {
    const res = await t.call('POST', '/api/user/auth', { body: { ...DEMO.kierowca, rejestr: 'wz12345' } });
    expect(res.statusCode).toBe(200);
  });

  it('revokes the token on logout, so it no longer works', async () => {
    const token = await t.signIn('manager');
    expect((await t.call('GET', '/api/car/single-car', { token })).statusCode).toBe(404); // signed in, but a manager has no single vehicle
    const out = await t.call('POST', '/api/user/logout', { token });
    expect(out.statusCode).toBe(204);
    const after = await t.call('POST', '/api/car/table2', { token, body: { startRow: 0, endRow: 30 } });
    expect(after.statusCode).toBe(401);
  });

  it('refuses a forged token and a missing one', async () => {
    const forged = 'A'.repeat(43);
    expect((await t.call('POST', '/api/car/table2', { token: forged, body: { startRow: 0, endRow: 30 } })).statusCode).toBe(401);
    expect((await t.call('POST', '/api/car/table2', { body: { startRow: 0, endRow: 30 } })).statusCode).toBe(401);
  });
});
