/**
 * Signing in with a passkey alone, instead of password + code (issue 36): usernameless (the
 * challenge names no account), the passkey names its account, user verification makes it both
 * factors, and the login screen's role and vehicle choice is checked as the password step checks
 * it. Refusals before the passkey is proven answer alike and count towards the lock-out.
 */
import { isoBase64URL } from '@simplewebauthn/server/helpers';
import { hashToken } from '../../server/auth/sessions.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { softPasskey } from '../support/soft-passkey.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

/** The origin inject's requests come from (Host: localhost:80). */
const ORIGIN = 'http://localhost:80';
const REFUSED = {
  code: 'PASSKEY_REFUSED',
  detail: 'Nie udało się zalogować kluczem dostępu: klucz nie został rozpoznany albo potwierdzenie wygasło. Spróbuj ponownie albo zaloguj się loginem i hasłem.',
};

describe('sign-in with a passkey alone', () => {
  let t: TestApp;
  let now = Date.now();
  beforeAll(async () => {
    t = await startTestApp({ secondFactor: 'configured', clock: () => new Date(now) });
  }, 60_000);
  afterAll(async () => t?.close());

  type Key = ReturnType<typeof softPasskey>;
  const options = (choice: Record<string, unknown>, remoteAddress?: string) => t.call('POST', '/api/user/auth/passkey-only/options', { body: choice, remoteAddress });
  const answer = (response: unknown, remoteAddress?: string) => t.call('POST', '/api/user/auth/passkey-only', { body: { response }, remoteAddress });
  /** The whole sign-in: the choice, the browser's dialog (the soft passkey), the answer. */
  const signInWith = async (key: Key, choice: Record<string, unknown>, remoteAddress?: string, as?: Parameters<Key['authenticate']>[2]) => {
    const challenge = await options(choice, remoteAddress);
    expect(challenge.statusCode).toBe(200);
    return answer(key.authenticate(challenge.json(), ORIGIN, as), remoteAddress);
  };
  const register = async (token: string, name = 'Telefon') => {
    const key = softPasskey();
    const { ticket, options: creation } = (await t.call('POST', '/api/account/passkeys/options', { token })).json();
    expect(creation.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true });
    const added = await t.call('POST', '/api/account/passkeys', { token, body: { ticket, name, response: key.register(creation, ORIGIN) } });
    expect(added.statusCode).toBe(201);
    return key;
  };
  const failuresOf = async (login: string, address: string) =>
    (await t.app.db.selectFrom('sign_in_failure').select('failures').where('login', '=', login).where('address', '=', address).executeTakeFirst())?.failures ?? 0;
  const idOf = async (login: string) => (await t.app.db.selectFrom('app_user').select('id').where('login', '=', login).executeTakeFirstOrThrow()).id;

  let managerKey: Key;
  it('signs a fleet manager in with the passkey only: a challenge naming no account, user verification required, a session', async () => {
    managerKey = await register(await t.signIn('manager'));
    const challenge = await options({ role: 'MANAGER' });
    expect(challenge.json()).toMatchObject({ rpId: 'localhost', userVerification: 'required', allowCredentials: [] });
    const res = await answer(managerKey.authenticate(challenge.json(), ORIGIN));
    expect(res.statusCode).toBe(200);
    expect(res.json().secondFactor).toBeUndefined();
    expect(res.json().body.userDetails).toMatchObject({ login: 'manager', rola: 'MANAGER', secondFactorPending: false });
    const token = res.json().id_token;
    const security = await t.call('GET', '/api/account/security', { token });
    expect(security.statusCode).toBe(200);
    expect(security.json().passkeys[0].lastUsedAt).not.toBeNull();
    // the audit trail names the way in (issue 37)
    const entry = await t.app.db.selectFrom('audit_entry').select(['action', 'userId', 'changes']).where('resource', '=', 'login')
      .where('action', '=', 'sign-in').orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(entry.userId).toBe(await idOf('manager'));
    const changes = (typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes) as Record<string, unknown>;
    expect(changes.method).toEqual([null, 'passkey']);
  });

  it('counts the passkey as both factors: an administrator the configuration asks for a second factor is not held at enrolment', async () => {
    const pending = (await t.call('POST', '/api/user/auth', { body: { username: 'admin', password: 'Admin123!', role: 'MANAGER' } })).json();
    expect(pending.body.userDetails.secondFactorPending).toBe(true);
    const adminKey = await register(pending.id_token, 'Klucz USB');
    const res = await signInWith(adminKey, { role: 'MANAGER' });
    expect(res.statusCode).toBe(200);
    expect(res.json().body.userDetails).toMatchObject({ login: 'admin', secondFactorPending: false });
    expect((await t.call('GET', '/api/terms/status', { token: res.json().id_token })).statusCode).toBe(200);
  });

  it('refuses a replayed answer, an answer for another origin, another account\'s user handle, an unknown passkey and no user verification alike, each counted like a wrong password', async () => {
    const address = '198.51.100.21';
    const challenge = (await options({ role: 'MANAGER' }, address)).json();
    const signed = managerKey.authenticate(challenge, ORIGIN);
    expect((await answer(signed, address)).statusCode).toBe(200);
    const replayed = await answer(signed, address);
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json()).toMatchObject(REFUSED);

    const again = await signInWith(managerKey, { role: 'MANAGER' }, address);
    expect(again.statusCode).toBe(200); // a fresh challenge works (and clears the address's count)
    const evil = await options({ role: 'MANAGER' }, address);
    const forEvil = await answer(managerKey.authenticate(evil.json(), 'https://portal.example.evil'), address);
    expect(forEvil.statusCode).toBe(401);
    expect(forEvil.json()).toMatchObject(REFUSED);

    // the manager's credential, answered as the administrator's (an authenticator lying about whose passkey it is)
    const otherHandle = isoBase64URL.fromUTF8String(`portal-user-${await idOf('admin')}`);
    const foreign = await signInWith(managerKey, { role: 'MANAGER' }, address, { userHandle: otherHandle });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toMatchObject(REFUSED);
    expect(await failuresOf('admin', address)).toBe(0); // counted for the passkey's owner, not the account it claimed

    const unverified = await signInWith(managerKey, { role: 'MANAGER' }, address, { userVerified: false });
    expect(unverified.statusCode).toBe(401);
    expect(unverified.json()).toMatchObject(REFUSED);

    // a passkey the portal never registered: the same answer, so nothing tells which passkeys (or accounts) exist
    const stranger = softPasskey();
    const unknown = await signInWith(stranger, { role: 'MANAGER' }, address, { userHandle: isoBase64URL.fromUTF8String(`portal-user-${await idOf('manager')}`) });
    expect(unknown.statusCode).toBe(401);
    const { requestId: _a, ...unknownBody } = unknown.json();
    const { requestId: _b, ...evilBody } = forEvil.json();
    expect(unknownBody).toEqual(evilBody);

    // the second sign-in cleared the address's count; the three refusals of the manager's passkey since then counted (the unknown one has no login to count for)
    expect(await failuresOf('manager', address)).toBe(3);
    const history = await t.app.db.selectFrom('login_history').select('uwagi').where('login', '=', 'manager').where('uwagi', '=', 'BAD_PASSKEY').execute();
    expect(history.length).toBeGreaterThanOrEqual(4);
  });

  it('refuses an expired challenge', async () => {
    const challenge = (await options({ role: 'MANAGER' })).json();
    now += 6 * 60_000;
    const late = await answer(managerKey.authenticate(challenge, ORIGIN));
    expect(late.statusCode).toBe(401);
    expect(late.json()).toMatchObject(REFUSED);
  });

  it('locks the login for the address after repeated refusals; then even the right passkey is told to wait', async () => {
    const address = '198.51.100.22';
    for (let i = 0; i < 5; i += 1) {
      const challenge = await options({ role: 'MANAGER' }, address);
      expect((await answer(managerKey.authenticate(challenge.json(), 'https://evil.example'), address)).statusCode).toBe(401);
    }
    const locked = await signInWith(managerKey, { role: 'MANAGER' }, address);
    expect(locked.statusCode).toBe(429);
    // each counted refusal, and the lock-out, are in the audit trail as the passkey's account's
    const trail = await t.app.db.selectFrom('audit_entry').select(['action', 'recordKey', 'address']).where('resource', '=', 'login')
      .where('address', '=', address).orderBy('seq').execute();
    expect(trail.filter((e) => e.action === 'sign-in-failed').length).toBeGreaterThanOrEqual(5);
    expect(trail.some((e) => e.action === 'lock-out')).toBe(true);
    expect(new Set(trail.map((e) => e.recordKey))).toEqual(new Set([String(await idOf('manager'))]));
    expect(locked.json()).toMatchObject({ code: 'LOCKED', detail: expect.stringContaining('Zbyt wiele nieudanych prób logowania') });
    // the password of that login is locked for that address too: one lock-out for both ways in
    const password = await t.call('POST', '/api/user/auth', { body: { username: 'manager', password: 'Manager123!', role: 'MANAGER' }, remoteAddress: address });
    expect(password.statusCode).toBe(429);
    // elsewhere the owner still signs in
    expect((await signInWith(managerKey, { role: 'MANAGER' }, '198.51.100.23')).statusCode).toBe(200);
  });

  it('checks the login screen\'s role and vehicle choice against the passkey\'s account, as the password step does', async () => {
    // a plate is needed for a vehicle user's choice: a 400 naming the field, before the browser's dialog
    const noPlate = await options({ role: 'USER' });
    expect(noPlate.statusCode).toBe(400);
    expect(noPlate.json().errors).toEqual([expect.objectContaining({ field: 'rejestr' })]);

    const asDriver = await signInWith(managerKey, { role: 'USER', rejestr: 'WZ12345' });
    expect(asDriver.statusCode).toBe(401);
    expect(asDriver.json()).toMatchObject({ code: 'ROLE_MISMATCH', detail: expect.stringContaining('Loguję się jako') });

    const driverKey = await register(await t.signIn('kierowca'));
    const driver = await signInWith(driverKey, { role: 'USER', rejestr: 'wz12345' });
    expect(driver.statusCode).toBe(200);
    expect(driver.json().body.userDetails).toMatchObject({ login: 'kierowca', rola: 'USER', rejestr: 'WZ12345' });
    const otherCar = await signInWith(driverKey, { role: 'USER', rejestr: 'WZ67890' });
    expect(otherCar.statusCode).toBe(401);
    expect(otherCar.json().code).toBe('VEHICLE_NOT_ASSIGNED');
  });

  it('refuses an ended account after the passkey proved its owner, and a deleted one like an unknown passkey', async () => {
    const token = await t.signIn('manager2');
    const key = await register(token);
    await t.app.db.updateTable('app_user').set({ dataDo: '2020-01-01' }).where('login', '=', 'manager2').execute();
    const ended = await signInWith(key, { role: 'MANAGER' });
    expect(ended.statusCode).toBe(401);
    expect(ended.json().detail).toBe('Twoje konto jest nieaktywne. Prosimy o skontaktowanie się z administratorem');
    // an account gone (deleted) is refused like any unknown passkey
    await t.app.db.updateTable('app_user').set({ deletedAt: new Date() }).where('login', '=', 'manager2').execute();
    const gone = await signInWith(key, { role: 'MANAGER' });
    expect(gone.statusCode).toBe(401);
    expect(gone.json()).toMatchObject(REFUSED);
  });

  it('lets only a fresh sign-in add a passkey: a session signed in longer ago than security.session.recentSignInMinutes is asked to sign in again', async () => {
    const token = await t.signIn('doradca');
    await t.app.db.updateTable('user_session').set({ createdAt: new Date(Date.now() - 16 * 60_000) }).where('tokenHash', '=', hashToken(token)).execute();
    await t.app.sessionCache.sync();
    const late = await t.call('POST', '/api/account/passkeys/options', { token });
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({ code: 'SIGN_IN_AGAIN', detail: expect.stringContaining('zaraz po zalogowaniu') });
    // the rest of the session is unaffected
    expect((await t.call('GET', '/api/account/security', { token })).statusCode).toBe(200);
  });
});
