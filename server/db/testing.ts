/**
 * Throwaway databases for tests, on both backends the product supports:
 *
 * - DATABASE_URL set: a fresh schema with a unique name on that PostgreSQL database, dropped
 *   again by close();
 * - otherwise: an in-memory PGlite.
 *
 * Booting PGlite and running the migrations costs several seconds, so migrated (and optionally
 * seeded) PGlite databases are cached as gzip snapshots under `.tmp/pglite-snapshots/`, keyed by
 * a hash of the migration (and seed, with the variants' demo.json) sources; later tests start from the snapshot in about a
 * second. Editing a migration or the seed changes the key, so a stale snapshot is never used.
 *
 *   const t = await openTestDatabase({ seed: true });
 *   afterAll(() => t.close());
 */
import { createHash, randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { dropSchema, openDatabase, wrapPGlite, type DatabaseHandle } from './connect.ts';
import { jobQueueSchema } from './job-schema.ts';
import { migrateToLatest } from './migrate.ts';
import { pgliteParsers } from './value-types.ts';

export interface TestDatabase extends DatabaseHandle {
  /** The throwaway schema on PostgreSQL; undefined on PGlite. */
  schema?: string;
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

/** The backends a test should cover: always PGlite, plus PostgreSQL when DATABASE_URL is set. */
export const testBackends: ('pglite' | 'postgres')[] = ['pglite', ...(process.env.DATABASE_URL ? ['postgres' as const] : [])];

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
    const schema = uniqueSchemaName();
    const handle = await openDatabase({ databaseUrl, schema, maxConnections: 4 });
    try {
      if (migrate) await migrateToLatest(handle.db);
      if (seed) await runSeed(handle);
    } catch (err) {
      await handle.close();
      await dropSchema({ databaseUrl, schema });
      throw err;
    }
    return {
      ...handle,
      schema,
      close: async () => {
        await handle.close();
        await dropSchema({ databaseUrl, schema });
        // the job queue of an app that ran on this database (server/notifications/queue.ts)
        await dropSchema({ databaseUrl, schema: jobQueueSchema(schema) });
      },
    };
  }
  if (!migrate) return wrapPGlite(await PGlite.create({ parsers: pgliteParsers }));
  const snapshot = await pgliteSnapshot(seed);
  return wrapPGlite(await PGlite.create({ loadDataDir: new Blob([new Uint8Array(snapshot)]), parsers: pgliteParsers }));
}

async function runSeed(handle: DatabaseHandle) {
  // Imported lazily: the seed pulls in demo data that most callers never need.
  const { seedDatabase } = await import('../seed/seed.ts');
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
  const client = await PGlite.create({ dataDir, loadDataDir: new Blob([new Uint8Array(snapshot)]) });
  await client.close();
}

/** The gzip tarball of a migrated (and maybe seeded) PGlite data directory, built once. */
async function pgliteSnapshot(seed: boolean): Promise<Buffer> {
  // Seeded data is anchored to today's date, so a seeded snapshot is only valid on its day.
  const day = seed ? `-${new Intl.DateTimeFormat('sv-SE', { timeZone: 'Europe/Warsaw' }).format(new Date())}` : '';
  const file = `${SNAPSHOTS}${seed ? 'seeded' : 'migrated'}-${await sourceHash(seed)}${day}.tgz`;
  let pending = building.get(file);
  if (!pending) {
    pending = readFile(file).catch(async () => {
      const client = await PGlite.create({ parsers: pgliteParsers });
      const handle = await wrapPGlite(client);
      try {
        await migrateToLatest(handle.db);
        if (seed) await runSeed(handle);
        await sql`checkpoint`.execute(handle.db);
        const tarball = Buffer.from(await (await client.dumpDataDir('gzip')).arrayBuffer());
        await mkdir(SNAPSHOTS, { recursive: true });
        // Write-then-rename: parallel test workers never read a half-written file.
        const tmp = `${file}.${process.pid}.${randomBytes(3).toString('hex')}`;
        await writeFile(tmp, tarball);
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
