/**
 * Opens the application database: PostgreSQL through a pg pool when a URL is given, otherwise an
 * embedded PGlite (persisted in a folder, or in memory). Both speak the same SQL and return the
 * same JS value types (see value-types.ts), so everything above this module is backend-agnostic.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pgliteCode } from './pglite-code.ts';
import { AliasNode, ColumnNode, DeleteQueryNode, InsertQueryNode, Kysely, PostgresDialect, sql, TableNode, UpdateQueryNode, type KyselyPlugin, type LogConfig, type LogEvent, type OperationNode } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';
import { pgliteParsers, pgTypes } from './value-types.ts';
import { DEFAULT_TIME_ZONE } from './time-zone.ts';
import type { DB } from './types.generated.ts';

export type DatabaseKind = 'postgres' | 'pglite';

export interface OpenDatabaseOptions {
  /** postgres://… — selects PostgreSQL. Wins over dataDir. */
  databaseUrl?: string;
  /** Folder of the embedded PGlite database (created if missing). Neither option: in memory. */
  dataDir?: string;
  /** Work inside this schema (created if missing; it becomes the search_path). Used by tests. */
  schema?: string;
  /**
   * Session time zone. Polish by default so that `current_date` (e.g. "current contracts") and
   * timestamptz → date casts mean the Polish calendar day, whatever the server's own setting.
   */
  timeZone?: string;
  /** Pool size for PostgreSQL (default 10). */
  maxConnections?: number;
  /** PostgreSQL only: time limits and pool bounds (see PoolLimits; main.ts passes DEFAULT_POOL_LIMITS). */
  limits?: Partial<PoolLimits>;
  /** PostgreSQL only: application_name of the pool's connections (default fleet-portal). */
  applicationName?: string;
  /** Kysely's query log (npm run bench records the SQL a request runs to time it directly). */
  log?: LogConfig;
}

/**
 * Bounded waiting on PostgreSQL: nothing waits for the database longer than these limits, and a
 * request that cannot have a connection soon is refused (503) instead of queueing for minutes.
 * 0 turns a limit off. PGlite runs in the process: none of these apply.
 */
export interface PoolLimits {
  /** Opening a connection or waiting for a free one in the pool (pg connectionTimeoutMillis). */
  connectTimeoutMs: number;
  /** One SQL statement (PostgreSQL statement_timeout). */
  statementTimeoutMs: number;
  /** A transaction left open without work (PostgreSQL idle_in_transaction_session_timeout). */
  idleInTransactionTimeoutMs: number;
  /** Requests allowed to wait for a pooled connection at once; more are refused at once. */
  maxQueue: number;
  /** How long an idle connection is kept open (warm) before it is closed. */
  idleTimeoutMs: number;
  /** Connections kept open even when idle. */
  minConnections: number;
}

/** What openDatabase uses when not told otherwise (tools: seeding, bench, tests): pg's own defaults. */
export const UNBOUNDED_POOL: PoolLimits = {
  connectTimeoutMs: 0,
  statementTimeoutMs: 0,
  idleInTransactionTimeoutMs: 0,
  maxQueue: 0,
  idleTimeoutMs: 10_000,
  minConnections: 0,
};

/** The serving pool of `npm start` (main.ts; each can be changed by an environment variable). */
export const DEFAULT_POOL_LIMITS: PoolLimits = {
  connectTimeoutMs: 5_000,
  statementTimeoutMs: 30_000,
  idleInTransactionTimeoutMs: 60_000,
  maxQueue: 200,
  idleTimeoutMs: 300_000,
  minConnections: 2,
};

/** Thrown when the pool's waiting line is full: the request is answered 503 at once. */
export class PoolQueueFullError extends Error {
  readonly code = 'POOL_QUEUE_FULL';
  constructor(waiting: number) {
    super(`database pool queue is full (${waiting} waiting)`);
  }
}

/**
 * What a listener of a notification channel is told: each message, and each moment it cannot be
 * sure it heard everything (its connection was lost and is back: messages sent meanwhile are gone).
 */
export interface NotificationHandlers {
  message(payload: string): void;
  gap(): void;
}

export interface NotificationSubscription {
  /** True while messages are known to arrive (false while a lost listening connection is reopened). */
  readonly live: boolean;
  close(): Promise<void>;
}

export type Subscribe = (channel: string, handlers: NotificationHandlers) => Promise<NotificationSubscription>;

/** LISTEN of the database behind a kysely instance made by this module (see notificationsOf). */
const subscribers = new WeakMap<Kysely<DB>, Subscribe>();

/**
 * How to LISTEN on the database of `db`: a dedicated connection on PostgreSQL (the pool's
 * connections come and go), PGlite's own listen in the process. Undefined for a kysely instance
 * this module did not open.
 */
export function notificationsOf(db: Kysely<DB>): Subscribe | undefined {
  return subscribers.get(db);
}

/**
 * Plain SQL text with positional parameters on the database behind a kysely instance, for a
 * library that brings its own SQL (the job queue pg-boss: its `db.executeSql` adapter). A text
 * without parameters may hold several statements (pg-boss creates and migrates its schema so).
 * On PostgreSQL it runs on the portal's pool; on PGlite it takes the one connection like every
 * other query (pglite-dialect.ts), so it never runs inside a request's transaction.
 */
export type RawSql = (text: string, values?: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

const rawExecutors = new WeakMap<Kysely<DB>, RawSql>();

/** The PGlite under a kysely instance made by this module (a backup copies its data folder). */
const embeddedClients = new WeakMap<Kysely<DB>, PGlite>();

/** The embedded PGlite behind `db`; undefined on PostgreSQL or for a kysely instance this module did not open. */
export function pgliteOf(db: Kysely<DB>): PGlite | undefined {
  return embeddedClients.get(db);
}

const pools = new WeakMap<Kysely<DB>, pg.Pool>();

/**
 * The pg pool behind `db` on PostgreSQL (undefined on PGlite): for work that needs one connection
 * of its own for a while and speaks the wire protocol directly (an import's COPY into its staging table).
 */
export function pgPoolOf(db: Kysely<DB>): pg.Pool | undefined {
  return pools.get(db);
}

/** The RawSql of a kysely instance made by this module; undefined for any other. */
export function rawSqlOf(db: Kysely<DB>): RawSql | undefined {
  return rawExecutors.get(db);
}

/** A write this process is about to run: its table and, for an UPDATE, the columns it sets. */
export interface LocalWrite {
  kind: 'insert' | 'update' | 'delete';
  table: string;
  columns: string[];
}

/** Who is told of this process's writes, per kysely instance (see observeWrites). */
const writeObservers = new WeakMap<Kysely<DB>, Set<(write: LocalWrite) => void>>();

/**
 * Calls `observer` with every INSERT, UPDATE and DELETE built with kysely's query builder on `db`
 * or a transaction of it, as it is compiled (before it runs). A cache of this process uses it to
 * forget what its own next request would otherwise read stale; writes of other processes, and
 * raw SQL, reach it through the database's notifications instead. Returns the un-registration.
 */
export function observeWrites(db: Kysely<DB>, observer: (write: LocalWrite) => void): () => void {
  const set = writeObservers.get(db);
  if (!set) return () => undefined;
  set.add(observer);
  return () => set.delete(observer);
}

/** The kysely plugin behind observeWrites (a new instance per database). */
function writeWatcher(observers: Set<(write: LocalWrite) => void>): KyselyPlugin {
  const name = (n: OperationNode | undefined): string => (n && AliasNode.is(n) ? name(n.node) : n && TableNode.is(n) ? n.table.identifier.name : '');
  return {
    transformQuery({ node }) {
      if (observers.size === 0) return node;
      const writes: LocalWrite[] = [];
      if (InsertQueryNode.is(node)) writes.push({ kind: 'insert', table: name(node.into), columns: [] });
      else if (UpdateQueryNode.is(node)) writes.push({ kind: 'update', table: name(node.table), columns: (node.updates ?? []).map((u) => (ColumnNode.is(u.column) ? u.column.column.name : '')) });
      else if (DeleteQueryNode.is(node)) for (const from of node.from?.froms ?? []) writes.push({ kind: 'delete', table: name(from), columns: [] });
      for (const write of writes) for (const observer of observers) observer(write);
      return node;
    },
    async transformResult({ result }) {
      return result;
    },
  };
}

/** A query's time, as kysely measured it, and whether it failed. */
export type QueryObserver = (durationMs: number, failed: boolean) => void;

/** Who is told of each query's time, per kysely instance (see observeQueries). */
const queryObservers = new WeakMap<Kysely<DB>, Set<QueryObserver>>();

/**
 * Calls `observer` with the time of every query run through kysely on `db` or a transaction of it
 * (the metrics' query-time histogram, server/metrics/). Raw SQL of the job queue on PostgreSQL
 * goes to the pool directly and is not seen. Returns the un-registration.
 */
export function observeQueries(db: Kysely<DB>, observer: QueryObserver): () => void {
  const set = queryObservers.get(db);
  if (!set) return () => undefined;
  set.add(observer);
  return () => set.delete(observer);
}

/**
 * kysely's log, as a function that also tells the query observers. A caller's own log (the bench
 * records its SQL) is kept: a list of levels is kysely's default logger, which it then gets instead.
 */
function logWithObservers(log: LogConfig | undefined, observers: Set<QueryObserver>): LogConfig {
  if (Array.isArray(log)) return log;
  const own = log as ((event: LogEvent) => void | Promise<void>) | undefined;
  return (event) => {
    for (const observer of observers) observer(event.queryDurationMillis, event.level === 'error');
    return own?.(event);
  };
}

/** A kysely instance over a dialect, with the write watcher (observeWrites) and the query observers in place. */
function kyselyWithWatcher(dialect: ConstructorParameters<typeof Kysely<DB>>[0]['dialect'], log: LogConfig | undefined): Kysely<DB> {
  const observers = new Set<(write: LocalWrite) => void>();
  const queries = new Set<QueryObserver>();
  const db = new Kysely<DB>({ dialect, log: logWithObservers(log, queries), plugins: [writeWatcher(observers)] });
  writeObservers.set(db, observers);
  queryObservers.set(db, queries);
  return db;
}

/**
 * The connections of a database right now: in use, idle, callers waiting for one, and the most
 * there may be. PostgreSQL: the pg pool's own counts. PGlite: its one connection, held by a query
 * or a transaction or not, and the callers queued for it (pglite-dialect.ts).
 */
export interface PoolStats {
  inUse: number;
  idle: number;
  waiting: number;
  max: number;
}

const poolStatsReaders = new WeakMap<Kysely<DB>, () => PoolStats>();

/** The PoolStats of a kysely instance made by this module; undefined for any other. */
export function poolStatsOf(db: Kysely<DB>): PoolStats | undefined {
  return poolStatsReaders.get(db)?.();
}

export interface DatabaseHandle {
  db: Kysely<DB>;
  kind: DatabaseKind;
  close(): Promise<void>;
}

const IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/;
const TIME_ZONE = /^[A-Za-z0-9_+\-/]+$/;

/** Schema names are interpolated into SQL and connection options, so only plain identifiers. */
export function assertSchemaName(schema: string): void {
  if (!IDENTIFIER.test(schema)) throw new Error(`Invalid schema name "${schema}": use [a-z_][a-z0-9_]*`);
}

export async function openDatabase(opts: OpenDatabaseOptions = {}): Promise<DatabaseHandle> {
  const timeZone = opts.timeZone ?? DEFAULT_TIME_ZONE;
  if (!TIME_ZONE.test(timeZone)) throw new Error(`Invalid time zone "${timeZone}"`);
  if (opts.schema !== undefined) assertSchemaName(opts.schema);
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, opts.schema, timeZone, opts.maxConnections ?? 10, opts.log, { ...UNBOUNDED_POOL, ...opts.limits }, opts.applicationName ?? 'fleet-portal')
    : openPGlite(opts.dataDir, opts.schema, timeZone, opts.log);
}

async function openPostgres(
  url: string, schema: string | undefined, timeZone: string, max: number, log: LogConfig | undefined, limits: PoolLimits, applicationName: string,
): Promise<DatabaseHandle> {
  if (schema) {
    // Created on a separate connection before the pool starts: the pool's connections already
    // carry the search_path. CREATE SCHEMA IF NOT EXISTS is not safe to race: of processes starting
    // together on a new schema, those that waited for the first one's insert fail on the catalog's
    // unique index once it commits — the schema is there then, which is all they need.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`create schema if not exists "${schema}"`).catch((error: { code?: string }) => {
        if (error.code !== '23505' && error.code !== '42P06') throw error;
      });
    } finally {
      await client.end();
    }
  }
  // Startup options apply to every pooled connection, including ones opened later. JIT is off:
  // the portal's queries are short index reads, and compiling one (triggered by the planner's cost
  // estimate of a deep OFFSET or a count) took longer than running it, hundreds of milliseconds.
  const options = [`-c TimeZone=${timeZone}`, '-c jit=off', ...(schema ? [`-c search_path=${schema}`] : [])].join(' ');
  const pool = new BoundedPool({
    connectionString: url,
    options,
    max,
    min: Math.min(limits.minConnections, max),
    types: pgTypes,
    application_name: applicationName,
    connectionTimeoutMillis: limits.connectTimeoutMs,
    idleTimeoutMillis: limits.idleTimeoutMs,
    ...(limits.statementTimeoutMs ? { statement_timeout: limits.statementTimeoutMs } : {}),
    ...(limits.idleInTransactionTimeoutMs ? { idle_in_transaction_session_timeout: limits.idleInTransactionTimeoutMs } : {}),
  }, limits.maxQueue);
  // A connection lost while idle in the pool, or while a request uses it (a database restart
  // sends FATAL 57P01 to every backend), must not crash the process: without a listener Node
  // treats the client's 'error' event as unhandled and exits. The request using the connection
  // gets the error from its query (answered 503); the pool drops the broken client and opens a
  // new one on the next checkout.
  pool.on('error', (err) => console.error('[db] idle PostgreSQL connection lost:', err.message));
  pool.on('connect', (client) => {
    client.on('error', (err) => console.error('[db] PostgreSQL connection lost:', err.message));
  });
  const db = kyselyWithWatcher(new PostgresDialect({ pool }), log);
  pools.set(db, pool);
  poolStatsReaders.set(db, () => ({
    inUse: pool.totalCount - pool.idleCount, idle: pool.idleCount, waiting: pool.waitingCount, max,
  }));
  subscribers.set(db, postgresSubscriber({ connectionString: url, options, application_name: `${applicationName}-listen` }));
  rawExecutors.set(db, async (text, values) => {
    const result = await pool.query(text, values as unknown[] | undefined);
    // several statements answer one result each: their rows together, in order (pg-boss 12 looks for
    // its advisory lock's row and a maintenance batch's cursor among the statements of one script)
    return Array.isArray(result) ? { rows: result.flatMap((r) => r.rows ?? []) } : result;
  });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

/** Reconnection delays of a lost listening connection: doubling from the first to the last. */
const LISTEN_RETRY_MS = { first: 100, last: 2_000 };

/**
 * LISTEN on a connection of its own, outside the pool, reopened after it is lost (a database
 * restart ends it like every other backend): each reconnection is reported as a gap, since what
 * was notified in between is lost, and `live` is false until the LISTEN is in place again.
 */
function postgresSubscriber(config: pg.ClientConfig): Subscribe {
  return async (channel, handlers) => {
    let client: pg.Client | null = null;
    let closed = false;
    let retryMs = LISTEN_RETRY_MS.first;
    let timer: NodeJS.Timeout | undefined;
    const lost = (c: pg.Client, err?: Error) => {
      if (client !== c) return;
      if (err) console.error('[db] listening PostgreSQL connection lost:', err.message);
      client = null;
      c.end().catch(() => undefined);
      handlers.gap();
      retry();
    };
    const retry = () => {
      if (closed) return;
      timer = setTimeout(() => void open(), retryMs);
      timer.unref();
      retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MS.last);
    };
    const open = async (): Promise<boolean> => {
      const c = new pg.Client(config);
      c.on('error', (err) => lost(c, err));
      c.on('end', () => lost(c));
      c.on('notification', (m) => {
        if (m.channel === channel) handlers.message(m.payload ?? '');
      });
      try {
        await c.connect();
        await c.query(`listen "${channel}"`);
      } catch {
        c.end().catch(() => undefined);
        retry();
        return false;
      }
      if (closed) {
        await c.end().catch(() => undefined);
        return false;
      }
      client = c;
      retryMs = LISTEN_RETRY_MS.first;
      handlers.gap(); // whatever was notified before this LISTEN was not heard
      return true;
    };
    if (!IDENTIFIER.test(channel)) throw new Error(`Invalid channel name "${channel}"`);
    await open();
    return {
      get live() {
        return client !== null;
      },
      async close() {
        closed = true;
        clearTimeout(timer);
        const c = client;
        client = null;
        await c?.end().catch(() => undefined);
      },
    };
  };
}

/** pg's callback of a checkout (the error alone when it failed). */
type ConnectCallback = (error: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void;

/** pg's Pool with a bounded waiting line: past maxQueue waiters a checkout fails at once. */
class BoundedPool extends pg.Pool {
  constructor(config: pg.PoolConfig, private readonly maxQueue: number) {
    super(config);
  }

  override connect(): Promise<pg.PoolClient>;
  override connect(callback: ConnectCallback): void;
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (this.maxQueue > 0 && this.waitingCount >= this.maxQueue) {
      const error = new PoolQueueFullError(this.waitingCount);
      if (callback) return void process.nextTick(() => callback(error));
      return Promise.reject(error);
    }
    return callback ? super.connect(callback) : super.connect();
  }
}

/**
 * Runs fn on one connection without a statement time-out (migrations and seeding may create
 * indexes on large tables); the connection returns to the pool with the pool's own limit.
 */
export async function withoutStatementTimeout<T>(handle: DatabaseHandle, fn: (db: Kysely<DB>) => Promise<T>): Promise<T> {
  if (handle.kind !== 'postgres') return fn(handle.db);
  return handle.db.connection().execute(async (db) => {
    await sql`set statement_timeout = 0`.execute(db);
    try {
      return await fn(db);
    } finally {
      await sql`reset statement_timeout`.execute(db).catch(() => undefined);
    }
  });
}

async function openPGlite(dataDir: string | undefined, schema: string | undefined, timeZone: string, log?: LogConfig): Promise<DatabaseHandle> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.resolve(dataDir);
    await mkdir(dir, { recursive: true });
  }
  const client = await PGlite.create({ ...(await pgliteCode()), ...(dir ? { dataDir: dir } : {}), parsers: pgliteParsers });
  return wrapPGlite(client, schema, timeZone, log);
}

/**
 * Kysely over an already created PGlite (tests use it to start from a pre-migrated snapshot).
 * PGlite is one session, so SET applies to everything that follows.
 */
export async function wrapPGlite(client: PGlite, schema?: string, timeZone = DEFAULT_TIME_ZONE, log?: LogConfig): Promise<DatabaseHandle> {
  if (!TIME_ZONE.test(timeZone)) throw new Error(`Invalid time zone "${timeZone}"`);
  await client.exec(`set TimeZone = '${timeZone}'`);
  if (schema) {
    assertSchemaName(schema);
    await client.exec(`create schema if not exists "${schema}"; set search_path = "${schema}"`);
  }
  const dialect = new PGliteDialect(client);
  const db = kyselyWithWatcher(dialect, log);
  poolStatsReaders.set(db, () => {
    const { held, waiting } = dialect.connectionState();
    return { inUse: held ? 1 : 0, idle: held ? 0 : 1, waiting, max: 1 };
  });
  rawExecutors.set(db, (text, values) => db.connection().execute(async () => {
    // the extended protocol (query) takes one statement; a script without parameters goes as one
    if (values && values.length) return client.query(text, values);
    const results = await client.exec(text);
    // every statement's rows, in order, as on PostgreSQL above
    return { rows: results.flatMap((r) => r.rows) };
  }));
  // One process, one session: a notification is delivered while the committing query's answer is
  // read, before that query's promise resolves, so nothing is ever missed and there is no gap.
  subscribers.set(db, async (channel, handlers) => {
    const unlisten = await client.listen(channel, handlers.message);
    return { live: true, close: () => unlisten() };
  });
  embeddedClients.set(db, client);
  return { db, kind: 'pglite', close: () => db.destroy() };
}

/**
 * Drops a schema and everything in it (test clean-up on a shared PostgreSQL database).
 * Refuses `public` and system schemas so that a wrong argument cannot wipe real data.
 */
export async function dropSchema(opts: { databaseUrl: string; schema: string }): Promise<void> {
  assertSchemaName(opts.schema);
  if (opts.schema === 'public' || opts.schema.startsWith('pg_') || opts.schema === 'information_schema') {
    throw new Error(`Refusing to drop schema "${opts.schema}"`);
  }
  const client = new pg.Client({ connectionString: opts.databaseUrl });
  await client.connect();
  try {
    await client.query(`drop schema if exists "${opts.schema}" cascade`);
  } finally {
    await client.end();
  }
}
