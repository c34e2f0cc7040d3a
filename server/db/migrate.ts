/**
 * Brings a database to the latest schema. Kysely records applied migrations in the table
 * `kysely_migration` (in the current search_path, so each test schema has its own) and holds a
 * lock while migrating, so several app processes starting at once migrate only once.
 */
import { sql, type Kysely } from 'kysely';
import { Migrator, NO_MIGRATIONS, type Migration, type MigrationResult } from 'kysely/migration';
import { migrations as allMigrations } from '../migrations/index.ts';
import type { DB } from './types.generated.ts';

/**
 * The migrator keeps its bookkeeping tables in the connection's current schema, named explicitly:
 * without it kysely looks for "kysely_migration_lock" in any schema, so on a database shared by
 * several schemas (tests, DATABASE_SCHEMA) it can find another schema's table and skip creating its own.
 */
async function migrator(db: Kysely<DB>, migrations: Record<string, Migration>): Promise<Migrator> {
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  return new Migrator({ db, migrationTableSchema: rows[0].schema, provider: { getMigrations: async () => migrations } });
}

/**
 * Applies every pending migration. On failure it throws an Error that names the failed
 * migration and the database's reason (e.g. "Database migration failed at 002_views: relation
 * "car" does not exist"); that migration's transaction is rolled back, earlier ones stay applied.
 */
export async function migrateToLatest(
  db: Kysely<DB>, migrations: Record<string, Migration> = allMigrations,
): Promise<MigrationResult[]> {
  const { error, results = [] } = await (await migrator(db, migrations)).migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === 'Error')?.migrationName ?? '(before any migration ran)';
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Database migration failed at ${failed}: ${reason}`, { cause: error });
  }
  return results;
}

/** Names of known migrations and when each was applied (undefined = pending). */
export async function migrationStatus(db: Kysely<DB>): Promise<{ name: string; executedAt?: Date }[]> {
  const infos = await (await migrator(db, allMigrations)).getMigrations();
  return infos.map((m) => ({ name: m.name, executedAt: m.executedAt }));
}

/** Reverts every migration (tests of the down steps; never used by the application). */
export async function migrateDownAll(db: Kysely<DB>): Promise<void> {
  const { error } = await (await migrator(db, allMigrations)).migrateTo(NO_MIGRATIONS);
  if (error) throw new Error(`Reverting migrations failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
}
