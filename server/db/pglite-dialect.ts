/**
 * A minimal kysely Dialect for PGlite.
 *
 * Why not kysely-pglite's dialect: it hands every caller the same PGlite session without any
 * locking, so a query from request B issued while request A is inside BEGIN…COMMIT silently
 * runs inside A's transaction (and is rolled back with it), and it does not report affected
 * row counts (numUpdatedRows is always 0). PGlite is a single connection, so this driver
 * serialises connections: a transaction holds the only connection until COMMIT/ROLLBACK, exactly
 * like a pg pool of size one.
 *
 * Consequence (same as with a pool of one): inside `db.transaction().execute(trx => …)` use
 * `trx`, never `db`; a query on `db` would wait for the transaction that waits for it.
 */
import type { PGlite, Results } from '@electric-sql/pglite';
import {
  CompiledQuery,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import type { DB } from './types.generated.ts';

/**
 * FIFO lock: acquire() resolves with a release function once every earlier holder released. It
 * counts its callers, so the one connection can be reported like a pool (connect.ts PoolStats).
 */
class Lock {
  #tail: Promise<void> = Promise.resolve();
  /** Callers that asked and have not released yet: the holder, if any, and those queued behind it. */
  #pending = 0;
  #held = false;

  acquire(): Promise<() => void> {
    this.#pending++;
    let release!: () => void;
    const next = new Promise<void>((resolve) => (release = resolve));
    const done = () => {
      this.#pending--;
      this.#held = false;
      release();
    };
    const ready = this.#tail.then(() => {
      this.#held = true;
      return done;
    });
    this.#tail = this.#tail.then(() => next);
    return ready;
  }

  /** Whether a caller holds the connection, and how many wait for it. */
  get state(): { held: boolean; waiting: number } {
    return { held: this.#held, waiting: this.#pending - (this.#held ? 1 : 0) };
  }
}

const AFFECTING = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly client: PGlite) {}

  async executeQuery<R>(compiled: CompiledQuery): Promise<QueryResult<R>> {
    const result: Results<R> = await this.client.query<R>(compiled.sql, [...compiled.parameters]);
    // Mirror kysely's PostgresDriver: affected rows only for data-changing commands.
    if (result.command && AFFECTING.has(result.command)) {
      const n = BigInt(result.rowCount ?? result.affectedRows ?? 0);
      return { rows: result.rows ?? [], numAffectedRows: n, numUpdatedOrDeletedRows: n } as QueryResult<R>;
    }
    return { rows: result.rows ?? [] };
  }

  /** PGlite has no cursors over the wire; run the query once and hand the rows out in chunks. */
  async *streamQuery<R>(compiled: CompiledQuery, chunkSize = 100): AsyncIterableIterator<QueryResult<R>> {
    const { rows } = await this.executeQuery<R>(compiled);
    for (let i = 0; i < rows.length; i += chunkSize) yield { rows: rows.slice(i, i + chunkSize) };
  }
}

class PGliteDriver implements Driver {
  readonly #lock: Lock;
  readonly #releases = new WeakMap<DatabaseConnection, () => void>();
  readonly #connection: PGliteConnection;

  constructor(private readonly client: PGlite, lock: Lock) {
    this.#lock = lock;
    this.#connection = new PGliteConnection(client);
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.#lock.acquire();
    // A fresh wrapper per holder so that releases can never be mixed up.
    const conn: DatabaseConnection = {
      executeQuery: (q) => this.#connection.executeQuery(q),
      streamQuery: (q, n) => this.#connection.streamQuery(q, n),
    };
    this.#releases.set(conn, release);
    return conn;
  }

  async beginTransaction(conn: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const level = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    await conn.executeQuery(CompiledQuery.raw(`start transaction${level}`));
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('COMMIT'));
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery(CompiledQuery.raw('ROLLBACK'));
  }

  async releaseConnection(conn: DatabaseConnection): Promise<void> {
    const release = this.#releases.get(conn);
    this.#releases.delete(conn);
    release?.();
  }

  async destroy(): Promise<void> {
    if (!this.client.closed) await this.client.close();
  }
}

export class PGliteDialect implements Dialect {
  /** One lock per dialect: kysely makes its driver once, the metrics read the lock's state. */
  readonly #lock = new Lock();
  constructor(private readonly client: PGlite) {}
  createAdapter() { return new PostgresAdapter(); }
  createDriver(): Driver { return new PGliteDriver(this.client, this.#lock); }
  /** Whether the one connection is held (a query or a transaction), and how many callers wait for it. */
  connectionState(): { held: boolean; waiting: number } { return this.#lock.state; }
  createIntrospector(db: Kysely<DB>) { return new PostgresIntrospector(db); }
  createQueryCompiler() { return new PostgresQueryCompiler(); }
}
