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

/**
 * How long a session lives (ASVS 5.0 V7.3, screens/app.json → security.session): `idleMinutes`
 * without a call end it (each use slides the window), and `absoluteHours` after the sign-in end it
 * however busy it is. Read from the configuration at every sign-in and every check, so a changed
 * value applies to the sessions already open at their next call.
 */
export interface SessionLifetime { idleMinutes: number; absoluteHours: number; recentSignInMinutes?: number }
/** The defaults (docs/decisions.md "Session lifetime"): a working day idle, a long working day in all. */
export const DEFAULT_SESSION_LIFETIME: SessionLifetime = { idleMinutes: 8 * 60, absoluteHours: 12, recentSignInMinutes: 15 };
/** Idle sessions end after this long by default; each use slides the window. */
export const SESSION_IDLE_MS = DEFAULT_SESSION_LIFETIME.idleMinutes * 60_000;

const idleMs = (l: SessionLifetime) => l.idleMinutes * 60_000;
const absoluteMs = (l: SessionLifetime) => l.absoluteHours * 3_600_000;
/** The expiry a use at `now` gives a session signed in at `createdAt`: the idle window, never past the absolute end. */
const expiryAt = (now: number, createdAt: number, l: SessionLifetime) => Math.min(now + idleMs(l), createdAt + absoluteMs(l));


const ROLES: ReadonlySet<string> = new Set<Role>(['USER', 'ADVISOR', 'MANAGER', 'ADMIN']);
/** The session's role as createSession wrote it; anything else (a hand-edited row) grants nothing. */
const asRole = (value: string): Role => (ROLES.has(value) ? (value as Role) : 'UNKNOWN');

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** Where a session was signed in from: shown to its user (Ustawienia → Bezpieczeństwo) and an administrator. */
export interface SessionOrigin {
  userAgent: string | null;
  address: string | null;
  /** Signed in through the client's identity provider (single sign-on), which proves the second factor itself. */
  viaIdentityProvider?: boolean;
}

export async function createSession(db: Kysely<DB>, userId: number, role: Role, pojazdId: number | null, origin?: SessionOrigin, lifetime = DEFAULT_SESSION_LIFETIME): Promise<string> {
  const token = randomBytes(32).toString('base64url');
  const now = new Date();
  await db
    .insertInto('user_session')
    .values({
      tokenHash: hashToken(token), userId, role, pojazdId, createdAt: now, lastSeenAt: now, expiresAt: new Date(expiryAt(now.getTime(), now.getTime(), lifetime)),
      userAgent: origin?.userAgent ?? null, address: origin?.address ?? null, viaIdentityProvider: origin?.viaIdentityProvider ?? false,
    })
    .execute();
  return token;
}

/**
 * The id a session is named by in the sessions list: derived from its token hash (which itself
 * never leaves the server), stable for the session's life, telling nothing of the token.
 */
export const sessionIdOf = (tokenHash: string) => createHash('sha256').update(`session-id:${tokenHash}`).digest('base64url').slice(0, 22);

/** The live sessions of a user, newest first, with the id they are named by. */
export async function listUserSessions(db: Kysely<DB>, userId: number) {
  const rows = await db.selectFrom('user_session').select(['tokenHash', 'createdAt', 'lastSeenAt', 'expiresAt', 'userAgent', 'address'])
    .where('userId', '=', userId).where('expiresAt', '>', new Date()).orderBy('lastSeenAt', 'desc').execute();
  return rows.map(({ tokenHash, ...row }) => ({ ...row, tokenHash, id: sessionIdOf(tokenHash) }));
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
export async function findSession(db: Kysely<DB>, token: string, lifetime = DEFAULT_SESSION_LIFETIME): Promise<Session | null> {
  const tokenHash = hashToken(token);
  const cache = sessionCacheOf(db);
  const cached = cache?.get(tokenHash);
  if (cached?.createdAt !== undefined) {
    // past its idle expiry, or past the absolute end as configured now (a shortened lifetime applies at once)
    if (cached.expiresAt < Date.now() || cached.createdAt + absoluteMs(lifetime) <= Date.now()) {
      cache!.delete(tokenHash);
      return null;
    }
    if (Date.now() - cached.lastSeenAt > SLIDE_EVERY_MS) {
      cached.lastSeenAt = await slideExpiry(db, tokenHash, cached.createdAt, lifetime);
      cached.expiresAt = expiryAt(cached.lastSeenAt, cached.createdAt, lifetime);
    }
    return cached.session;
  }
  const epoch = cache?.mark() ?? 0;
  const row = await db
    .selectFrom('user_session as s')
    .innerJoin('app_user as u', 'u.id', 's.userId')
    .select(['s.tokenHash', 's.userId', 'u.login', 'u.rola as role', 's.role as signedInAs', 'u.klientSymbol', 'u.stacjaSerw', 's.pojazdId', 's.expiresAt', 's.lastSeenAt', 's.createdAt', 'u.firstLogin', 's.viaIdentityProvider', 'u.language'])
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
    // whether the account has a second factor (issue 36): without one, an account the configuration
    // asks for it may only enrol (plugins/auth.ts)
    .select((eb) => eb.or([
      eb.exists(eb.selectFrom('user_totp as f').select(sql`1`.as('one')).whereRef('f.userId', '=', 's.userId').where('f.confirmedAt', 'is not', null)),
      eb.exists(eb.selectFrom('user_passkey as p').select(sql`1`.as('one')).whereRef('p.userId', '=', 's.userId')),
    ]).as('hasSecondFactor'))
    .where('s.tokenHash', '=', tokenHash)
    .executeTakeFirst();
  if (!row || new Date(row.expiresAt).getTime() < Date.now()) return null;
  const createdAt = new Date(row.createdAt).getTime();
  // the absolute lifetime (ASVS 7.3.2): however busy, a session ends this long after its sign-in
  if (createdAt + absoluteMs(lifetime) <= Date.now()) {
    await revokeSession(db, tokenHash);
    return null;
  }
  // an ended, locked or re-roled account has no session any more: its next call is a 401
  if (!row.accountOpen || row.role !== row.signedInAs) {
    await revokeSession(db, tokenHash); // for good: extending the account later does not revive it
    return null;
  }
  let lastSeenAt = new Date(row.lastSeenAt).getTime();
  let expiresAt = new Date(row.expiresAt).getTime();
  if (Date.now() - lastSeenAt > SLIDE_EVERY_MS) {
    lastSeenAt = await slideExpiry(db, tokenHash, createdAt, lifetime);
    expiresAt = expiryAt(lastSeenAt, createdAt, lifetime);
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
    // a single sign-on session's second factor is the identity provider's (docs/decisions.md "Single sign-on per client")
    hasSecondFactor: Boolean(row.hasSecondFactor) || Boolean(row.viaIdentityProvider),
    language: row.language ?? null,
  });
  cache?.set(tokenHash, { session, expiresAt, lastSeenAt, createdAt }, epoch);
  return session;
}

/** The sliding expiry is written at most once a minute: reads stay cheap. */
const SLIDE_EVERY_MS = 60_000;

/** Moves the session's expiry to the idle window from now, never past its absolute end; returns the new lastSeenAt. */
async function slideExpiry(db: Kysely<DB>, tokenHash: string, createdAt: number, lifetime: SessionLifetime): Promise<number> {
  const now = new Date();
  await db
    .updateTable('user_session')
    .set({ lastSeenAt: now, expiresAt: new Date(expiryAt(now.getTime(), createdAt, lifetime)) })
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

/** Whether the session was signed in within `minutes` (a change that adds a way in asks for a recent sign-in). */
export async function signedInWithin(db: Kysely<DB>, tokenHash: string, minutes: number): Promise<boolean> {
  const row = await db.selectFrom('user_session').select('createdAt').where('tokenHash', '=', tokenHash).executeTakeFirst();
  return row !== undefined && Date.now() - new Date(row.createdAt).getTime() <= minutes * 60_000;
}

/** The vehicle a session works on (an advisor switching vehicles keeps the same token). */
export async function setSessionVehicle(db: Kysely<DB>, tokenHash: string, pojazdId: number): Promise<void> {
  await db.updateTable('user_session').set({ pojazdId }).where('tokenHash', '=', tokenHash).execute();
}
