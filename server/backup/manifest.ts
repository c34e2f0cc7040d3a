/**
 * What a backup says about itself (`manifest.json`, the archive's first file), and the checks a
 * restore makes before it touches anything: that the file is a backup of this portal at all, that
 * this version can read it (format, and a schema migration it knows: a backup of a newer version
 * would be "migrated" by code that does not know its tables), and that it goes into the kind of
 * database it came from.
 */
import { sql, type Kysely } from 'kysely';
import { migrations } from '../migrations/index.ts';
import type { DB } from '../db/types.generated.ts';
import { listArchive, NotAnArchiveError, readEntry, type ArchiveEntry } from './archive.ts';

/** Names this portal's backups; not the package name, so that renaming the package breaks no backup. */
export const PORTAL = 'fleet-portal';
/** Version of the backup's layout (the archive's files and the manifest's fields). */
export const FORMAT = 1;
export const MANIFEST_FILE = 'manifest.json';
/** The archive's file holding the database, by kind. */
export const PAYLOAD_FILE = { pglite: 'pglite-data.tar.gz', postgres: 'postgres.dump' } as const;

export type BackupKind = keyof typeof PAYLOAD_FILE;

export interface Manifest {
  portal: string;
  format: number;
  /** The last schema migration applied to the backed-up database (server/migrations/). */
  migration: string;
  createdAt: string;
  database: BackupKind;
  /** PostgreSQL: the schema the portal's tables are in, and the job queue's (both in the dump). */
  schema?: string;
  jobQueueSchema?: string;
  /** Informative: the portal's package version and the database server's version number. */
  portalVersion?: string;
  serverVersion?: string;
  /** Informative: the backup was taken by the running portal (its process id). */
  takenBy?: number;
}

/** A refusal of a backup or restore: the message says what and what to do; the tools print it as it is. */
export class BackupError extends Error {}

const KNOWN = Object.keys(migrations);
export const LATEST_MIGRATION = KNOWN[KNOWN.length - 1];

/** The last migration applied to the database (in its current schema), or undefined when it has none. */
export async function appliedMigration(db: Kysely<DB>): Promise<string | undefined> {
  const { rows } = await sql<{ exists: string | null }>`select to_regclass('kysely_migration')::text as exists`.execute(db);
  if (!rows[0]?.exists) return undefined;
  const last = await sql<{ name: string }>`select name from kysely_migration order by name desc limit 1`.execute(db);
  return last.rows[0]?.name;
}

export function makeManifest(fields: Omit<Manifest, 'portal' | 'format' | 'createdAt'>, createdAt = new Date()): Manifest {
  return { portal: PORTAL, format: FORMAT, createdAt: createdAt.toISOString(), ...fields };
}

const notABackup = (file: string, why: string) =>
  new BackupError(`${file} is not a backup of this portal (${PORTAL}): ${why}. A backup is a file written by \`npm run backup\`.`);

/**
 * Reads and checks the manifest of a backup file: a file that is not a backup of this portal, or
 * one of a newer version, is refused with a message that says so. Answers the manifest and where
 * the database is in the archive.
 */
export async function readBackup(file: string): Promise<{ manifest: Manifest; payload: ArchiveEntry }> {
  let entries: ArchiveEntry[];
  try {
    entries = await listArchive(file);
  } catch (err) {
    if (err instanceof NotAnArchiveError) throw notABackup(file, err.message);
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new BackupError(`${file} does not exist.`);
    if ((err as NodeJS.ErrnoException).code === 'EISDIR') throw notABackup(file, 'it is a folder');
    throw err;
  }
  const first = entries[0];
  if (first?.name !== MANIFEST_FILE || first.size > 64 * 1024) throw notABackup(file, `it has no ${MANIFEST_FILE}`);
  let manifest: Manifest;
  try {
    manifest = JSON.parse((await readEntry(file, first)).toString('utf8'));
  } catch {
    throw notABackup(file, `its ${MANIFEST_FILE} is not JSON`);
  }
  if (manifest?.portal !== PORTAL) throw notABackup(file, `it is a backup of "${String(manifest?.portal)}"`);
  if (typeof manifest.format !== 'number' || manifest.format > FORMAT) {
    throw new BackupError(`${file} was written by a newer version of the portal (backup format ${manifest.format}; this version reads format ${FORMAT}). Restore it with that version or a newer one.`);
  }
  if (!(manifest.database in PAYLOAD_FILE)) throw notABackup(file, `it names an unknown database kind "${manifest.database}"`);
  if (typeof manifest.migration !== 'string' || !KNOWN.includes(manifest.migration)) {
    throw new BackupError(
      `${file} was made by a newer version of the portal: its database is at migration ${manifest.migration}, `
      + `and this version knows migrations up to ${LATEST_MIGRATION}. Restore it with that version or a newer one.`,
    );
  }
  const payload = entries.find((e) => e.name === PAYLOAD_FILE[manifest.database]);
  if (!payload) throw notABackup(file, `it has no ${PAYLOAD_FILE[manifest.database]}`);
  return { manifest, payload };
}

/** The restore goes into the kind of database the backup came from. */
export function checkKind(file: string, manifest: Manifest, target: BackupKind): void {
  if (manifest.database === target) return;
  throw new BackupError(manifest.database === 'pglite'
    ? `${file} is a backup of the embedded database (PGlite), and DATABASE_URL is set: unset DATABASE_URL to restore it into DATA_DIR.`
    : `${file} is a backup of a PostgreSQL database (schema "${manifest.schema}"): set DATABASE_URL (and DATABASE_SCHEMA) to restore it into PostgreSQL.`);
}
