import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO, startTestApp, type TestApp } from '../support/test-app.ts';

describe('sign-in security', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  const signIn = (body: Record<string, unknown>) => t.call('POST', '/api/user/auth', { body });
  const wrong = (username: string) => signIn({ username, password: 'Zgaduje123!', role: 'MANAGER' });

  describe('lock-out', () => {
    const failures = (login: string) => t.app.db.selectFrom('sign_in_failure').selectAll().where('login', '=', login).execute();

    it('locks one login after five failed sign-ins in a row from one address, refusing even the right password, with the minutes to wait', async () => {
      for (let i = 0; i < 5; i++) expect((await wrong('manager3')).statusCode).toBe(401);
      const locked = await signIn({ username: 'manager3', password: 'Haslo123!', role: 'MANAGER' });
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toMatchObject({ code: 'LOCKED', detail: 'Zbyt wiele nieudanych prób logowania. Spróbuj ponownie za 5 min.' });
      // other logins are not affected
      expect((await signIn(DEMO.manager)).statusCode).toBe(200);
      const history = await t.app.db.selectFrom('login_history').select(['uwagi', 'success']).where('login', '=', 'manager3').orderBy('id', 'desc').executeTakeFirstOrThrow();
      // a code, shown in Polish by the screen (locales/pl/login.json history.reasons)
      expect(history).toEqual({ uwagi: 'LOCKED', success: false });
      // the lock is of the login at this address, not of the account (whose lock would end its sessions)
      const [row] = await failures('manager3');
      expect(new Date(row.lockedUntil!).getTime()).toBeGreaterThan(Date.now());
      const account = await t.app.db.selectFrom('app_user').select('lockedUntil').where('login', '=', 'manager3').executeTakeFirstOrThrow();
      expect(account.lockedUntil).toBeNull();
    });

    it('keeps an attacker from locking anyone out for long: guesses during the lock do not extend it, and it ends by itself', async () => {
      const [before] = await failures('manager3');
      for (let i = 0; i < 10; i++) expect((await wrong('manager3')).statusCode).toBe(429);
      const [after] = await failures('manager3');
      expect(new Date(after.lockedUntil!).getTime()).toBe(new Date(before.lockedUntil!).getTime());
      expect(new Date(after.lockedUntil!).getTime() - Date.now()).toBeLessThanOrEqual(5 * 60_000);
      // five minutes later the owner signs in (the clock of the server is moved on)
      vi.useFakeTimers({ toFake: ['Date'], now: new Date(after.lockedUntil!).getTime() + 1000 });
      try {
        expect((await signIn({ username: 'manager3', password: 'Haslo123!', role: 'MANAGER' })).statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });

    it('does not let a stranger at another address lock the owner out', async () => {
      const stranger = (body: Record<string, unknown>) => t.call('POST', '/api/user/auth', { body, remoteAddress: '203.0.113.7' });
      const owner = await signIn(DEMO.manager);
      expect(owner.statusCode).toBe(200);
      for (let i = 0; i < 5; i++) await stranger({ username: 'manager', password: 'Zgaduje123!', role: 'MANAGER' });
      expect((await stranger(DEMO.manager)).statusCode).toBe(429);
      expect((await signIn(DEMO.manager)).statusCode).toBe(200);
      // nor sign them out: the session they already have goes on
      const stillIn = await t.call('GET', '/api/terms/status', { token: owner.json().id_token });
      expect(stillIn.statusCode).toBe(200);
    });

    it('forgets failures once the owner signs in, and failures older than the window', async () => {
      for (let i = 0; i < 4; i++) await wrong('manager');
      expect((await signIn(DEMO.manager)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) await wrong('manager');
      expect((await signIn(DEMO.manager)).statusCode).toBe(200);
      for (let i = 0; i < 4; i++) await wrong('manager');
      vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 16 * 60_000 });
      try {
        await wrong('manager');
        expect((await signIn(DEMO.manager)).statusCode).toBe(200);
      } finally {
        vi.useRealTimers();
      }
    });

    it('lifts the lock when the password is reset', async () => {
      for (let i = 0; i < 5; i++) await wrong('manager2');
      expect((await signIn(DEMO.manager2)).statusCode).toBe(429);
      const admin = await t.signIn('admin');
      const account = await t.app.db.selectFrom('app_user').select(['id', 'passwordHash', 'pwdDo']).where('login', '=', 'manager2').executeTakeFirstOrThrow();
      const set = await t.call('PUT', '/api/users/change-password', { token: admin, body: { userId: account.id, password: 'Nowe-Haslo-2026!' } });
      expect(set.statusCode).toBe(200);
      expect(await failures('manager2')).toEqual([]);
      expect((await signIn({ ...DEMO.manager2, password: 'Nowe-Haslo-2026!' })).statusCode).toBe(200);
      // the demo password back for the tests below
      await t.app.db.updateTable('app_user').set({ passwordHash: account.passwordHash, pwdDo: account.pwdDo, firstLogin: false }).where('id', '=', account.id).execute();
    });
  });

  describe('an administrator\'s unlock (Administracja → Użytkownicy → Bezpieczeństwo)', () => {
    const tManager = { username: 't.manager', password: 'Haslo123!', role: 'MANAGER' };
    const userId = async (login: string) => (await t.app.db.selectFrom('app_user').select('id').where('login', '=', login).executeTakeFirstOrThrow()).id;

    it('lists the lock-outs in force per address, and after the unlock the owner signs in at once from each; recorded in the trail and the login history', async () => {
      for (const address of ['198.51.100.4', '198.51.100.9']) {
        for (let i = 0; i < 5; i++) await t.call('POST', '/api/user/auth', { body: { ...tManager, password: 'Zgaduje123!' }, remoteAddress: address });
      }
      // the name typed in another case is the same account's lock-out
      for (let i = 0; i < 5; i++) await t.call('POST', '/api/user/auth', { body: { ...tManager, username: 'T.Manager', password: 'Zgaduje123!' }, remoteAddress: '198.51.100.11' });
      expect((await t.call('POST', '/api/user/auth', { body: tManager, remoteAddress: '198.51.100.4' })).statusCode).toBe(429);
      const admin = await t.signIn('admin');
      const id = await userId('t.manager');
      const listed = await t.call('GET', `/api/users/${id}/lockouts`, { token: admin });
      expect(listed.statusCode).toBe(200);
      expect(listed.json().map((l: any) => l.address).sort()).toEqual(['198.51.100.11', '198.51.100.4', '198.51.100.9']);
      for (const l of listed.json()) expect(new Date(l.lockedUntil).getTime()).toBeGreaterThan(Date.now());

      expect((await t.call('DELETE', `/api/users/${id}/lockouts`, { token: admin })).statusCode).toBe(204);
      expect((await t.call('GET', `/api/users/${id}/lockouts`, { token: admin })).json()).toEqual([]);
      for (const address of ['198.51.100.4', '198.51.100.9']) {
        expect((await t.call('POST', '/api/user/auth', { body: tManager, remoteAddress: address })).statusCode).toBe(200);
      }
      const adminId = await userId('admin');
      const entry = await t.app.db.selectFrom('audit_entry').select(['userId', 'role', 'resource', 'recordKey', 'action', 'changes'])
        .where('action', '=', 'unlock').orderBy('seq', 'desc').executeTakeFirstOrThrow();
      expect({ ...entry, changes: typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes }).toEqual({
        userId: adminId, role: 'ADMIN', resource: 'users', recordKey: String(id), action: 'unlock', changes: { lockouts: [3, 0] },
      });
      const history = await t.app.db.selectFrom('login_history').select(['rodzaj', 'uwagi']).where('login', '=', 't.manager')
        .where('rodzaj', '=', 'UNLOCK').executeTakeFirstOrThrow();
      expect(history).toEqual({ rodzaj: 'UNLOCK', uwagi: 'UNLOCKED_BY_ADMIN' });
    });

    it('answers an unlock of a login that is not locked with 204 and records nothing', async () => {
      const admin = await t.signIn('admin');
      const id = await userId('t.manager');
      const before = await t.app.db.selectFrom('audit_entry').select((eb) => eb.fn.countAll<string>().as('n')).where('action', '=', 'unlock').executeTakeFirstOrThrow();
      expect((await t.call('DELETE', `/api/users/${id}/lockouts`, { token: admin })).statusCode).toBe(204);
      const after = await t.app.db.selectFrom('audit_entry').select((eb) => eb.fn.countAll<string>().as('n')).where('action', '=', 'unlock').executeTakeFirstOrThrow();
      expect(Number(after.n)).toBe(Number(before.n));
    });

    it('is the administrator\'s alone (ACCESS.md: users, ADMIN only), and an unknown user is 404', async () => {
      const id = await userId('t.manager');
      for (let i = 0; i < 5; i++) await t.call('POST', '/api/user/auth', { body: { ...tManager, password: 'Zgaduje123!' }, remoteAddress: '198.51.100.20' });
      for (const role of ['manager', 'kierowca', 'doradca'] as const) {
        const token = await t.signIn(role);
        expect((await t.call('GET', `/api/users/${id}/lockouts`, { token })).statusCode, role).toBe(403);
        expect((await t.call('DELETE', `/api/users/${id}/lockouts`, { token })).statusCode, role).toBe(403);
      }
      expect((await t.call('DELETE', `/api/users/${id}/lockouts`)).statusCode).toBe(401);
      // still locked: none of the refused calls unlocked it
      expect((await t.call('POST', '/api/user/auth', { body: tManager, remoteAddress: '198.51.100.20' })).statusCode).toBe(429);
      const admin = await t.signIn('admin');
      expect((await t.call('GET', '/api/users/999999/lockouts', { token: admin })).statusCode).toBe(404);
      expect((await t.call('DELETE', '/api/users/999999/lockouts', { token: admin })).statusCode).toBe(404);
      expect((await t.call('GET', '/api/users/abc/lockouts', { token: admin })).statusCode).toBe(400);
      expect((await t.call('DELETE', `/api/users/${id}/lockouts`, { token: admin })).statusCode).toBe(204);
    });
  });

  describe('expiry', () => {
    it('refuses an expired account and an expired password with the spec\'s texts and machine codes', async () => {
      await t.app.db.updateTable('app_user').set({ dataDo: '2020-01-01' }).where('login', '=', 'manager2').execute();
      const account = await signIn(DEMO.manager2);
      expect(account.statusCode).toBe(401);
      expect(account.json()).toMatchObject({ code: 'User credentials have expired', detail: 'Twoje konto jest nieaktywne. Prosimy o skontaktowanie się z administratorem' });
      await t.app.db.updateTable('app_user').set({ dataDo: null, pwdDo: '2020-01-01' }).where('login', '=', 'manager2').execute();
      const password = await signIn(DEMO.manager2);
      expect(password.json()).toMatchObject({ code: 'userManagement.warnings.passwordExpired', detail: 'Twoje hasło wygasło. Prosimy o skontaktowanie się z administratorem' });
    });

    it('returns pwdDo so the runtime can warn of a password close to expiry', async () => {
      const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
      await t.app.db.updateTable('app_user').set({ pwdDo: soon }).where('login', '=', 'manager2').execute();
      const res = await signIn(DEMO.manager2);
      expect(res.statusCode).toBe(200);
      expect(res.json().body.userDetails.pwdDo).toBe(soon);
      expect(t.app.config.bundle.config.passwordExpiryWarningDays).toBe(14);
    });
  });

  it('records every attempt with role and kind: sign-in, failure, sign-out, vehicle change', async () => {
    const token = await t.signIn('doradca');
    await t.call('POST', '/api/user/re-logging', { token, body: { rejestr: 'WZ67890', vin: '000456' } });
    await t.call('POST', '/api/user/logout', { token });
    const rows = await t.app.db.selectFrom('login_history').select(['rola', 'rodzaj', 'success', 'uwagi', 'rejestr'])
      .where('login', '=', 'doradca').orderBy('id').execute();
    // codes, not texts (migration 009): the table screen shows them through valueLabels
    expect(rows.slice(-3)).toEqual([
      { rola: 'ADVISOR', rodzaj: 'SIGN_IN', success: true, uwagi: 'SUCCESS', rejestr: null },
      { rola: 'ADVISOR', rodzaj: 'VEHICLE_CHANGE', success: true, uwagi: 'VEHICLE_CHANGED', rejestr: 'WZ67890' },
      { rola: 'ADVISOR', rodzaj: 'SIGN_OUT', success: true, uwagi: 'SIGNED_OUT', rejestr: null },
    ]);
    // and the texts the screen shows come from the locales
    const labels = t.app.config.bundle.locales.pl.login as { history: { kinds: Record<string, string>; reasons: Record<string, string> } };
    expect(rows.slice(-3).map((r) => `${labels.history.kinds[r.rodzaj!]}: ${labels.history.reasons[r.uwagi!]}`))
      .toEqual(['Logowanie: Zalogowano', 'Zmiana pojazdu: Pojazd zmieniony', 'Wylogowanie: Wylogowano']);
  });

  describe('advisor changes vehicle', () => {
    it('moves the session to the vehicle of plate + VIN part and answers with the new user details', async () => {
      const token = await t.signIn('doradca');
      const res = await t.call('POST', '/api/user/re-logging', { token, body: { rejestr: 'wz67890', vin: '000456' } });
      expect(res.statusCode).toBe(200);
      expect(res.json().userDetails).toMatchObject({ login: 'doradca', rola: 'ADVISOR', rejestr: 'WZ67890', marka: expect.any(String) });
      const car = await t.call('GET', '/api/car/single-car', { token });
      expect(car.json().rejestr).toBe('WZ67890');
    });

    it('refuses a plate and VIN part that do not match, keeping the current vehicle', async () => {
      const token = await t.signIn('doradca');
      const res = await t.call('POST', '/api/user/re-logging', { token, body: { rejestr: 'WZ67890', vin: '000123' } });
      expect(res.statusCode).toBe(404);
      expect(res.json().detail).toBe('Nie znaleziono pojazdu o podanym numerze rejestracyjnym i końcówce VIN');
      expect((await t.call('GET', '/api/car/single-car', { token })).json().rejestr).toBe('WZ12345');
    });

    it('validates the fields and refuses every other role', async () => {
      const token = await t.signIn('doradca');
      const bad = await t.call('POST', '/api/user/re-logging', { token, body: { rejestr: 'WZ678901234', vin: '12' } });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().errors).toEqual(expect.arrayContaining([
        { field: 'rejestr', message: 'Pole może mieć najwyżej 10 znaków' },
        { field: 'vin', message: 'Podaj dokładnie 6 ostatnich znaków numeru VIN' },
      ]));
      for (const account of ['admin', 'manager', 'kierowca'] as const) {
        const other = await t.signIn(account);
        expect((await t.call('POST', '/api/user/re-logging', { token: other, body: { rejestr: 'WZ67890', vin: '000456' } })).statusCode, account).toBe(403);
      }
      expect((await t.call('POST', '/api/user/re-logging', { body: { rejestr: 'WZ67890', vin: '000456' } })).statusCode).toBe(401);
    });
  });

  it('ends a revoked session for every server process: the token is checked in the database, not in memory', async () => {
    const token = await t.signIn('kierowca');
    // a second application instance on the same database, as behind a load balancer
    const { buildApp } = await import('../../server/app.ts');
    const second = await buildApp({ secondFactor: { enforce: false }, db: t.app.db, root: (await import('../support/test-app.ts')).ROOT, version: 'test' });
    try {
      const viaSecond = () => second.inject({ method: 'GET', url: '/api/car/single-car', headers: { authorization: `Bearer ${token}` } });
      expect((await viaSecond()).statusCode).toBe(200);
      await t.call('POST', '/api/user/logout', { token });
      expect((await viaSecond()).statusCode).toBe(401);
    } finally {
      await second.close();
    }
  });
});
