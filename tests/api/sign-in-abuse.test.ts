import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestApp, type TestApp } from '../support/test-app.ts';

/** What a caller can see of an answer: status and body (the token of a success aside). */
/** What a stranger sees of an answer: its status and body, but for the request's own id (each answer has one). */
const seen = (res: { statusCode: number; json(): any }) => {
  const { requestId: _ownId, ...body } = res.json();
  return { status: res.statusCode, body };
};

describe('sign-in tells a stranger nothing', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  const signIn = (body: Record<string, unknown>, remoteAddress?: string) => t.call('POST', '/api/user/auth', { body, remoteAddress });

  it('answers a real and an unknown login alike, wrong password after wrong password and through the lock-out', async () => {
    for (let i = 1; i <= 7; i++) {
      const real = await signIn({ username: 'manager3', password: 'Zgaduje123!', role: 'MANAGER' }, '198.51.100.1');
      const unknown = await signIn({ username: 'nie.ma.takiego', password: 'Zgaduje123!', role: 'MANAGER' }, '198.51.100.1');
      expect(seen(unknown), `attempt ${i}`).toEqual(seen(real));
      expect(real.statusCode, `attempt ${i}`).toBe(i <= 5 ? 401 : 429);
    }
  });

  it('answers a right password with a wrong plate exactly like a wrong password, and counts it towards the lock', async () => {
    const address = '198.51.100.2';
    const wrongPassword = await signIn({ ...DEMO.kierowca, password: 'Zgaduje123!' }, address);
    const wrongPlate = await signIn({ ...DEMO.kierowca, rejestr: 'WZ67890' }, address);
    expect(seen(wrongPlate)).toEqual(seen(wrongPassword));
    expect(wrongPlate.json()).toMatchObject({ code: 'UNAUTHORIZED', detail: 'Błąd logowania: Błędny login lub hasło!' });
    for (let i = 0; i < 3; i++) await signIn({ ...DEMO.kierowca, rejestr: 'WZ67890' }, address);
    expect((await signIn(DEMO.kierowca, address)).statusCode).toBe(429);
  });

  it('answers a right password with a wrong VIN part, or the wrong role choice, exactly like a wrong password', async () => {
    const address = '198.51.100.3';
    const wrongPassword = seen(await signIn({ ...DEMO.doradca, password: 'Zgaduje123!' }, address));
    expect(seen(await signIn({ ...DEMO.doradca, vin: '999999' }, address))).toEqual(wrongPassword);
    expect(seen(await signIn({ ...DEMO.doradca, role: 'USER' }, address))).toEqual(wrongPassword);
  });

  it('takes hidden fields a login form sends empty as absent', async () => {
    const admin = await signIn({ ...DEMO.admin, rejestr: '', vin: '' });
    expect(admin.statusCode, admin.body).toBe(200);
    expect((await signIn({ ...DEMO.manager, vin: '' })).statusCode).toBe(200);
    expect((await signIn({ ...DEMO.manager, rejestr: null, vin: null })).statusCode).toBe(200);
    expect((await signIn({ ...DEMO.kierowca, vin: '' })).statusCode).toBe(200);
    // a field the choice does need is still required, with its own message
    const advisor = await signIn({ ...DEMO.doradca, vin: '' });
    expect(advisor.statusCode).toBe(400);
    expect(advisor.json().errors).toContainEqual({ field: 'vin', message: 'Podaj dokładnie 6 ostatnich znaków numeru VIN' });
    const short = await signIn({ ...DEMO.manager, vin: '123' });
    expect(short.json().errors).toContainEqual({ field: 'vin', message: 'Podaj dokładnie 6 ostatnich znaków numeru VIN' });
  });
});

describe('per-address call limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ rateLimits: 'configured' });
  }, 60_000);
  afterAll(async () => t?.close());

  const limits = () => (t.app.config.bundle.app.security as { rateLimit: Record<string, { max: number; windowMinutes: number }> }).rateLimit;

  it('are configured for sign-in and both forgotten-password calls', () => {
    expect(limits()).toEqual({
      signIn: { max: 30, windowMinutes: 1 },
      resetRequest: { max: 10, windowMinutes: 15 },
      resetCode: { max: 20, windowMinutes: 15 },
    });
  });

  it('refuse sign-in after the limit from one address, for real and unknown logins alike, and not for other addresses', async () => {
    limits().signIn.max = 4;
    const from = (remoteAddress: string, body: Record<string, unknown>) => t.call('POST', '/api/user/auth', { body, remoteAddress });
    // one address guesses across logins, real and unknown (no single login reaches its lock-out)
    const guesses = ['manager', 'nie.ma.takiego', 'manager2', 'ktos.inny'];
    for (const username of guesses) expect((await from('192.0.2.10', { username, password: 'Zgaduje123!', role: 'MANAGER' })).statusCode).toBe(401);
    for (const username of ['manager3', 'jeszcze.ktos']) {
      const refused = await from('192.0.2.10', { username, password: 'Zgaduje123!', role: 'MANAGER' });
      expect(refused.statusCode).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'TOO_MANY_REQUESTS', detail: 'Zbyt wiele prób z tego adresu. Spróbuj ponownie za 1 min.' });
      expect(refused.headers['retry-after']).toBeDefined();
    }
    // the right password from that address waits too; another address is not affected
    expect((await from('192.0.2.10', DEMO.manager)).statusCode).toBe(429);
    expect((await from('192.0.2.11', DEMO.manager)).statusCode).toBe(200);
  });

  it('refuse reset requests and reset-code tries after the limit from one address', async () => {
    limits().resetRequest.max = 2;
    limits().resetCode.max = 3;
    const reset = () => t.call('POST', '/api/password/reset-password', { body: { email: 'nikt@example.com' }, remoteAddress: '192.0.2.20' });
    // without a mail server a request answers 503; it still counts
    for (let i = 0; i < 2; i++) expect((await reset()).statusCode).not.toBe(429);
    expect((await reset()).statusCode).toBe(429);
    const code = () => t.call('PUT', '/api/password/change-forgotten-password', {
      body: { username: 'manager', resetToken: 'ABCDEFGHJK', newPassword: 'Niebieski%Most45' }, remoteAddress: '192.0.2.21',
    });
    for (let i = 0; i < 3; i++) expect((await code()).statusCode).toBe(400);
    const refused = await code();
    expect(refused.statusCode).toBe(429);
    expect(refused.json().detail).toBe('Zbyt wiele prób z tego adresu. Spróbuj ponownie za 15 min.');
  });
});
