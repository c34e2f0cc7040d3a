/**
 * Brings a database to the latest schema. Kysely records applied migrations in the table
 * `kysely_migration` (in the current search_path, so each test schema has its own) and holds a
 * lock while migrating, so several app processes starting at once migrate only once.
 */
import { sql, type DatabaseIntrospector, type Kysely } from 'kysely';
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
  const schema = rows[0].schema;
  return new Migrator({
    db: seeingOnlySchema(db, schema), migrationTableSchema: schema, provider: { getMigrations: async () => migrations },
  });
}

/**
 * The same database handle, whose introspection (all the migrator asks of it: does its schema and
 * its two tables exist) sees only `schema`. Kysely's own introspector reads every column of every
 * schema and asks has_schema_privilege() by name, which fails with "schema … does not exist" when
 * another process drops its schema meanwhile (parallel test files on one PostgreSQL did, in CI).
 */
function seeingOnlySchema(db: Kysely<DB>, schema: string): Kysely<DB> {
  const introspection: DatabaseIntrospector = {
    getSchemas: async () => {
      const { rows } = await sql<{ name: string }>`
        select nspname as name from pg_catalog.pg_namespace where nspname = ${schema}`.execute(db);
      return rows;
    },
    getTables: async () => {
      const { rows } = await sql<{ name: string }>`
        select table_name as name from information_schema.tables where table_schema = ${schema}`.execute(db);
      return rows.map(({ name }) => ({ name, schema, isView: false, isForeign: false, columns: [] }));
    },
  };
  return new Proxy(db, {
    get(target, property) {
      if (property === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, property, target);
      // Kysely's methods use private fields, so they must run on the handle itself.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
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
