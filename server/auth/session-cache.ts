/**
 * The sessions this process checked lately, kept for SESSION_CACHE_MS so that a signed call does
 * not pay a database round trip for its session (docs/security.md "Session cache").
 *
 * Nothing stale is served: the database tells every process at the commit of any change that
 * makes a cached session wrong (migration 008: a session deleted or changed, an account changed,
 * deleted or its terms accepted, the terms documents changed), and the entry goes at once. The
 * cache answers only while its listening connection is up; after a lost connection it is emptied
 * (messages sent meanwhile are lost) and refilled only once the LISTEN is back. What a trigger
 * cannot see — time passing — is bounded by the short lifetime: an account whose end date (dataDo)
 * passes at midnight stops within SESSION_CACHE_MS; the session's own expiry is checked on every hit.
 */
import { randomBytes } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { notificationsOf, observeWrites, type LocalWrite, type NotificationSubscription } from '../db/connect.ts';
import { SESSION_CHANNEL } from '../migrations/008_session_notifications.ts';
import type { Session } from './session.ts';
import type { DB } from '../db/types.generated.ts';

/** How long a checked session is trusted without asking the database again. */
export const SESSION_CACHE_MS = 5_000;
/** Entries at most; past it the oldest go first (a cache, not a store of every session). */
const MAX_ENTRIES = 10_000;

/** A session as read, with what is needed to judge it later without the database. */
export interface CachedSession {
  session: Session;
  /** Epoch ms. */
  expiresAt: number;
  lastSeenAt: number;
  /** A person's session: when it was signed in (epoch ms), the absolute lifetime counts from here (an integration key has none). */
  createdAt?: number;
}

interface Entry extends CachedSession {
  cachedAt: number;
}

/**
 * Whether a write may change a cached session. A new session or account cannot (nothing cached
 * about it yet), nor the sliding expiry (checked against the cached expiry, which findSession moves).
 */
function invalidates(write: LocalWrite): boolean {
  switch (write.table) {
    case 'app_user':
      return write.kind !== 'insert';
    case 'user_session':
      return write.kind === 'delete' || (write.kind === 'update' && write.columns.some((c) => c !== 'lastSeenAt' && c !== 'expiresAt'));
    case 'terms_acceptance':
    case 'terms_template':
      return true;
    // whether an account has a second factor is part of its cached sessions (issue 36); a spent time step is not
    case 'user_totp':
      return write.kind !== 'update' || write.columns.some((c) => c !== 'lastStep');
    case 'user_passkey':
      return write.kind !== 'update';
    // integration keys are cached here too (server/integration/principal.ts); using one changes nothing cached
    case 'integration_account':
      return write.kind !== 'insert';
    case 'integration_key':
      return write.kind === 'delete' || (write.kind === 'update' && write.columns.some((c) => c !== 'lastUsedAt' && c !== 'lastUsedIp'));
    default:
      return false;
  }
}

/** The cache serving the sessions of a database (the auth plugin registers the app's). */
const caches = new WeakMap<Kysely<DB>, SessionCache>();

export function sessionCacheOf(db: Kysely<DB>): SessionCache | undefined {
  return caches.get(db);
}

export class SessionCache {
  private readonly entries = new Map<string, Entry>();
  /** Changes on every invalidation: a lookup that raced one does not store what it read. */
  private epoch = 0;
  private subscription: NotificationSubscription | null = null;
  private schema = '';
  private readonly waiting = new Map<string, () => void>();
  private stopObserving: () => void = () => undefined;

  /** Counters for the bench and the tests: served from the cache / read from the database. */
  readonly stats = { hits: 0, misses: 0 };

  private constructor(private readonly db: Kysely<DB>, private readonly ttlMs: number) {}

  /**
   * Starts listening; a database without LISTEN support here (a kysely instance not opened by
   * server/db/connect.ts) gets a cache that never answers, i.e. every check reads the database.
   */
  static async start(db: Kysely<DB>, ttlMs = SESSION_CACHE_MS): Promise<SessionCache> {
    const cache = new SessionCache(db, ttlMs);
    caches.set(db, cache);
    const subscribe = notificationsOf(db);
    if (!subscribe || ttlMs <= 0) return cache;
    // the schema the portal's tables are in, as the triggers name it (TG_TABLE_SCHEMA)
    // a database away at start-up must not stop the server: it then runs without the cache
    // (every check reads the database), which is correct, only slower
    try {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      cache.schema = rows[0].schema;
      cache.subscription = await subscribe(SESSION_CHANNEL, {
        message: (payload) => cache.onMessage(payload),
        gap: () => cache.onGap(),
      });
    } catch {
      return cache;
    }
    // this process's own writes: forgotten before they run, so its next request reads them
    // (a notification arrives a moment after the commit, which a request may just beat)
    cache.stopObserving = observeWrites(db, (write) => {
      if (invalidates(write)) cache.clear();
    });
    return cache;
  }

  /** A cached session still within its lifetime, or undefined (then read the database). */
  get(tokenHash: string): CachedSession | undefined {
    if (!this.subscription?.live) return undefined;
    const entry = this.entries.get(tokenHash);
    if (!entry) return undefined;
    if (Date.now() - entry.cachedAt > this.ttlMs) {
      this.entries.delete(tokenHash);
      return undefined;
    }
    this.stats.hits++;
    return entry;
  }

  /** The epoch to hand back to `set`: take it BEFORE reading the database. */
  mark(): number {
    this.stats.misses++;
    return this.epoch;
  }

  /** Keeps what a lookup read, unless something was invalidated while it was reading. */
  set(tokenHash: string, value: CachedSession, epoch: number): void {
    if (!this.subscription?.live || epoch !== this.epoch) return;
    this.entries.delete(tokenHash);
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(tokenHash, { ...value, cachedAt: Date.now() });
  }

  /** Forgets one session (this process revoked it; the trigger tells the others). */
  delete(tokenHash: string): void {
    this.epoch++;
    this.entries.delete(tokenHash);
  }

  /** Forgets every session of an account. */
  deleteUser(userId: number): void {
    this.epoch++;
    for (const [hash, entry] of this.entries) if (entry.session.userId === userId) this.entries.delete(hash);
  }

  clear(): void {
    this.epoch++;
    this.entries.clear();
  }

  /** Whether the cache answers (it is listening to the database's messages). */
  get live(): boolean {
    return this.subscription?.live ?? false;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Resolves once every notification committed before this call has been applied here: it sends
   * a marker on the channel and waits for it (PostgreSQL delivers notifications in commit order).
   * For tests and the bench, which must not guess how long a notification takes to arrive.
   */
  async sync(): Promise<void> {
    if (!this.subscription) return;
    const marker = randomBytes(8).toString('hex');
    const arrived = new Promise<void>((resolve) => this.waiting.set(marker, resolve));
    // not listening now: the reconnection empties the cache, which is as good as any message
    if (this.subscription.live) await sql`select pg_notify(${SESSION_CHANNEL}, ${`${this.schema}:sync:${marker}`})`.execute(this.db);
    await arrived;
  }

  /** The listening connection was lost or is back: messages may be lost, so nothing is kept. */
  private onGap(): void {
    this.clear();
    for (const resolve of this.waiting.values()) resolve();
    this.waiting.clear();
  }

  async close(): Promise<void> {
    this.stopObserving();
    if (caches.get(this.db) === this) caches.delete(this.db);
    // the database may already be closed (onClose hooks of the owner run first): closing the
    // listener then has nothing to tell it, and must not turn a clean shutdown into a failure
    await this.subscription?.close().catch(() => undefined);
    this.subscription = null;
    this.clear();
  }

  private onMessage(payload: string): void {
    const at = payload.indexOf(':');
    if (payload.slice(0, at) !== this.schema) return; // another portal on the same database
    const [kind, id] = [payload.slice(at + 1, at + 2), payload.slice(at + 3)];
    const sync = /^sync:(\w+)$/.exec(payload.slice(at + 1));
    if (sync) {
      this.waiting.get(sync[1])?.();
      this.waiting.delete(sync[1]);
    } else if (kind === 's') this.delete(id);
    else if (kind === 'u') this.deleteUser(Number(id));
    else this.clear(); // '*' and anything not understood
  }
}
