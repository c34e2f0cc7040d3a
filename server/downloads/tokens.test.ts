import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSession, findSession, revokeSession, type Session } from '../auth/sessions.ts';
import { openTestDatabase, testBackends, type TestDatabase } from '../seed/testing.ts';
import { issueDownloadToken, redeemDownloadToken } from './tokens.ts';

describe.each(testBackends)('download tokens on %s', (kind) => {
  let t: TestDatabase;
  let session: Session;
  beforeAll(async () => {
    t = await openTestDatabase({ kind, seed: true });
    session = await newSession();
  }, 60_000);
  afterAll(async () => { await t?.close(); });

  async function newSession(): Promise<Session> {
    const user = await t.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
    const token = await createSession(t.db, user.id, 'MANAGER', null);
    return (await findSession(t.db, token))!;
  }

  it('opens exactly once, for the user who asked', async () => {
    const token = await issueDownloadToken(t.db, session, { kind: 'invoice', refId: '7' });
    expect(await redeemDownloadToken(t.db, token, 'invoice', '7')).toEqual({ userId: session.userId, refId: '7' });
    expect(await redeemDownloadToken(t.db, token, 'invoice', '7')).toBeNull();
  });

  it('stores only a hash of the token', async () => {
    const token = await issueDownloadToken(t.db, session, { kind: 'invoice', refId: '8' });
    const stored = await t.db.selectFrom('download_token').select('tokenHash').execute();
    expect(stored.map((r) => r.tokenHash)).not.toContain(token);
  });

  it('does not open another kind or another record, and a wrong record does not spend it', async () => {
    const token = await issueDownloadToken(t.db, session, { kind: 'invoice', refId: '9' });
    expect(await redeemDownloadToken(t.db, token, 'excel:invoice', '9')).toBeNull();
    expect(await redeemDownloadToken(t.db, token, 'invoice', '10')).toBeNull();
    expect(await redeemDownloadToken(t.db, token, 'invoice', '9')).not.toBeNull();
  });

  it('refuses an expired token', async () => {
    const token = await issueDownloadToken(t.db, session, { kind: 'invoice', refId: '11' }, 60_000);
    await sql`update download_token set "expiresAt" = now() - interval '1 second' where "refId" = '11'`.execute(t.db);
    expect(await redeemDownloadToken(t.db, token, 'invoice', '11')).toBeNull();
  });

  it('dies with the session that asked for it', async () => {
    const other = await newSession();
    const token = await issueDownloadToken(t.db, other, { kind: 'invoice', refId: '12' });
    await revokeSession(t.db, other.tokenHash);
    expect(await redeemDownloadToken(t.db, token, 'invoice', '12')).toBeNull();
  });

  it('refuses anything that is not a token without looking it up', async () => {
    for (const bad of [undefined, '', 'x', 42, `${'a'.repeat(42)}'`, 'a'.repeat(44)]) {
      expect(await redeemDownloadToken(t.db, bad, 'invoice')).toBeNull();
    }
  });

  it('lets only one of two racing windows win', async () => {
    const token = await issueDownloadToken(t.db, session, { kind: 'invoice', refId: '13' });
    const results = await Promise.all([redeemDownloadToken(t.db, token, 'invoice', '13'), redeemDownloadToken(t.db, token, 'invoice', '13')]);
    expect(results.filter(Boolean)).toHaveLength(1);
  });
});
