/**
 * PostgreSQL's backup and restore: pg_dump and pg_restore in their custom format, of the portal's
 * schema and its job queue's schema (server/db/job-schema.ts), wrapped so that the file carries
 * the same manifest as the embedded database's and a restore makes the same checks.
 *
 * The manifest's migration is read in the very snapshot pg_dump copies (pg_export_snapshot), so
 * the two cannot disagree even when a new version migrates the database at that moment.
 * The password of DATABASE_URL goes to the tools in their environment (PGPASSWORD), never on their
 * command line, where any user of the machine could read it.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { assertSchemaName } from '../db/connect.ts';
import { jobQueueSchema } from '../db/job-schema.ts';
import { extractEntry, type ArchiveEntry } from './archive.ts';
import { BackupError, type Manifest } from './manifest.ts';

export interface PostgresTarget {
  databaseUrl: string;
  /** The portal's schema (DATABASE_SCHEMA), `public` by default. */
  schema: string;
}

/** DATABASE_URL without its password, for messages and the tools' command line, and the password apart. */
export function withoutPassword(databaseUrl: string): { url: string; password?: string } {
  const url = new URL(databaseUrl);
  const password = url.password ? decodeURIComponent(url.password) : undefined;
  url.password = '';
  return { url: url.toString(), password };
}

/** Runs pg_dump or pg_restore; its standard output is answered, a failure is a BackupError with its words. */
function run(tool: 'pg_dump' | 'pg_restore', args: string[], password: string | undefined): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool, args, { env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    child.once('error', (e: NodeJS.ErrnoException) => reject(e.code === 'ENOENT'
      ? new BackupError(`${tool} was not found on PATH: install PostgreSQL's client programs (Debian: postgresql-client), of the server's major version or newer.`)
      : e));
    child.once('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else reject(new BackupError(`${tool} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`));
    });
  });
}

async function withClient<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function migrationIn(client: pg.Client, schema: string): Promise<string | undefined> {
  const { rows } = await client.query(`select to_regclass($1)::text as t`, [`"${schema}".kysely_migration`]);
  if (!rows[0].t) return undefined;
  return (await client.query(`select name from "${schema}".kysely_migration order by name desc limit 1`)).rows[0]?.name;
}

/** Dumps the portal's two schemas into `to` (custom format); answers the manifest's facts. */
export async function dumpPostgres(target: PostgresTarget, to: string): Promise<Pick<Manifest, 'migration' | 'schema' | 'jobQueueSchema' | 'serverVersion'>> {
  assertSchemaName(target.schema);
  const queue = jobQueueSchema(target.schema);
  const { url, password } = withoutPassword(target.databaseUrl);
  return withClient(target.databaseUrl, async (client) => {
    await client.query('begin isolation level repeatable read read only');
    try {
      const migration = await migrationIn(client, target.schema);
      if (!migration) {
        throw new BackupError(`Schema "${target.schema}" of ${url} holds no portal tables (no schema migration was ever applied): nothing to back up. Is DATABASE_SCHEMA right?`);
      }
      const serverVersion = (await client.query(`select current_setting('server_version_num') as v`)).rows[0].v as string;
      const snapshot = (await client.query('select pg_export_snapshot() as s')).rows[0].s as string;
      // the transaction stays open until pg_dump has taken the snapshot over (it ends with the dump)
      await run('pg_dump', [
        '--format=custom', `--snapshot=${snapshot}`, `--schema=${target.schema}`, `--schema=${queue}`, `--file=${to}`, `--dbname=${url}`,
      ], password);
      return { migration, schema: target.schema, jobQueueSchema: queue, serverVersion };
    } finally {
      await client.query('rollback').catch(() => undefined);
    }
  });
}

/**
 * Restores a dump into DATABASE_URL's database, which must not hold the portal's schemas with
 * anything in them: a restore never mixes with, or overwrites, a portal that is there (it could
 * be running). One transaction: a failure leaves the database as it was.
 */
export async function restorePostgres(file: string, payload: ArchiveEntry, manifest: Manifest, target: PostgresTarget): Promise<void> {
  assertSchemaName(target.schema);
  if (manifest.schema !== target.schema) {
    throw new BackupError(
      `${file} holds the portal's schema "${manifest.schema}", and DATABASE_SCHEMA is "${target.schema}": `
      + `set DATABASE_SCHEMA=${manifest.schema} (the portal then runs in that schema).`,
    );
  }
  const schemas = [manifest.schema!, manifest.jobQueueSchema ?? jobQueueSchema(manifest.schema!)];
  const { url, password } = withoutPassword(target.databaseUrl);
  const existing = await withClient(target.databaseUrl, async (client) => {
    const { rows } = await client.query(
      `select n.nspname as name, count(c.oid)::int as relations
         from pg_namespace n left join pg_class c on c.relnamespace = n.oid and c.relkind in ('r', 'p', 'v', 'm', 'S', 'f')
        where n.nspname = any($1) group by n.nspname`, [schemas],
    );
    for (const row of rows as { name: string; relations: number }[]) {
      if (row.relations > 0) {
        throw new BackupError(
          `Schema "${row.name}" of ${url} is not empty (${row.relations} tables, views or sequences): a restore goes into an empty database. `
          + 'Create one (createdb) and point DATABASE_URL at it, or drop the schema first if its contents are not needed.',
        );
      }
    }
    return new Set((rows as { name: string }[]).map((r) => r.name));
  });
  const work = await mkdtemp(join(tmpdir(), 'portal-restore-'));
  try {
    const dump = join(work, 'postgres.dump');
    await extractEntry(file, payload, dump);
    // A schema that exists already (empty; `public` always does) is not created again: leave
    // its CREATE SCHEMA and its comment out of the list of what pg_restore restores.
    const list = (await run('pg_restore', ['--list', dump], password)).split('\n').map((line) => {
      const entry = /^\d+; \d+ \d+ (?:SCHEMA - |COMMENT - SCHEMA )(\S+) /.exec(line);
      return entry && existing.has(entry[1]) ? `;${line}` : line;
    });
    await writeFile(join(work, 'list'), list.join('\n'));
    await run('pg_restore', [
      '--no-owner', '--no-acl', '--exit-on-error', '--single-transaction', `--use-list=${join(work, 'list')}`, `--dbname=${url}`, dump,
    ], password);
  } finally {
    await rm(work, { recursive: true, force: true });
  }
  const restored = await withClient(target.databaseUrl, (client) => migrationIn(client, manifest.schema!));
  if (restored !== manifest.migration) {
    throw new BackupError(`The restored database is at migration ${restored ?? '(none)'}, but the backup's manifest says ${manifest.migration}: the backup is damaged.`);
  }
}
