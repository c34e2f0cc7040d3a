/**
 * Two-factor sign-in, passkeys and sessions (issue 36), on the configured requirement
 * (screens/app.json security.secondFactorRequiredWhen: ADMIN; variant P: MANAGER too). The
 * server's clock is the test's, so codes are computed for exact time steps.
 */
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { softPasskey } from '../support/soft-passkey.ts';
import { DEMO, startTestApp, type TestApp } from '../support/test-app.ts';

/** The origin inject's requests come from (Host: localhost:80). */
const ORIGIN = 'http://localhost:80';

describe('two-factor sign-in, passkeys and sessions', () => {
  let t: TestApp;
  let now = Date.now();
  /** A code of the authenticator app `steps` periods from the server's now. */
  const codeAt = (secret: string, steps = 0) => generate({ secret, epoch: Math.floor(now / 1000) + steps * 30 });
  const nextStep = () => { now += 30_000; };
  beforeAll(async () => {
    t = await startTestApp({ secondFactor: 'configured', clock: () => new Date(now) });
  }, 60_000);
  afterAll(async () => t?.close());

  const password = (account: keyof typeof DEMO, remoteAddress?: string) => t.call('POST', '/api/user/auth', { body: DEMO[account], remoteAddress });
  const second = (body: Record<string, unknown>, remoteAddress?: string) => t.call('POST', '/api/user/auth/second-factor', { body, remoteAddress });
  let adminSecret = '';
  let adminCodes: string[] = [];

  it('leads an administrator without a second factor to enrolment: every other call answers 403 SECOND_FACTOR_REQUIRED', async () => {
    const res = await password('admin');
    expect(res.statusCode).toBe(200);
    expect(res.json().body.userDetails.secondFactorPending).toBe(true);
    const token = res.json().id_token;
    const refused = await t.call('GET', '/api/terms/status', { token });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'SECOND_FACTOR_REQUIRED', detail: 'Najpierw włącz weryfikację dwuetapową.' });
    const overview = await t.call('GET', '/api/account/security', { token });
    expect(overview.statusCode).toBe(200);
    expect(overview.json()).toMatchObject({ required: true, totp: false, passkeys: [] });
    // a fleet manager of the default variant is not asked
    expect((await password('manager')).json().body.userDetails.secondFactorPending).toBe(false);
  });

  it('enrols the authenticator app with a QR code and the secret as text, confirmed by a first code; ten recovery codes answered once', async () => {
    const token = (await password('admin')).json().id_token;
    const setup = await t.call('POST', '/api/account/totp/setup', { token });
    expect(setup.statusCode).toBe(200);
    const { secret, otpauthUrl, qrDataUrl } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauthUrl).toContain(`secret=${secret}`);
    expect(qrDataUrl).toMatch(/^data:image\/png;base64,/);
    // the secret is stored sealed, never in clear
    const row = await t.app.db.selectFrom('user_totp').selectAll().innerJoin('app_user', 'app_user.id', 'user_totp.userId').where('login', '=', 'admin').executeTakeFirstOrThrow();
    expect(row.secretSealed).not.toContain(secret);
    expect(row.confirmedAt).toBeNull();
    const wrong = await t.call('POST', '/api/account/totp/confirm', { token, body: { code: '000000' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toMatchObject({ field: 'code' });
    const ok = await t.call('POST', '/api/account/totp/confirm', { token, body: { code: await codeAt(secret) } });
    expect(ok.statusCode).toBe(200);
    adminCodes = ok.json().recoveryCodes;
    expect(adminCodes).toHaveLength(10);
    expect(new Set(adminCodes).size).toBe(10);
    adminSecret = secret;
    // stored as hashes only
    const hashes = await t.app.db.selectFrom('user_recovery_code').select('codeHash').where('userId', '=', row.userId).execute();
    expect(hashes.map((h) => h.codeHash)).not.toContain(adminCodes[0]);
    // the same session may now do everything (every process's session cache heard of it)
    await t.app.sessionCache.sync();
    expect((await t.call('GET', '/api/account/security', { token })).json()).toMatchObject({ totp: true, recoveryCodesLeft: 10 });
    expect((await t.call('GET', '/api/terms/status', { token })).statusCode).toBe(200);
  });

  it('asks for the second step after the password: no token until a code of the app, which works once', async () => {
    nextStep();
    const first = await password('admin');
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ secondFactor: { ticket: expect.any(String), methods: ['totp', 'recovery'] } });
    const code = await codeAt(adminSecret);
    const done = await second({ ticket: first.json().secondFactor.ticket, code });
    expect(done.statusCode).toBe(200);
    expect(done.json().id_token).toEqual(expect.any(String));
    expect(done.json().body.userDetails).toMatchObject({ login: 'admin', secondFactorPending: false });
    // the same code again (a replay within its window): refused, with its own words
    const again = await second({ ticket: (await password('admin')).json().secondFactor.ticket, code });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toMatchObject({ code: 'SECOND_FACTOR_INVALID', detail: expect.stringContaining('Nieprawidłowy lub wygasły kod') });
    // an old code (expired) too
    nextStep();
    const old = await second({ ticket: (await password('admin')).json().secondFactor.ticket, code: await codeAt(adminSecret, -3) });
    expect(old.statusCode).toBe(401);
    const history = await t.app.db.selectFrom('login_history').select(['rodzaj', 'uwagi']).where('login', '=', 'admin').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(history).toEqual({ rodzaj: 'SIGN_IN', uwagi: 'BAD_SECOND_FACTOR' });
  });

  it('signs in with a recovery code once; the same code twice is refused', async () => {
    const code = adminCodes[0].toLowerCase().replace(/-/g, ' ');
    const done = await second({ ticket: (await password('admin')).json().secondFactor.ticket, recoveryCode: code });
    expect(done.statusCode).toBe(200);
    const again = await second({ ticket: (await password('admin')).json().secondFactor.ticket, recoveryCode: adminCodes[0] });
    expect(again.statusCode).toBe(401);
    expect(again.json().detail).toBe('Nieprawidłowy lub już użyty kod odzyskiwania.');
    expect((await t.call('GET', '/api/account/security', { token: done.json().id_token })).json().recoveryCodesLeft).toBe(9);
  });

  it('counts wrong codes towards the lock-out of the login like wrong passwords; a ticket is spent after five tries', async () => {
    const from = '10.0.36.1';
    const ticket = (await password('admin', from)).json().secondFactor.ticket;
    for (let i = 0; i < 3; i++) expect((await second({ ticket, code: '123456' }, from)).statusCode).toBe(401);
    // the password again is no way around it: the failures are the login's at this address, not the ticket's
    const another = (await password('admin', from)).json().secondFactor.ticket;
    expect((await second({ ticket: another, code: '654321' }, from)).statusCode).toBe(401);
    // the fifth failure locks the login for this address, whatever the next try brings
    expect((await second({ ticket: another, recoveryCode: 'AAAA-BBBB-CCCC-DDDD' }, from)).statusCode).toBe(401);
    const locked = await second({ ticket: another, code: await codeAt(adminSecret, 1) }, from);
    expect(locked.statusCode).toBe(429);
    expect(locked.json().code).toBe('LOCKED');
    expect((await password('admin', from)).statusCode).toBe(429);
    // elsewhere the owner signs in
    expect((await password('admin', '10.0.36.2')).statusCode).toBe(200);
    // a ticket is spent after five wrong tries, even from addresses that are not locked
    const spent = (await password('admin', '10.0.36.3')).json().secondFactor.ticket;
    for (let i = 0; i < 5; i++) expect((await second({ ticket: spent, code: '111111' }, `10.0.37.${i}`)).statusCode).toBe(401);
    expect((await second({ ticket: spent, code: await codeAt(adminSecret, 1) }, '10.0.38.1')).json().code).toBe('TICKET_EXPIRED');
  });

  it('refuses an expired, unknown or malformed ticket, and a body without a code, without telling anything of the account', async () => {
    const ticket = (await password('admin')).json().secondFactor.ticket;
    expect((await second({ ticket })).statusCode).toBe(400);
    expect((await second({ ticket: 'x'.repeat(43), code: '123456' })).json()).toMatchObject({ code: 'TICKET_EXPIRED', detail: 'Logowanie wygasło. Zaloguj się ponownie.' });
    expect((await second({ ticket: 'not a ticket', code: '1' })).statusCode).toBe(400);
    now += 6 * 60_000;
    expect((await second({ ticket, code: await codeAt(adminSecret) })).json().code).toBe('TICKET_EXPIRED');
  });

  it('makes new recovery codes with the password (the old ones stop working) and refuses a wrong password', async () => {
    nextStep();
    const token = (await second({ ticket: (await password('admin')).json().secondFactor.ticket, code: await codeAt(adminSecret) })).json().id_token;
    const wrong = await t.call('POST', '/api/account/recovery-codes', { token, body: { password: 'Nie-to!' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().errors[0]).toEqual({ field: 'password', message: 'Nieprawidłowe hasło.' });
    const fresh = await t.call('POST', '/api/account/recovery-codes', { token, body: { password: DEMO.admin.password } });
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json().recoveryCodes).toHaveLength(10);
    expect((await second({ ticket: (await password('admin')).json().secondFactor.ticket, recoveryCode: adminCodes[1] })).statusCode).toBe(401);
    expect((await second({ ticket: (await password('admin')).json().secondFactor.ticket, recoveryCode: fresh.json().recoveryCodes[0] })).statusCode).toBe(200);
    // an administrator may not switch off the last factor the configuration asks of them
    nextStep();
    const off = await t.call('POST', '/api/account/totp/disable', { token, body: { password: DEMO.admin.password, code: await codeAt(adminSecret) } });
    expect(off.statusCode).toBe(400);
    expect(off.json().detail).toContain('Twoje konto wymaga drugiego składnika');
  });

  let managerKey: ReturnType<typeof softPasskey>;
  let managerToken = '';
  it('registers, names, renames and uses a passkey instead of a code', async () => {
    managerToken = await t.signIn('manager');
    managerKey = softPasskey();
    const begin = await t.call('POST', '/api/account/passkeys/options', { token: managerToken });
    expect(begin.statusCode).toBe(200);
    const { ticket, options } = begin.json();
    expect(options.rp).toMatchObject({ id: 'localhost' });
    const added = await t.call('POST', '/api/account/passkeys', { token: managerToken, body: { ticket, name: 'Laptop', response: managerKey.register(options, ORIGIN) } });
    expect(added.statusCode).toBe(201);
    const id = added.json().id;
    expect((await t.call('PUT', `/api/account/passkeys/${id}`, { token: managerToken, body: { name: 'Laptop służbowy' } })).statusCode).toBe(204);
    expect((await t.call('GET', '/api/account/security', { token: managerToken })).json().passkeys).toEqual([expect.objectContaining({ id, name: 'Laptop służbowy', lastUsedAt: null })]);

    const first = await password('manager');
    expect(first.json().secondFactor.methods).toEqual(['passkey']);
    const ticket2 = first.json().secondFactor.ticket;
    const challenge = await t.call('POST', '/api/user/auth/passkey-options', { body: { ticket: ticket2 } });
    expect(challenge.json().allowCredentials).toEqual([expect.objectContaining({ id: managerKey.id })]);
    const done = await t.call('POST', '/api/user/auth/passkey', { body: { ticket: ticket2, response: managerKey.authenticate(challenge.json(), ORIGIN) } });
    expect(done.statusCode).toBe(200);
    expect(done.json().body.userDetails.login).toBe('manager');
  });

  it('refuses a passkey of another account and an assertion made for another origin, counted like a wrong password', async () => {
    const ticket = (await password('admin')).json().secondFactor.ticket;
    const options = (await t.call('POST', '/api/user/auth/passkey-options', { body: { ticket } })).json();
    const foreign = await t.call('POST', '/api/user/auth/passkey', { body: { ticket, response: managerKey.authenticate(options, ORIGIN) } });
    expect(foreign.statusCode).toBe(401);
    expect(foreign.json()).toMatchObject({ code: 'SECOND_FACTOR_INVALID', detail: 'Nie udało się potwierdzić logowania tym kluczem dostępu.' });

    const mine = (await password('manager')).json().secondFactor.ticket;
    const mineOptions = (await t.call('POST', '/api/user/auth/passkey-options', { body: { ticket: mine } })).json();
    const phished = await t.call('POST', '/api/user/auth/passkey', { body: { ticket: mine, response: managerKey.authenticate(mineOptions, 'https://portal.example.evil') } });
    expect(phished.statusCode).toBe(401);
    const failures = await t.app.db.selectFrom('sign_in_failure').select('failures').where('login', '=', 'manager').executeTakeFirstOrThrow();
    expect(failures.failures).toBeGreaterThanOrEqual(1);
  });

  it('lists the sessions with device, browser and address; ends one, then every other, at once', async () => {
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const other = (await t.call('POST', '/api/user/auth', { body: DEMO.kierowca, headers: { 'user-agent': firefox }, remoteAddress: '192.0.2.7' })).json().id_token;
    const mine = await t.signIn('kierowca');
    const list = (await t.call('GET', '/api/account/security', { token: mine })).json().sessions;
    const row = list.find((s: any) => s.address === '192.0.2.7');
    expect(row).toMatchObject({ current: false, device: 'Komputer z Windows', browser: 'Firefox 133', createdAt: expect.any(String), lastSeenAt: expect.any(String) });
    expect(list.filter((s: any) => s.current)).toHaveLength(1);
    // another user cannot end it: it is not among theirs
    expect((await t.call('DELETE', `/api/account/sessions/${row.id}`, { token: managerToken })).statusCode).toBe(404);
    expect((await t.call('DELETE', `/api/account/sessions/${row.id}`, { token: mine })).statusCode).toBe(204);
    expect((await t.call('GET', '/api/account/security', { token: other })).statusCode).toBe(401);
    const third = await t.signIn('kierowca');
    expect((await t.call('POST', '/api/account/sessions/end-others', { token: mine })).statusCode).toBe(204);
    expect((await t.call('GET', '/api/account/security', { token: third })).statusCode).toBe(401);
    expect((await t.call('GET', '/api/account/security', { token: mine })).statusCode).toBe(200);
  });

  it('lets an administrator see and end a user\'s sessions, and reset their second factor (recorded); nobody else may', async () => {
    nextStep();
    const admin = (await second({ ticket: (await password('admin')).json().secondFactor.ticket, code: await codeAt(adminSecret) })).json().id_token;
    const managerId = (await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow()).id;
    const sessions = await t.call('GET', `/api/users/${managerId}/sessions`, { token: admin });
    expect(sessions.statusCode).toBe(200);
    const target = sessions.json().find((s: any) => s.id);
    expect((await t.call('DELETE', `/api/users/${managerId}/sessions/${target.id}`, { token: admin })).statusCode).toBe(204);
    expect((await t.call('GET', `/api/users/${managerId}/sessions`, { token: managerToken })).statusCode).toBe(403);
    expect((await t.call('POST', `/api/users/${managerId}/second-factor/reset`, { token: managerToken })).statusCode).toBe(403);
    expect((await t.call('POST', '/api/users/999999/second-factor/reset', { token: admin })).statusCode).toBe(404);

    expect((await t.call('POST', `/api/users/${managerId}/second-factor/reset`, { token: admin })).statusCode).toBe(204);
    const recorded = await t.app.db.selectFrom('login_history').select(['rodzaj', 'uwagi']).where('login', '=', 'manager').orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(recorded).toEqual({ rodzaj: 'SECOND_FACTOR_RESET', uwagi: 'RESET_BY_ADMIN' });
    // the audit trail names the administrator who did it and what was removed (the manager had a passkey)
    const adminId = (await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'admin').executeTakeFirstOrThrow()).id;
    const entry = await t.app.db.selectFrom('audit_entry').select(['userId', 'role', 'resource', 'recordKey', 'action', 'changes'])
      .where('action', '=', 'second-factor-reset').orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect({ ...entry, changes: typeof entry.changes === 'string' ? JSON.parse(entry.changes) : entry.changes }).toEqual({
      userId: adminId, role: 'ADMIN', resource: 'users', recordKey: String(managerId), action: 'second-factor-reset',
      changes: { totp: [false, false], passkeys: [1, 0], unusedRecoveryCodes: [0, 0] },
    });
    // the passkey is gone: the password alone signs the manager in again, and every session ended
    expect((await password('manager')).json().id_token).toEqual(expect.any(String));
    expect((await t.call('GET', '/api/account/security', { token: managerToken })).statusCode).toBe(401);
  });

  it('asks the fleet managers of a variant that declares it (client variant P) for a second factor too', async () => {
    const res = await t.call('POST', '/api/user/auth', { body: { username: 'p.manager', password: 'Haslo123!', role: 'MANAGER' } });
    expect(res.statusCode).toBe(200);
    expect(res.json().body.userDetails.secondFactorPending).toBe(true);
    expect((await t.call('GET', '/api/terms/status', { token: res.json().id_token })).json().code).toBe('SECOND_FACTOR_REQUIRED');
  });

  it('switches the app off with the password and a code where the configuration does not ask for it', async () => {
    const token = await t.signIn('kierowca');
    const { secret } = (await t.call('POST', '/api/account/totp/setup', { token })).json();
    nextStep();
    expect((await t.call('POST', '/api/account/totp/confirm', { token, body: { code: await codeAt(secret) } })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/account/totp/setup', { token })).statusCode).toBe(409);
    nextStep();
    const wrongCode = await t.call('POST', '/api/account/totp/disable', { token, body: { password: DEMO.kierowca.password, code: '000000' } });
    expect(wrongCode.json().errors[0].field).toBe('code');
    const off = await t.call('POST', '/api/account/totp/disable', { token, body: { password: DEMO.kierowca.password, code: await codeAt(secret) } });
    expect(off.statusCode).toBe(204);
    expect((await password('kierowca')).json().id_token).toEqual(expect.any(String));
  });
});
