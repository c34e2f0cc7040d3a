/**
 * `npm run backup -- <file>` and `npm run restore -- <file>` (tools/backup.ts, tools/restore.ts),
 * for both databases; docs/deployment.md "Backup and restore" is the operator's side.
 *
 * - Embedded PGlite (DATA_DIR): while the portal runs, the copy is taken by the portal itself,
 *   asked through its local backup channel (channel.ts); when it does not run, by this process,
 *   which then holds the folder. A restore refuses while the portal, or any other process, holds
 *   the folder.
 * - PostgreSQL (DATABASE_URL): pg_dump / pg_restore (postgres.ts).
 *
 * The file is a tar archive (archive.ts): the manifest (manifest.ts), then the database.
 */
import { mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { dirname, join, basename } from 'node:path';
import { openDatabase } from '../db/connect.ts';
import { migrations } from '../migrations/index.ts';
import { writeArchive, readEntry } from './archive.ts';
import { copyFromRunningPortal, runningPortal, CHANNEL_FILE } from './channel.ts';
import { BackupError, checkKind, makeManifest, MANIFEST_FILE, PAYLOAD_FILE, readBackup, type Manifest } from './manifest.ts';
import { copyPGlite, holdersOf, holdsDatabase, restorePGlite, type Holder } from './pglite.ts';
import { dumpPostgres, restorePostgres, withoutPassword } from './postgres.ts';

export { BackupError } from './manifest.ts';
export type { Manifest } from './manifest.ts';

/** Where the portal's database is: DATABASE_URL (+ DATABASE_SCHEMA), or else the PGlite folder. */
export type DatabaseTarget =
  | { kind: 'postgres'; databaseUrl: string; schema: string }
  | { kind: 'pglite'; dataDir: string };

export interface BackupResult {
  manifest: Manifest;
  bytes: number;
  /** Who copied the database. */
  takenBy: 'running portal' | 'this process' | 'pg_dump';
  /** PGlite: how long the database was held for the copy (the portal's queries waited). */
  heldMs?: number;
}

export interface RestoreResult {
  manifest: Manifest;
  /** PGlite: where the folder that was there has been kept. */
  movedAside?: string;
  /** Migrations the portal applies when it next starts (the backup is of an older version). */
  pendingMigrations: string[];
}

const inUse = (dataDir: string, holders: Holder[], what: string) => new BackupError(
  `${dataDir} is in use by ${holders.map((h) => `process ${h.pid}${h.command ? ` (${h.command})` : ''}`).join(', ')}, `
  + `which offers no live backup (npm run seed or digest, or a portal of an older version): ${what}.`,
);

/** Writes a backup of the database of `target` to `file`: complete under that name, or not there at all. */
export async function backup(file: string, target: DatabaseTarget, info: { portalVersion?: string } = {}): Promise<BackupResult> {
  if (!(await stat(dirname(file)).then((s) => s.isDirectory(), () => false))) throw new BackupError(`The folder ${dirname(file)} does not exist: create it, or name a file in another folder.`);
  // beside the target, so that the rename at the end is within one file system
  const work = await mkdtemp(join(dirname(file), `.${basename(file)}.partial-`));
  try {
    const archive = join(work, 'backup');
    let result: Omit<BackupResult, 'bytes'>;
    if (target.kind === 'postgres') {
      const dump = join(work, PAYLOAD_FILE.postgres);
      const facts = await dumpPostgres({ databaseUrl: target.databaseUrl, schema: target.schema }, dump);
      const manifest = makeManifest({ database: 'postgres', ...facts, portalVersion: info.portalVersion });
      await writeArchive(archive, [{ name: MANIFEST_FILE, content: manifestBytes(manifest) }, { name: PAYLOAD_FILE.postgres, content: { path: dump } }]);
      result = { manifest, takenBy: 'pg_dump' };
    } else {
      const copied = await copyEmbedded(target.dataDir);
      const manifest = makeManifest({
        database: 'pglite', migration: copied.copy.migration, serverVersion: copied.copy.serverVersion, portalVersion: info.portalVersion,
        ...(copied.pid ? { takenBy: copied.pid } : {}),
      });
      await writeArchive(archive, [{ name: MANIFEST_FILE, content: manifestBytes(manifest) }, { name: PAYLOAD_FILE.pglite, content: copied.copy.tarball }]);
      result = { manifest, takenBy: copied.pid ? 'running portal' : 'this process', heldMs: copied.copy.heldMs };
    }
    await rename(archive, file);
    return { ...result, bytes: (await stat(file)).size };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

const manifestBytes = (manifest: Manifest) => Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);

/** The embedded database's copy: by the running portal when there is one, else by this process. */
async function copyEmbedded(dataDir: string) {
  const portal = await runningPortal(dataDir);
  if (portal) return { copy: await copyFromRunningPortal(portal), pid: portal.pid };
  const holders = await holdersOf(dataDir);
  if (holders.length) throw inUse(dataDir, holders, 'let it end, or stop it, and run the backup again');
  if (!holdsDatabase(dataDir)) throw new BackupError(`${dataDir} holds no database (DATA_DIR): nothing to back up. Is DATA_DIR right?`);
  const handle = await openDatabase({ dataDir });
  try {
    return { copy: await copyPGlite(handle), pid: undefined };
  } finally {
    await handle.close();
  }
}

/**
 * Reads and checks a backup without restoring it: a file that is not a backup of this portal, or
 * of a newer version, is refused (BackupError).
 */
export async function inspect(file: string): Promise<Manifest> {
  return (await readBackup(file)).manifest;
}

/**
 * Restores `file` into the database of `target`; the portal must be stopped (PGlite) and the
 * database empty (PostgreSQL). The portal migrates a backup of an older version when it starts.
 */
export async function restore(file: string, target: DatabaseTarget, options: { withoutMail?: boolean } = {}): Promise<RestoreResult> {
  const { manifest, payload } = await readBackup(file);
  checkKind(file, manifest, target.kind);
  let movedAside: string | undefined;
  if (target.kind === 'postgres') {
    await restorePostgres(file, payload, manifest, { databaseUrl: target.databaseUrl, schema: target.schema });
  } else {
    const portal = await runningPortal(target.dataDir);
    if (portal) {
      throw new BackupError(`The portal is running on ${target.dataDir} (process ${portal.pid}): stop it before restoring. (A backup needs no stop: npm run backup.)`);
    }
    const holders = await holdersOf(target.dataDir);
    if (holders.length) throw inUse(target.dataDir, holders, 'stop it before restoring');
    ({ movedAside } = await restorePGlite(await readEntry(file, payload), target.dataDir, manifest.migration));
    // the channel of the portal the copy was taken from is not this portal's
    await rm(join(target.dataDir, CHANNEL_FILE), { force: true });
  }
  if (options.withoutMail) await forgetMailServer(target);
  const known = Object.keys(migrations);
  return { manifest, movedAside, pendingMigrations: known.slice(known.indexOf(manifest.migration) + 1) };
}

/**
 * A copy restored to be checked must not write to the users: without a mail server its e-mails
 * wait (notifications "waiting for a mail server") instead of going out. The portal's only outbound
 * channel is e-mail.
 */
async function forgetMailServer(target: DatabaseTarget): Promise<void> {
  const handle = await openDatabase(target.kind === 'pglite' ? { dataDir: target.dataDir } : { databaseUrl: target.databaseUrl, schema: target.schema, maxConnections: 1 });
  try {
    await handle.db.updateTable('email_config').set({ smtpHost: null }).execute();
  } finally {
    await handle.close();
  }
}

/** The database of `npm start`'s environment (main.ts reads the same variables). */
export function targetFromEnvironment(env: NodeJS.ProcessEnv, defaultDataDir: string): DatabaseTarget {
  return env.DATABASE_URL
    ? { kind: 'postgres', databaseUrl: env.DATABASE_URL, schema: env.DATABASE_SCHEMA || 'public' }
    : { kind: 'pglite', dataDir: defaultDataDir };
}

/** The target in words, for the tools' output: never the password. */
export function describeTarget(target: DatabaseTarget): string {
  return target.kind === 'postgres'
    ? `PostgreSQL ${withoutPassword(target.databaseUrl).url}, schema ${target.schema}`
    : `PGlite in ${target.dataDir}`;
}
