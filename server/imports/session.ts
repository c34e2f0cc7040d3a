/**
 * The one connection an import run works on, from its first staged row to its commit: its
 * staging tables are temporary tables of that connection (gone with it if the process dies), its
 * advisory lock is held by it, and its final write is one transaction on it.
 *
 * Two staging writers, one engine: on PostgreSQL a connection of the pg pool, rows staged with
 * COPY (pg-copy-streams); on PGlite the one embedded connection, pinned for the run (kysely's
 * connection()), rows staged with multi-row INSERTs.
 */
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { CompiledQuery, type Kysely } from 'kysely';
import copyStreams from 'pg-copy-streams';
import { pgPoolOf } from '../db/connect.ts';
import type { DB } from '../db/types.generated.ts';

export interface ImportSession {
  kind: 'postgres' | 'pglite';
  query<R = Record<string, unknown>>(text: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number }>;
  /** Appends rows to a staging table: on PostgreSQL in COPY text format (a line each, each ended by a line break), on PGlite as values. */
  stage(table: string, columns: string[], copyText: string, values: unknown[][]): Promise<void>;
}

const BATCH_INSERT_ROWS = 500;

/** Runs `work` on a connection of its own; the connection goes back to the pool (or is dropped, broken) afterwards. */
export async function withImportSession<T>(db: Kysely<DB>, work: (session: ImportSession) => Promise<T>): Promise<T> {
  const pool = pgPoolOf(db);
  if (pool) {
    const client = await pool.connect();
    let broken = false;
    try {
      // the run's statements are long by nature (a set-based write of 100 000 rows): no statement limit on this connection
      await client.query('set statement_timeout = 0');
      const session: ImportSession = {
        kind: 'postgres',
        async query(text, values) {
          const result = await client.query(text, values as unknown[] | undefined);
          return { rows: result.rows, rowCount: result.rowCount ?? 0 };
        },
        async stage(table, columns, copyText) {
          if (!copyText) return;
          const copy = client.query(copyStreams.from(`copy ${table} (${columns.map((c) => `"${c}"`).join(', ')}) from stdin`));
          await pipeline(Readable.from([copyText]), copy);
        },
      };
      return await work(session);
    } catch (error) {
      broken = true;
      throw error;
    } finally {
      if (!broken) {
        try {
          await client.query('reset statement_timeout');
        } catch {
          broken = true;
        }
      }
      // a connection whose run failed may still hold temporary tables or a transaction: not handed on
      client.release(broken);
    }
  }
  return db.connection().execute(async (conn) => {
    const session: ImportSession = {
      kind: 'pglite',
      async query<R>(text: string, values?: unknown[]) {
        const result = await conn.executeQuery(CompiledQuery.raw(text, (values ?? []) as unknown[]));
        return { rows: result.rows as R[], rowCount: Number(result.numAffectedRows ?? result.rows.length) };
      },
      async stage(table, columns, _copyText, values) {
        for (let i = 0; i < values.length; i += BATCH_INSERT_ROWS) {
          const batch = values.slice(i, i + BATCH_INSERT_ROWS);
          const params: unknown[] = [];
          const tuples = batch.map((row) => `(${row.map((v) => { params.push(v); return `$${params.length}`; }).join(', ')})`);
          await conn.executeQuery(CompiledQuery.raw(`insert into ${table} (${columns.map((c) => `"${c}"`).join(', ')}) values ${tuples.join(', ')}`, params));
        }
      },
    };
    return work(session);
  });
}
