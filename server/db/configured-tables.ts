/**
 * The database as the configuration sees it. A resource of schemas/resources/ names its table or
 * view (`source`) and its fields in JSON, so the SQL built from it (table blocks, counts, filters,
 * saved filters, the writes of configured fields) names tables and columns that only exist at
 * run time for the compiler. That code, and only that code, works on this view of the database;
 * everything else uses `Kysely<DB>` (the generated row types), which catches a wrong name or type.
 */
import type { ExpressionBuilder, Kysely, SelectQueryBuilder } from 'kysely';
import type { DB } from './types.generated.ts';

/** Any table or view, by the name the configuration gives it, with columns of values not known here. */
export type ConfiguredTables = Record<string, Record<string, unknown>>;

/**
 * An expression builder over the tables the configuration names: what a row scope, a filter or a
 * saved filter builds its SQL with (access/row-scope.ts, db/table-query.ts).
 */
export type ConfiguredBuilder = ExpressionBuilder<ConfiguredTables, string>;

/** A SELECT over a table the configuration names, its rows' columns not known here. */
export type ConfiguredSelect = SelectQueryBuilder<ConfiguredTables, string, Record<string, unknown>>;

/**
 * The builder of a query typed by DB, seen as the configuration's, to add a condition built from
 * the configuration's names (a row scope) to it: the one place such a query crosses over.
 */
export function configuredBuilder<D, T extends keyof D>(eb: ExpressionBuilder<D, T>): ConfiguredBuilder {
  return eb as unknown as ConfiguredBuilder;
}

/** The same database, addressed by the configuration's names. */
export function byConfiguration(db: Kysely<DB>): Kysely<ConfiguredTables> {
  return db as unknown as Kysely<ConfiguredTables>;
}

/** kysely's own bookkeeping of applied migrations (server/db/migrate.ts), which DB leaves out. */
export interface MigrationTables {
  kysely_migration: { name: string; timestamp: string };
}

export function migrationBookkeeping(db: Kysely<DB>): Kysely<MigrationTables> {
  return db as unknown as Kysely<MigrationTables>;
}
