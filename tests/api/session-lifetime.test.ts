/**
 * How long a session lives (ASVS 5.0 7.3.1 inactivity, 7.3.2 absolute lifetime): both from the
 * configuration (screens/app.json → security.session), here a copy set to 30 minutes idle and 2
 * hours in all. A session's clock is moved back in the database (its sign-in and last call), as if
 * that time had passed.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/auth/sessions.ts';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

const MINUTE = 60_000;

describe('session lifetime from the configuration', () => {
  let t: TestApp;
  let dir: string;
  const appJson = () => join(dir, 'screens/app.json');
  const configure = (session: { idleMinutes: number; absoluteHours: number }) => {
    const app = JSON.parse(readFileSync(appJson(), 'utf8'));
    app.security.session = session;
    writeFileSync(appJson(), JSON.stringify(app, null, 2));
  };
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'portal-config-'));
    for (const sub of ['screens', 'schemas', 'locales', 'client-variants']) cpSync(join(ROOT, sub), join(dir, sub), { recursive: true });
    cpSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
    configure({ idleMinutes: 30, absoluteHours: 2 });
    t = await startTestApp({ root: dir });
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const row = (token: string) => t.app.db.selectFrom('user_session').select(['createdAt', 'lastSeenAt', 'expiresAt']).where('tokenHash', '=', hashToken(token)).executeTakeFirst();
  /** Moves the session's sign-in and last call back in time, its expiry where the last call left it. */
  const age = async (token: string, { signedInAgo, lastCallAgo, expiresIn }: { signedInAgo: number; lastCallAgo: number; expiresIn: number }) => {
    const now = Date.now();
    await t.app.db.updateTable('user_session')
      .set({ createdAt: new Date(now - signedInAgo), lastSeenAt: new Date(now - lastCallAgo), expiresAt: new Date(now + expiresIn) })
      .where('tokenHash', '=', hashToken(token)).execute();
    await t.app.sessionCache.sync();
  };
  const call = (token: string) => t.call('GET', '/api/account/security', { token });

  it('gives a new session the configured idle time', async () => {
    const token = await t.signIn('manager');
    const r = (await row(token))!;
    expect(new Date(r.expiresAt).getTime() - new Date(r.createdAt).getTime()).toBe(30 * MINUTE);
  });

  it('ends a session left unused for longer than the idle time', async () => {
    const token = await t.signIn('manager');
    expect((await call(token)).statusCode).toBe(200);
    await age(token, { signedInAgo: 31 * MINUTE, lastCallAgo: 31 * MINUTE, expiresIn: -1 * MINUTE });
    expect((await call(token)).statusCode).toBe(401);
  });

  it('ends a busy session at the absolute end however often it is used: its idle window never reaches past it', async () => {
    const token = await t.signIn('manager');
    // signed in 1 h 55 min ago and used all along: the next call slides the expiry only to the absolute end
    await age(token, { signedInAgo: 115 * MINUTE, lastCallAgo: 2 * MINUTE, expiresIn: 28 * MINUTE });
    expect((await call(token)).statusCode).toBe(200);
    const r = (await row(token))!;
    expect(new Date(r.expiresAt).getTime()).toBe(new Date(r.createdAt).getTime() + 120 * MINUTE);
    // used a minute ago, its idle expiry still ahead, but signed in over 2 hours ago: ended, and for good
    await age(token, { signedInAgo: 121 * MINUTE, lastCallAgo: 1 * MINUTE, expiresIn: 29 * MINUTE });
    const late = await call(token);
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('UNAUTHORIZED');
    expect(await row(token)).toBeUndefined();
  });

  it('applies a shortened lifetime to the sessions already open, at their next call', async () => {
    const admin = await t.signIn('admin');
    const token = await t.signIn('manager');
    await age(token, { signedInAgo: 90 * MINUTE, lastCallAgo: 1 * MINUTE, expiresIn: 29 * MINUTE });
    expect((await call(token)).statusCode).toBe(200);
    configure({ idleMinutes: 30, absoluteHours: 1 });
    expect((await t.call('GET', '/api/settings/restart-application', { token: admin })).statusCode).toBe(200);
    expect((await call(token)).statusCode).toBe(401);
  });
});
