/**
 * From a key to the session it acts as (issue 34, CONTRACTS.md "Integration keys"). One query
 * (key ⨝ account) when the key is not in this process's cache; the cache is the sessions' one
 * (server/auth/session-cache.ts), keyed by the key's hash, and forgets a key at the commit of its
 * revocation or of any change to its account, on every process (the triggers of migration 021).
 *
 * The session is judged as a MANAGER of the key's clients, or as ADMIN when it names every client;
 * it has no person behind it (userId 0 is no account: anything a key reaches that writes a user's
 * id is closed to keys), no terms and no first password.
 */
import { sql, type Kysely } from 'kysely';
import { sessionCacheOf } from '../auth/session-cache.ts';
import type { IntegrationPrincipal, Session } from '../auth/session.ts';
import type { DB } from '../db/types.generated.ts';
import { checksumHolds, hashKey } from './keys.ts';

/** The user id of a key's session: no account has it. */
export const KEY_USER_ID = 0;

/** How often using a key is written down (lastUsedAt, lastUsedIp) when its address stays the same. */
const NOTE_USE_EVERY_MS = 60_000;
/** When each key's use was last written by this process, and from where. */
const noted = new Map<string, { at: number; ip: string }>();

/** Turns an account's stored clients (JSON array, or null for every client) into the principal's. */
export function clientsOf(stored: unknown): 'all' | string[] {
  return Array.isArray(stored) ? stored.filter((c): c is string => typeof c === 'string') : 'all';
}

export function sessionOfKey(keyHash: string, name: string, principal: IntegrationPrincipal): Session {
  const clients = principal.clients;
  return Object.freeze({
    tokenHash: keyHash,
    userId: KEY_USER_ID,
    login: name,
    role: clients === 'all' ? 'ADMIN' : 'MANAGER',
    klientSymbol: clients !== 'all' && clients.length === 1 ? clients[0] : null,
    stacjaSerw: null,
    pojazdId: null,
    termsPending: false,
    firstLogin: false,
    integration: Object.freeze({ ...principal, clients: clients === 'all' ? 'all' : Object.freeze([...clients]), scopes: Object.freeze([...principal.scopes]) }),
  } satisfies Session);
}

/**
 * The session of a live key, or null: a wrong checksum (no query), an unknown, revoked or expired
 * key. Notes the use (time and address) at most once a minute per key and address.
 */
export async function findKeySession(db: Kysely<DB>, key: string, ip: string): Promise<Session | null> {
  if (!checksumHolds(key)) return null;
  const keyHash = hashKey(key);
  const cache = sessionCacheOf(db);
  const cached = cache?.get(keyHash);
  if (cached) {
    if (cached.expiresAt < Date.now()) {
      cache!.delete(keyHash);
      return null;
    }
    await noteUse(db, keyHash, ip);
    return cached.session;
  }
  const epoch = cache?.mark() ?? 0;
  const row = await db
    .selectFrom('integration_key as k')
    .innerJoin('integration_account as a', 'a.id', 'k.accountId')
    .select(['k.id as keyId', 'k.accountId', 'k.expiresAt', 'a.name', 'a.clients', 'a.scopes'])
    .select(sql<boolean>`k."revokedAt" is null and k."expiresAt" > now()`.as('live'))
    .where('k.keyHash', '=', keyHash)
    .executeTakeFirst();
  if (!row || !row.live) return null;
  const scopes = Array.isArray(row.scopes) ? row.scopes.filter((s): s is string => typeof s === 'string') : [];
  const session = sessionOfKey(keyHash, row.name, { accountId: row.accountId, keyId: row.keyId, clients: clientsOf(row.clients), scopes });
  const now = Date.now();
  cache?.set(keyHash, { session, expiresAt: new Date(row.expiresAt).getTime(), lastSeenAt: now }, epoch);
  await noteUse(db, keyHash, ip);
  return session;
}

async function noteUse(db: Kysely<DB>, keyHash: string, ip: string): Promise<void> {
  const last = noted.get(keyHash);
  const now = Date.now();
  if (last && last.ip === ip && now - last.at < NOTE_USE_EVERY_MS) return;
  noted.delete(keyHash);
  if (noted.size >= 10_000) noted.delete(noted.keys().next().value!);
  noted.set(keyHash, { at: now, ip });
  // lastUsedAt and lastUsedIp tell no cache anything (migration 021's trigger ignores them)
  await db.updateTable('integration_key').set({ lastUsedAt: new Date(now), lastUsedIp: ip.slice(0, 64) }).where('keyHash', '=', keyHash).execute();
}
