/**
 * The PostgreSQL settings a bench's figures depend on, as the database it ran on has them: how much of
 * the data is read from PostgreSQL's own memory (shared_buffers, and wal_buffers sized from it), how
 * often an import's write-ahead log forces a checkpoint (max_wal_size, checkpoint_timeout), what a sort or
 * hash may hold (work_mem). Printed beside the figures, so a figure is read against the database that
 * gave it: the bench's 300,000 fuel transactions imported in 36.7 s with the 128 MB shared_buffers of
 * Debian's configuration and in 29.6 s with 4 GB (docs/benchmarks.md, 7 December 2026).
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/db/types.generated.ts';

const SETTINGS = ['shared_buffers', 'wal_buffers', 'max_wal_size', 'checkpoint_timeout', 'work_mem', 'effective_cache_size', 'jit'];

/** "PostgreSQL 15.19: shared_buffers 128MB, wal_buffers 4MB, …" as the server reports them now. */
export async function databaseSettings(db: Kysely<DB>): Promise<string> {
  const { rows } = await sql<{ name: string; value: string }>`
    select name, current_setting(name) as value from pg_settings where name = any(${SETTINGS}) order by array_position(${SETTINGS}::text[], name)`.execute(db);
  const version = (await sql<{ v: string }>`select current_setting('server_version') as v`.execute(db)).rows[0].v;
  return `PostgreSQL ${version}: ${rows.map((r) => `${r.name} ${r.value}`).join(', ')}`;
}
