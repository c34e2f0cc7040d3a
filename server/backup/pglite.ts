/**
 * The embedded database's backup and restore.
 *
 * A copy is PGlite's own `dumpDataDir()` (a tarball of its data folder, what the test snapshots
 * load too), taken inside the process that holds the database, while that process's one
 * connection is held (pglite-dialect.ts): no query or transaction of the portal runs between the
 * CHECKPOINT and the end of the copy, so the copy is the database as of one moment, with every
 * committed write in its files. Requests wait meanwhile (the time is reported); the compression
 * happens after the connection is given back.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, readlink, realpath, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { gunzip as gunzipCb, gzip as gzipCb } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import { pgliteCode } from '../db/pglite-code.ts';
import { Kysely, sql } from 'kysely';
import { pgliteOf, type DatabaseHandle } from '../db/connect.ts';
import { PGliteDialect } from '../db/pglite-dialect.ts';
import type { DB } from '../db/types.generated.ts';
import { appliedMigration, BackupError } from './manifest.ts';

const gzip = promisify(gzipCb);
const gunzip = promisify(gunzipCb);

export interface PGliteCopy {
  /** The data folder as a gzip tarball. */
  tarball: Buffer;
  migration: string;
  serverVersion: string;
  /** How long the portal's queries waited for the copy. */
  heldMs: number;
}

/** A consistent copy of an open embedded database (the running portal's, or a folder the tool opened). */
export async function copyPGlite(handle: DatabaseHandle): Promise<PGliteCopy> {
  const client = pgliteOf(handle.db);
  if (!client) throw new Error('copyPGlite: not an embedded database opened by server/db/connect.ts');
  let raw: Blob | undefined;
  let migration: string | undefined;
  let serverVersion = '';
  let heldMs = 0;
  await handle.db.connection().execute(async (conn) => {
    const started = performance.now();
    migration = await appliedMigration(conn);
    if (!migration) return;
    serverVersion = (await sql<{ v: string }>`select current_setting('server_version_num') as v`.execute(conn)).rows[0].v;
    // every committed write into the data files, so that the copy needs no WAL replay
    await sql`checkpoint`.execute(conn);
    raw = await client.dumpDataDir('none');
    heldMs = performance.now() - started;
  });
  if (!raw || !migration) throw new BackupError('The database holds no portal tables (no schema migration was ever applied): nothing to back up.');
  const tarball = await gzip(Buffer.from(await raw.arrayBuffer()));
  return { tarball, migration, serverVersion, heldMs };
}

/** A process that has files of the folder open (a PGlite holds its relation and WAL files open). */
export interface Holder {
  pid: number;
  command: string;
}

/**
 * The processes of this machine (that this user may see) holding files of `dir` open: a PGlite
 * in another command (npm run seed, npm run digest, a portal of a version without the backup
 * channel) that a copy or a restore would race. Linux's /proc; elsewhere nothing is found.
 */
export async function holdersOf(folder: string): Promise<Holder[]> {
  const holders: Holder[] = [];
  let pids: string[];
  let dir: string;
  try {
    dir = await realpath(folder); // what /proc shows is the real path
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return holders; // no such folder (nobody holds it), or no /proc
  }
  for (const pid of pids) {
    let fds: string[];
    try {
      fds = await readdir(`/proc/${pid}/fd`);
    } catch {
      continue; // another user's process, or gone
    }
    for (const fd of fds) {
      const target = await readlink(`/proc/${pid}/fd/${fd}`).catch(() => '');
      if (target === dir || target.startsWith(`${dir}/`)) {
        const command = (await readFile(`/proc/${pid}/cmdline`, 'utf8').catch(() => '')).split('\0').filter(Boolean).join(' ');
        holders.push({ pid: Number(pid), command });
        break;
      }
    }
  }
  return holders;
}

/** Whether the folder holds a PostgreSQL data directory (PGlite writes PG_VERSION first). */
export const holdsDatabase = (dir: string) => existsSync(join(dir, 'PG_VERSION'));

/**
 * Loads a copy into `dataDir`. A folder that is there already is kept beside it
 * (`<DATA_DIR>.before-restore-<time>`), never deleted: the restore may be the wrong one. On a
 * failure the folder is put back as it was.
 */
export async function restorePGlite(tarball: Buffer, dataDir: string, expectedMigration: string, now = new Date()): Promise<{ movedAside?: string }> {
  const data = await gunzip(tarball).catch(() => {
    throw new BackupError('The database in the backup is damaged (it is not a gzip file).');
  });
  let movedAside: string | undefined;
  if (existsSync(dataDir) && (await readdir(dataDir)).length > 0) {
    movedAside = `${dataDir}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    await rename(dataDir, movedAside);
  }
  try {
    await mkdir(dataDir, { recursive: true });
    const client = await PGlite.create({ ...(await pgliteCode()), dataDir, loadDataDir: new Blob([new Uint8Array(data)]) });
    const db = new Kysely<DB>({ dialect: new PGliteDialect(client) });
    try {
      const migration = await appliedMigration(db);
      if (migration !== expectedMigration) {
        throw new BackupError(`The restored database is at migration ${migration ?? '(none)'}, but the backup's manifest says ${expectedMigration}: the backup is damaged.`);
      }
    } finally {
      await db.destroy();
    }
  } catch (err) {
    await rm(dataDir, { recursive: true, force: true });
    if (movedAside) await rename(movedAside, dataDir);
    if (err instanceof BackupError) throw err;
    throw new BackupError(`The database in the backup could not be loaded by this version's PGlite: ${(err as Error).message ?? err}`);
  }
  return { movedAside };
}
