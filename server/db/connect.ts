/**
 * Opens the application database: PostgreSQL through a pg pool when a URL is given, otherwise an
 * embedded PGlite (persisted in a folder, or in memory). Both speak the same SQL and return the
 * same JS value types (see value-types.ts), so everything above this module is backend-agnostic.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, type LogConfig } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';
import { pgliteParsers, pgTypes } from './value-types.ts';

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
  /** Kysely's query log (npm run bench records the SQL a request runs to time it directly). */
  log?: LogConfig;
}

export interface DatabaseHandle {
  db: Kysely<any>;
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
  const timeZone = opts.timeZone ?? 'Europe/Warsaw';
  if (!TIME_ZONE.test(timeZone)) throw new Error(`Invalid time zone "${timeZone}"`);
  if (opts.schema !== undefined) assertSchemaName(opts.schema);
  return opts.databaseUrl
    ? openPostgres(opts.databaseUrl, opts.schema, timeZone, opts.maxConnections ?? 10, opts.log)
    : openPGlite(opts.dataDir, opts.schema, timeZone, opts.log);
}

async function openPostgres(url: string, schema: string | undefined, timeZone: string, max: number, log?: LogConfig): Promise<DatabaseHandle> {
  if (schema) {
    // Created on a separate connection before the pool starts: the pool's connections already
    // carry the search_path, and CREATE SCHEMA IF NOT EXISTS is safe to race.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(`create schema if not exists "${schema}"`);
    } finally {
      await client.end();
    }
  }
  // Startup options apply to every pooled connection, including ones opened later. JIT is off:
  // the portal's queries are short index reads, and compiling one (triggered by the planner's cost
  // estimate of a deep OFFSET or a count) took longer than running it, hundreds of milliseconds.
  const options = [`-c TimeZone=${timeZone}`, '-c jit=off', ...(schema ? [`-c search_path=${schema}`] : [])].join(' ');
  const pool = new pg.Pool({ connectionString: url, options, max, types: pgTypes, application_name: 'fleet-portal' });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (err) => console.error('[db] idle PostgreSQL connection error:', err.message));
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool }), log });
  return { db, kind: 'postgres', close: () => db.destroy() };
}

async function openPGlite(dataDir: string | undefined, schema: string | undefined, timeZone: string, log?: LogConfig): Promise<DatabaseHandle> {
  let dir: string | undefined;
  if (dataDir) {
    dir = path.resolve(dataDir);
    await mkdir(dir, { recursive: true });
  }
  const client = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), parsers: pgliteParsers });
  return wrapPGlite(client, schema, timeZone, log);
}

/**
 * Kysely over an already created PGlite (tests use it to start from a pre-migrated snapshot).
 * PGlite is one session, so SET applies to everything that follows.
 */
export async function wrapPGlite(client: PGlite, schema?: string, timeZone = 'Europe/Warsaw', log?: LogConfig): Promise<DatabaseHandle> {
  if (!TIME_ZONE.test(timeZone)) throw new Error(`Invalid time zone "${timeZone}"`);
  await client.exec(`set TimeZone = '${timeZone}'`);
  if (schema) {
    assertSchemaName(schema);
    await client.exec(`create schema if not exists "${schema}"; set search_path = "${schema}"`);
  }
  const db = new Kysely<any>({ dialect: new PGliteDialect(client), log });
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
