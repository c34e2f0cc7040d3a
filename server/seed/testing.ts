/**
 * Throwaway databases for tests, on both backends the product supports:
 *
 * - DATABASE_URL set: a database of its own on that PostgreSQL server, copied from a migrated (and
 *   maybe seeded) template database, dropped again by close(); unmigrated, a fresh schema with a
 *   unique name in DATABASE_URL's database;
 * - otherwise: an in-memory PGlite.
 *
 * Migrating and seeding costs several seconds, so it happens once per version of the sources: on
 * PGlite the result is cached as a gzip snapshot under `.tmp/pglite-snapshots/`, on PostgreSQL as a
 * template database (portal_template_…), both keyed by a hash of the migration (and seed, with the
 * variants' demo.json) sources; later tests start from it in about a second. Editing a migration
 * or the seed changes the key, so a stale snapshot or template is never used.
 *
 *   const t = await openTestDatabase({ seed: true });
 *   afterAll(() => t.close());
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { MemoryFS, PGlite } from '@electric-sql/pglite';
import { parseTar } from 'nanotar';
import { pgliteCode } from '../db/pglite-code.ts';
import { sql } from 'kysely';
import pg from 'pg';
import { dropSchema, openDatabase, wrapPGlite, type DatabaseHandle } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { pgliteParsers } from '../db/value-types.ts';

export interface TestDatabase extends DatabaseHandle {
  /** The throwaway schema on PostgreSQL; undefined on PGlite. */
  schema?: string;
  /** On PostgreSQL, the address of the database the schema is in (a throwaway copy for a migrated one). */
  databaseUrl?: string;
}

export interface TestDatabaseOptions {
  /** Run the migrations (default true). */
  migrate?: boolean;
  /** Also load the default demo seed (implies migrate). */
  seed?: boolean;
  /** Force a backend; default: postgres when DATABASE_URL is set, else pglite. */
  kind?: 'postgres' | 'pglite';
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SNAPSHOTS = `${ROOT}.tmp/pglite-snapshots/`;

/**
 * The backend a test of both databases covers in this run, as every other test's: PGlite by
 * default, PostgreSQL when DATABASE_URL is set. CI runs both passes (.ci/run), so each such test
 * runs once on each backend. The PostgreSQL pass used to repeat the PGlite half the default pass
 * had run: 16 files' PGlite databases again, and in one CI the V8 abort of many PGlite instances
 * in one worker (nodejs/node#64500, pglite-code.ts) ended that pass's worker in a migration test.
 */
export const testBackends: ('pglite' | 'postgres')[] = process.env.DATABASE_URL ? ['postgres'] : ['pglite'];

/** A schema name unique across parallel test workers and runs. */
export function uniqueSchemaName(prefix = 't'): string {
  return `${prefix}_${Date.now().toString(36)}_${randomBytes(4).toString('hex')}`;
}

export async function openTestDatabase(opts: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const seed = opts.seed ?? false;
  const migrate = seed || (opts.migrate ?? true);
  const kind = opts.kind ?? (process.env.DATABASE_URL ? 'postgres' : 'pglite');
  if (kind === 'postgres') {
    const databaseUrl = process.env.DATABASE_URL;
    if (!databaseUrl) throw new Error('openTestDatabase: DATABASE_URL is not set');
    return migrate ? copyOfTemplate(databaseUrl, seed) : emptySchema(databaseUrl);
  }
  if (!migrate) return wrapPGlite(await PGlite.create({ ...(await pgliteCode()), parsers: pgliteParsers }));
  return wrapPGlite(await PGlite.create({ ...(await pgliteCode()), fs: new SnapshotFS(await snapshotFiles(seed)), parsers: pgliteParsers }));
}

/** A snapshot's files, each a path under the data directory (a directory's ends with '/') and its bytes. */
type SnapshotFiles = ReadonlyArray<{ path: string; data?: Uint8Array }>;

const parsedSnapshots = new Map<string, Promise<SnapshotFiles>>();

/** The snapshot's tarball read into its files once per process: every database after the first skips the tar. */
function snapshotFiles(seed: boolean): Promise<SnapshotFiles> {
  const key = String(seed);
  let pending = parsedSnapshots.get(key);
  if (!pending) {
    pending = pgliteSnapshot(seed).then((tarball) => parseTar(tarball).map((entry) => ({ path: entry.type === 'directory' ? `${entry.name.replace(/\/$/, '')}/` : entry.name, data: entry.data })));
    parsedSnapshots.set(key, pending);
    pending.catch(() => parsedSnapshots.delete(key));
  }
  return pending;
}

/**
 * An in-memory file system that starts with a snapshot's files, written straight into it before
 * PostgreSQL starts (PGlite then finds a database and resumes it). PGlite's own `loadDataDir`
 * copies the 68 MB tarball four times on every open (into a Blob, out of it in chunks, through the
 * tar reader, into the file system) and parses it again: two thirds of a test database's start,
 * measured beside this in one process (3.1–3.5 s of CPU against 1.3 s, a loaded machine).
 * The file system copies each file as it is written (MEMFS keeps a slice), so the parsed
 * snapshot shared by every database of the process is never changed by one of them.
 */
class SnapshotFS extends MemoryFS {
  constructor(private readonly files: SnapshotFiles) {
    super();
  }

  override async initialSyncFs(): Promise<void> {
    const pg = this.pg;
    if (!pg) throw new Error('SnapshotFS: the file system was not initialised by PGlite');
    const { FS } = pg.Module;
    const root = String(pg.ENV.PGDATA);
    FS.mkdirTree(root);
    for (const file of this.files) {
      // the tarball lists a directory before its files
      if (file.path.endsWith('/')) FS.mkdirTree(`${root}/${file.path.slice(0, -1)}`);
      else FS.writeFile(`${root}/${file.path}`, file.data ?? new Uint8Array(0));
    }
  }
}

/** A fresh schema of its own in DATABASE_URL's database, nothing in it: for tests of migrations. */
async function emptySchema(databaseUrl: string): Promise<TestDatabase> {
  const schema = uniqueSchemaName();
  const handle = await openDatabase({ databaseUrl, schema, maxConnections: 4 });
  return {
    ...handle,
    schema,
    databaseUrl,
    close: async () => {
      await handle.close();
      await dropSchema({ databaseUrl, schema });
    },
  };
}

/** The schema the template databases hold the portal's tables in (each copy is a database of its own). */
const TEMPLATE_SCHEMA = 'portal';

/**
 * A migrated (and maybe seeded) PostgreSQL database of its own: a copy of a template database on
 * the same server (CREATE DATABASE … TEMPLATE, a file copy), dropped by close(). Migrating and
 * seeding a schema took 5–7 s on CI's two cores, for every test app (some sixty a run); the
 * template is built once per source version and day, like the PGlite snapshots, and a copy takes
 * a fraction of a second. Everything a test does happens in its copy: its job queue's schema, its
 * LISTEN/NOTIFY channels and advisory locks (both are per database) included.
 */
async function copyOfTemplate(databaseUrl: string, seed: boolean): Promise<TestDatabase> {
  const name = uniqueSchemaName(TEST_DATABASE_PREFIX);
  const copy = async () => onServer(databaseUrl, async (client) => client.query(`create database "${name}" template "${await postgresTemplate(databaseUrl, seed)}"`));
  await copy().catch((err) => {
    // 3D000: the template is gone: a run of other sources on the same server replaced it; build it again
    if ((err as { code?: string }).code !== '3D000') throw err;
    templates.delete(`${databaseUrl} ${seed}`);
    return copy();
  });
  const copyUrl = databaseUrlFor(databaseUrl, name);
  try {
    const handle = await openDatabase({ databaseUrl: copyUrl, schema: TEMPLATE_SCHEMA, maxConnections: 4 });
    return {
      ...handle,
      schema: TEMPLATE_SCHEMA,
      databaseUrl: copyUrl,
      close: async () => {
        await handle.close();
        await dropTestDatabase(databaseUrl, name);
      },
    };
  } catch (err) {
    await dropTestDatabase(databaseUrl, name);
    throw err;
  }
}

const TEST_DATABASE_PREFIX = 'portal_test';
const TEMPLATE_PREFIX = 'portal_template';

/** DATABASE_URL with another database name (a test copy's address). */
export function databaseUrlFor(databaseUrl: string, database: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/** Runs statements on a connection of its own to DATABASE_URL's database (CREATE/DROP DATABASE cannot run in the copy itself). */
async function onServer<T>(databaseUrl: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function dropTestDatabase(databaseUrl: string, name: string) {
  // FORCE: a connection the test left open (a second app it started) must not keep the copy alive
  await onServer(databaseUrl, (client) => client.query(`drop database if exists "${name}" with (force)`));
}

const templates = new Map<string, Promise<string>>();

/**
 * The name of the template database of today's sources, built if no test process built it yet.
 * Parallel test processes agree through an advisory lock on DATABASE_URL's database: the first
 * builds the template under a temporary name and renames it when it is complete, so a copy is
 * never taken of a half-built one. Templates of other sources or days are dropped.
 */
function postgresTemplate(databaseUrl: string, seed: boolean): Promise<string> {
  const key = `${databaseUrl} ${seed}`;
  let pending = templates.get(key);
  if (!pending) {
    pending = (async () => {
      // Seeded data is anchored to today's date, so a seeded template is only valid on its day.
      const day = seed ? `_${new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw' }).format(new Date()).replaceAll('-', '')}` : '';
      const name = `${TEMPLATE_PREFIX}_${seed ? 'seeded' : 'migrated'}_${await sourceHash(seed)}${day}`;
      return onServer(databaseUrl, async (client) => {
        await client.query(`select pg_advisory_lock(hashtext($1))`, [TEMPLATE_PREFIX]);
        try {
          const { rows } = await client.query(`select datname from pg_database where datname like $1`, [`${TEMPLATE_PREFIX}_${seed ? 'seeded' : 'migrated'}_%`]);
          const names = rows.map((r: { datname: string }) => r.datname);
          if (!names.includes(name)) await buildTemplate(client, databaseUrl, name, seed);
          for (const old of names.filter((n: string) => n !== name && !n.endsWith('_building'))) {
            // another checkout's run may still copy it: DROP waits for its copies, and a failure only leaves it behind
            await client.query(`drop database if exists "${old}"`).catch(() => {});
          }
          await dropAbandonedCopies(client);
          return name;
        } finally {
          await client.query(`select pg_advisory_unlock(hashtext($1))`, [TEMPLATE_PREFIX]);
        }
      });
    })();
    templates.set(key, pending);
    pending.catch(() => templates.delete(key));
  }
  return pending;
}

/** Copies whose test run was killed before close() (each some 20 MB) are dropped once they are a day old. */
async function dropAbandonedCopies(client: pg.Client) {
  const { rows } = await client.query(`select datname from pg_database where starts_with(datname, $1)`, [`${TEST_DATABASE_PREFIX}_`]);
  for (const { datname } of rows as { datname: string }[]) {
    const created = parseInt(datname.slice(TEST_DATABASE_PREFIX.length + 1).split('_')[0], 36);
    if (Date.now() - created > 24 * 3600_000) await client.query(`drop database if exists "${datname}" with (force)`).catch(() => {});
  }
}

async function buildTemplate(client: pg.Client, databaseUrl: string, name: string, seed: boolean) {
  const building = `${name}_building`;
  await client.query(`drop database if exists "${building}" with (force)`);
  await client.query(`create database "${building}"`);
  const handle = await openDatabase({ databaseUrl: databaseUrlFor(databaseUrl, building), schema: TEMPLATE_SCHEMA, maxConnections: 2 });
  try {
    await migrateToLatest(handle.db);
    if (seed) await runSeed(handle);
  } finally {
    await handle.close();
  }
  // nobody connects to a template (a copy needs it without connections), autovacuum included
  await client.query(`alter database "${building}" with allow_connections false`);
  await client.query(`alter database "${building}" rename to "${name}"`);
}

async function runSeed(handle: DatabaseHandle) {
  // Imported lazily: the seed pulls in demo data that most callers never need.
  const { seedDatabase } = await import('./seed.ts');
  await seedDatabase(handle.db);
}

async function sourceHash(seed: boolean): Promise<string> {
  const hash = createHash('sha256');
  const files: string[] = [];
  for (const dir of ['server/migrations/', 'server/db/', ...(seed ? ['server/seed/', 'server/pdf/'] : [])]) {
    files.push(...(await readdir(ROOT + dir)).filter((n) => n.endsWith('.ts') && !n.endsWith('.test.ts')).sort().map((n) => dir + n));
  }
  if (seed) {
    files.push('server/auth/password.ts');
    // the seed's fuel anomalies are found by the rules (server/seed/fleet-costs.ts)
    files.push('server/anomalies/find.ts', 'screens/fuel-anomalies.json', 'schemas/reporting/reporting.json');
    // the variants' demo data is seeded too (server/seed/variant-demos.ts)
    const variants = existsSync(ROOT + 'client-variants') ? (await readdir(ROOT + 'client-variants')).sort() : [];
    files.push(...variants.map((v) => `client-variants/${v}/demo.json`).filter((f) => existsSync(ROOT + f)));
  }
  for (const file of files) hash.update(file).update(await readFile(ROOT + file));
  const pglite = JSON.parse(await readFile(ROOT + 'node_modules/@electric-sql/pglite/package.json', 'utf8')).version;
  hash.update(`pglite ${pglite}`);
  return hash.digest('hex').slice(0, 16);
}

const building = new Map<string, Promise<Buffer>>();

/**
 * Fills an empty folder with the migrated and seeded PGlite database of the snapshot, for a server
 * process of the browser journeys to open as its DATA_DIR (tests/browser/serve.ts): a second, not
 * the half minute a server takes to migrate and seed on its own.
 */
export async function seededPGliteDataDir(dataDir: string): Promise<void> {
  const snapshot = await pgliteSnapshot(true);
  const client = await PGlite.create({ ...(await pgliteCode()), dataDir, loadDataDir: new Blob([new Uint8Array(snapshot)]) });
  await client.close();
}

/**
 * A migrated (and maybe seeded) PGlite data directory as a tarball, built once: kept on disk
 * gzipped (10 MB rather than 68), held in memory unpacked, because a database opened from the
 * unpacked tarball starts in ~0.6 s instead of ~1.05 s (measured: the gunzip was a third of every
 * test database's start).
 */
async function pgliteSnapshot(seed: boolean): Promise<Buffer> {
  // Seeded data is anchored to today's date, so a seeded snapshot is only valid on its day.
  const day = seed ? `-${new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw' }).format(new Date())}` : '';
  const file = `${SNAPSHOTS}${seed ? 'seeded' : 'migrated'}-${await sourceHash(seed)}${day}.tgz`;
  let pending = building.get(file);
  if (!pending) {
    pending = readFile(file).then((gzipped) => gunzipSync(gzipped)).catch(async () => {
      const client = await PGlite.create({ ...(await pgliteCode()), parsers: pgliteParsers });
      const handle = await wrapPGlite(client);
      try {
        await migrateToLatest(handle.db);
        if (seed) await runSeed(handle);
        await sql`checkpoint`.execute(handle.db);
        const tarball = Buffer.from(await (await client.dumpDataDir('none')).arrayBuffer());
        await mkdir(SNAPSHOTS, { recursive: true });
        // Write-then-rename: parallel test workers never read a half-written file.
        const tmp = `${file}.${process.pid}.${randomBytes(3).toString('hex')}`;
        await writeFile(tmp, gzipSync(tarball));
        await rename(tmp, file);
        await removeOtherSnapshots(file);
        return tarball;
      } finally {
        await handle.close();
      }
    });
    building.set(file, pending);
  }
  return pending;
}

/** Snapshots of older sources are dead weight (5 MB each); keep only the current one per kind. */
async function removeOtherSnapshots(current: string) {
  const kind = current.slice(SNAPSHOTS.length).split('-')[0];
  for (const name of await readdir(SNAPSHOTS)) {
    if (name.startsWith(`${kind}-`) && name.endsWith('.tgz') && SNAPSHOTS + name !== current) {
      await rm(SNAPSHOTS + name, { force: true });
    }
  }
}
