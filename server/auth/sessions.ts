/**
 * Sessions live in the database (user_session), keyed by the SHA-256 of a random bearer token, so
 * any server process can check or revoke them and a stolen database copy holds no usable token.
 */
import { createHash, randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import { sessionCacheOf } from './session-cache.ts';
import type { Session } from './session.ts';
export type { Session } from './session.ts';
import type { DB } from '../db/types.generated.ts';

/** Idle sessions end after this long; each use slides the window. */
export const SESSION_IDLE_MS = 8 * 60 * 60 * 1000;


const ROLES: ReadonlySet<string> = new Set<Role>(['USER', 'ADVISOR', 'MANAGER', 'ADMIN']);
/** The session's role as createSession wrote it; anything else (a hand-edited row) grants nothing. */
const asRole = (value: string): Role => (ROLES.has(value) ? (value as Role) : 'UNKNOWN');

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

export async function createSession(db: Kysely<DB>, userId: number, role: Role, pojazdId: number | null): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db
    .insertInto('user_session')
    .values({ tokenHash: hashToken(token), userId, role, pojazdId, createdAt: now, lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_IDLE_MS) })
    .execute();
  return token;
}

/**
 * The live session of a token, sliding its expiry; null when unknown or expired, or when the
 * account behind it no longer allows it: deleted (the join finds no account), its end date
 * (dataDo) passed, locked (lockedUntil in the future), or its role changed since sign-in. The
 * role, client and station are the account's as they are now, not copies from the sign-in. One
 * query (session ⨝ account, with the terms check as a subquery), one round trip per request —
 * none when the database's session cache holds it (session-cache.ts: a few seconds, invalidated
 * by the database at the commit of any change to it).
 */
export async function findSession(db: Kysely<DB>, token: string): Promise<Session | null> {
  const tokenHash = hashToken(token);
  const cache = sessionCacheOf(db);
  const cached = cache?.get(tokenHash);
  if (cached) {
    if (cached.expiresAt < Date.now()) {
      cache!.delete(tokenHash);
      return null;
    }
    if (Date.now() - cached.lastSeenAt > SLIDE_EVERY_MS) {
      cached.lastSeenAt = await slideExpiry(db, tokenHash);
      cached.expiresAt = cached.lastSeenAt + SESSION_IDLE_MS;
    }
    return cached.session;
  }
  const epoch = cache?.mark() ?? 0;
  const row = await db
    .selectFrom('user_session as s')
    .innerJoin('app_user as u', 'u.id', 's.userId')
    .select(['s.tokenHash', 's.userId', 'u.login', 'u.rola as role', 's.role as signedInAs', 'u.klientSymbol', 'u.stacjaSerw', 's.pojazdId', 's.expiresAt', 's.lastSeenAt', 'u.firstLogin'])
    // the account's state, judged by the database clock like everything else it stores
    .select(sql<boolean>`(u."dataDo" is null or u."dataDo" >= current_date) and (u."lockedUntil" is null or u."lockedUntil" <= now())`.as('accountOpen'))
    // in the same query, so enforcing the terms costs no extra round trip per request
    .select((eb) => eb.exists(
      eb.selectFrom('terms_template as t').select(sql`1`.as('one')).where('t.current', '=', true)
        .where((inner) => inner.not(inner.exists(
          inner.selectFrom('terms_acceptance as a').select(sql`1`.as('one'))
            .whereRef('a.templateId', '=', 't.id').whereRef('a.userId', '=', 's.userId'),
        ))),
    ).as('termsPending'))
    .where('s.tokenHash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || new Date(row.expiresAt).getTime() < Date.now()) return null;
  // an ended, locked or re-roled account has no session any more: its next call is a 401
  if (!row.accountOpen || row.role !== row.signedInAs) {
    await revokeSession(db, tokenHash); // for good: extending the account later does not revive it
    return null;
  }
  let lastSeenAt = new Date(row.lastSeenAt).getTime();
  let expiresAt = new Date(row.expiresAt).getTime();
  if (Date.now() - lastSeenAt > SLIDE_EVERY_MS) {
    lastSeenAt = await slideExpiry(db, tokenHash);
    expiresAt = lastSeenAt + SESSION_IDLE_MS;
  }
  const session: Session = Object.freeze({
    tokenHash: row.tokenHash,
    userId: row.userId,
    login: row.login,
    role: asRole(row.role),
    klientSymbol: row.klientSymbol,
    stacjaSerw: row.stacjaSerw,
    pojazdId: row.pojazdId,
    termsPending: Boolean(row.termsPending),
    firstLogin: Boolean(row.firstLogin),
  });
  cache?.set(tokenHash, { session, expiresAt, lastSeenAt }, epoch);
  return session;
}

/** The sliding expiry is written at most once a minute: reads stay cheap. */
const SLIDE_EVERY_MS = 60_000;

/** Moves the session's expiry to SESSION_IDLE_MS from now; returns the new lastSeenAt. */
async function slideExpiry(db: Kysely<DB>, tokenHash: string): Promise<number> {
  const now = new Date();
  await db
    .updateTable('user_session')
    .set({ lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_IDLE_MS) })
    .where('tokenHash', '=', tokenHash)
    .execute();
  return now.getTime();
}

/**
 * The cache of this process forgets the session at once; the other processes' caches are told by
 * the database (migration 008) when the deletion commits.
 */
export async function revokeSession(db: Kysely<DB>, tokenHash: string): Promise<void> {
  await db.deleteFrom('user_session').where('tokenHash', '=', tokenHash).execute();
  sessionCacheOf(db)?.delete(tokenHash);
}

/** Ends every session of a user except, optionally, the one making the change (a new password). */
export async function revokeUserSessions(db: Kysely<DB>, userId: number, keepTokenHash?: string): Promise<void> {
  let q = db.deleteFrom('user_session').where('userId', '=', userId);
  if (keepTokenHash) q = q.where('tokenHash', '<>', keepTokenHash);
  await q.execute();
  // inside a transaction (db is then not the app's) the trigger's message at commit does it
  sessionCacheOf(db)?.deleteUser(userId);
}

/** The vehicle a session works on (an advisor switching vehicles keeps the same token). */
export async function setSessionVehicle(db: Kysely<DB>, tokenHash: string, pojazdId: number): Promise<void> {
  await db.updateTable('user_session').set({ pojazdId }).where('tokenHash', '=', tokenHash).execute();
}
