/**
 * Backups that restore (issue 33; docs/deployment.md "Backup and restore"), on the embedded PGlite
 * (a folder the portal holds while it serves, copied through its backup channel) and on PostgreSQL
 * (pg_dump / pg_restore, when DATABASE_URL is set): a seeded portal with an uploaded attachment and
 * a published configuration version is backed up, restored into an empty folder or database, and
 * the portal started on the copy finds the same users, orders, attachment bytes and versions; a
 * copy taken while writes go on holds each transaction whole or not at all; a backup of an older
 * schema version is migrated when the portal starts; files that are not backups of this portal, or
 * of a newer version, are refused with messages that say so, and so is a restore over a running portal.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/db/types.generated.ts';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { backup, BackupError, restore, type DatabaseTarget } from '../../server/backup/index.ts';
import { writeArchive, listArchive, readEntry } from '../../server/backup/archive.ts';
import { openBackupChannel, type BackupChannel } from '../../server/backup/channel.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { migrateToLatest, migrationStatus } from '../../server/db/migrate.ts';
import { databaseUrlFor, openTestDatabase, seededPGliteDataDir, testBackends, uniqueSchemaName, type TestDatabase } from '../../server/seed/testing.ts';
import { migrations } from '../../server/migrations/index.ts';
import { tinyPdf } from '../../server/seed/pdf.ts';
import { postMultipart } from '../support/multipart.ts';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

const MIGRATIONS = Object.keys(migrations);
const ATTACHMENT = tinyPdf(['Kopia zapasowa: protokol 33']);
const LABEL = 'Rejestracja (z kopii)';

/** Rows of the tables a restore must bring back exactly, as text (bytea as hex): equal text, equal data. */
async function fingerprint(db: Kysely<DB>): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const table of ['app_user', 'service_order', 'order_position', 'attachment', 'invoice_file', 'config_version', 'car']) {
    const { rows } = await sql<{ n: number; digest: string }>`select count(*)::int as n, md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as digest from ${sql.table(table)} t`.execute(db);
    out[table] = `${rows[0].n} ${rows[0].digest}`;
  }
  return out;
}

/** Empty places to restore into, and their clean-up: a folder, or a database of its own on the test server. */
function places(kind: 'pglite' | 'postgres') {
  const folders: string[] = [];
  const databases: string[] = [];
  const serverUrl = process.env.DATABASE_URL!;
  const onServer = async (statement: string) => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  return {
    async folder(): Promise<string> {
      const dir = await mkdtemp(join(tmpdir(), 'portal-backup-test-'));
      folders.push(dir);
      return dir;
    },
    /** An empty target for a restore of a backup whose portal schema is `schema` (PostgreSQL). */
    async empty(schema: string): Promise<DatabaseTarget> {
      if (kind === 'pglite') return { kind, dataDir: join(await this.folder(), 'data') };
      // named like testing.ts's copies, so that one left behind by a killed run is dropped a day later
      const name = uniqueSchemaName('portal_test');
      await onServer(`create database "${name}"`);
      databases.push(name);
      return { kind, databaseUrl: databaseUrlFor(serverUrl, name), schema };
    },
    /** Opens a restored target as the portal does. */
    open(target: DatabaseTarget): Promise<DatabaseHandle> {
      return openDatabase(target.kind === 'pglite' ? { dataDir: target.dataDir } : { databaseUrl: target.databaseUrl, schema: target.schema, maxConnections: 4 });
    },
    async cleanUp() {
      for (const dir of folders) await rm(dir, { recursive: true, force: true });
      for (const name of databases) await onServer(`drop database if exists "${name}" with (force)`);
    },
  };
}

describe.each(testBackends)('backup and restore on %s', (kind) => {
  const place = places(kind);
  let source: TestApp;
  let sourceTarget: DatabaseTarget;
  let channel: BackupChannel | undefined;
  let schema = 'public';
  let zalaczId: number;
  let backupFile: string;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    let database: DatabaseHandle;
    if (kind === 'pglite') {
      // the portal as `npm start` runs it: a data folder held by the serving process, with its backup channel
      const dataDir = join(await place.folder(), 'data');
      await seededPGliteDataDir(dataDir);
      database = await openDatabase({ dataDir });
      channel = await openBackupChannel({ dataDir, database });
      sourceTarget = { kind, dataDir };
    } else {
      const copy: TestDatabase = await openTestDatabase({ kind, seed: true });
      database = copy;
      schema = copy.schema!;
      sourceTarget = { kind, databaseUrl: copy.databaseUrl!, schema };
    }
    source = await startTestApp({ database });
    tokens.manager = await source.signIn('manager');
    tokens.admin = await source.signIn('admin');
    // an upload with known bytes, through the API
    const car = await source.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const uploaded = await postMultipart(source, '/api/attachment/upload', tokens.manager, [
      { name: 'id', value: String(car.pojazdId) }, { name: 'group', value: 'SA_POJA' }, { name: 'tytul', value: 'Protokół' },
      { name: 'opis', value: 'Przed kopią zapasową' }, { name: 'file', filename: 'protokół.pdf', content: ATTACHMENT },
    ]);
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    zalaczId = uploaded.json().zalaczIds[0];
    // a published configuration version, through the studio
    expect((await source.call('PUT', '/api/config-studio/texts', { token: tokens.admin, body: { scope: 'base', key: 'car:fields.rejestr', text: LABEL } })).statusCode).toBe(200);
    const published = await source.call('POST', '/api/config-studio/publish', { token: tokens.admin, body: { comment: 'Przed kopią zapasową' } });
    expect(published.statusCode, published.body).toBe(200);
    backupFile = join(await place.folder(), 'portal.backup');
  }, 180_000);

  afterAll(async () => {
    await channel?.close();
    await source?.close();
    await place.cleanUp();
  });

  it('restores a backup of the running portal into an empty database, where the portal finds the same users, orders, attachment bytes and configuration versions', async () => {
    const before = await fingerprint(source.app.db);
    const versions = (await source.call('GET', '/api/config-studio/versions', { token: tokens.admin })).json();
    const taken = await backup(backupFile, sourceTarget, { portalVersion: 'test' });
    expect(taken.takenBy).toBe(kind === 'pglite' ? 'running portal' : 'pg_dump');
    expect(taken.manifest).toMatchObject({ portal: 'fleet-portal', format: 1, database: kind, migration: MIGRATIONS.at(-1), portalVersion: 'test' });
    expect(taken.manifest.takenBy).toBe(kind === 'pglite' ? process.pid : undefined);
    expect((await listArchive(backupFile)).map((e) => e.name)).toEqual(['manifest.json', kind === 'pglite' ? 'pglite-data.tar.gz' : 'postgres.dump']);

    const target = await place.empty(schema);
    const restored = await restore(backupFile, target);
    expect(restored.pendingMigrations).toEqual([]);
    expect(restored.movedAside).toBeUndefined();

    const database = await place.open(target);
    expect(await migrateToLatest(database.db)).toEqual([]);
    expect(await fingerprint(database.db)).toEqual(before);
    const copy = await startTestApp({ database });
    try {
      // the users: the same accounts sign in with the same passwords
      const manager = await copy.signIn('manager');
      const admin = await copy.signIn('admin');
      // the attachment's bytes
      const link = await copy.call('POST', '/api/attachment/download-link', { token: manager, body: { zalaczId } });
      expect(link.statusCode, link.body).toBe(200);
      const file = await copy.call('GET', `/api/attachment/download?id=${zalaczId}&token=${encodeURIComponent(link.json().token)}`);
      expect(file.statusCode).toBe(200);
      expect(Buffer.compare(file.rawPayload, ATTACHMENT)).toBe(0);
      // the configuration versions, and the published one served
      expect((await copy.call('GET', '/api/config-studio/versions', { token: admin })).json()).toEqual(versions);
      const served = (await copy.call('GET', '/api/ui/config', { token: manager })).json();
      expect(served.locales.pl.car.fields.rejestr).toBe(LABEL);
      // the orders, through the API: the manager's demo order of WZ12345
      const orders = await copy.app.db.selectFrom('service_order').select(['autId', 'status']).orderBy('autId').limit(5).execute();
      const source5 = await source.app.db.selectFrom('service_order').select(['autId', 'status']).orderBy('autId').limit(5).execute();
      expect(orders).toEqual(source5);
    } finally {
      await copy.close();
    }
  }, 180_000);

  it('takes a copy while writes go on that holds every transaction whole or not at all; a copy restored to be checked sends no e-mail', async () => {
    await source.app.db.updateTable('email_config').set({ smtpHost: 'smtp.example.pl', smtpEmail: 'portal@example.pl' }).execute();
    let written = 0;
    let stop = false;
    const writer = (async () => {
      while (!stop) {
        const i = written;
        await source.app.db.transaction().execute(async (trx) => {
          await trx.insertInto('app_setting').values({ key: `backup-a-${i}`, value: JSON.stringify(i) }).execute();
          await trx.insertInto('app_setting').values({ key: `backup-b-${i}`, value: JSON.stringify(i) }).execute();
        });
        written++;
        await new Promise((r) => setImmediate(r));
      }
    })();
    const writtenBy = async (n: number) => {
      while (written < n) await new Promise((r) => setTimeout(r, 5));
    };
    await writtenBy(1);
    const file = join(await place.folder(), 'during-writes.backup');
    await backup(file, sourceTarget);
    const afterBackup = written;
    await writtenBy(afterBackup + 1);
    stop = true;
    await writer;

    const target = await place.empty(schema);
    await restore(file, target, { withoutMail: true });
    const database = await place.open(target);
    try {
      expect(await database.db.selectFrom('email_config').select(['smtpHost', 'smtpEmail']).executeTakeFirst()).toEqual({ smtpHost: null, smtpEmail: 'portal@example.pl' });
      const keys = (await database.db.selectFrom('app_setting').select('key').where('key', 'like', 'backup-%').execute()).map((r) => r.key);
      const a = keys.filter((k) => k.startsWith('backup-a-')).map((k) => Number(k.slice(9))).sort((x, y) => x - y);
      const b = keys.filter((k) => k.startsWith('backup-b-')).map((k) => Number(k.slice(9))).sort((x, y) => x - y);
      // each transaction whole: its two rows, or neither; and the copy is one moment: the first k of them
      expect(a).toEqual(b);
      expect(a).toEqual(Array.from({ length: a.length }, (_, i) => i));
      // taken while the writes went on: some before it, and some after it that it does not hold
      expect(a.length).toBeGreaterThanOrEqual(1);
      expect(a.length).toBeLessThan(written);
    } finally {
      await database.close();
    }
  }, 180_000);

  it('restores a backup made at the previous schema migration, and the portal migrates it when it starts', async () => {
    const older = Object.fromEntries(Object.entries(migrations).slice(0, -1));
    let olderTarget: DatabaseTarget;
    let cleanUp = async () => {};
    if (kind === 'pglite') {
      // a folder no portal holds: the backup tool opens it itself
      const dataDir = join(await place.folder(), 'data');
      const handle = await openDatabase({ dataDir });
      await migrateToLatest(handle.db, older);
      await handle.db.insertInto('app_setting').values({ key: 'older', value: JSON.stringify('before the last migration') }).execute();
      await handle.close();
      olderTarget = { kind, dataDir };
    } else {
      const handle = await openTestDatabase({ kind, migrate: false });
      await migrateToLatest(handle.db, older);
      await handle.db.insertInto('app_setting').values({ key: 'older', value: JSON.stringify('before the last migration') }).execute();
      olderTarget = { kind, databaseUrl: handle.databaseUrl!, schema: handle.schema! };
      cleanUp = () => handle.close();
    }
    try {
      const file = join(await place.folder(), 'older.backup');
      const taken = await backup(file, olderTarget);
      expect(taken.manifest.migration).toBe(MIGRATIONS.at(-2));
      if (kind === 'pglite') expect(taken.takenBy).toBe('this process');

      const target = await place.empty(olderTarget.kind === 'postgres' ? olderTarget.schema : 'public');
      const restored = await restore(file, target);
      expect(restored.pendingMigrations).toEqual([MIGRATIONS.at(-1)]);
      const database = await place.open(target);
      // what `npm start` does first: migrate; then the portal serves the restored data
      const applied = await migrateToLatest(database.db);
      expect(applied.map((m) => m.migrationName)).toEqual([MIGRATIONS.at(-1)]);
      expect((await migrationStatus(database.db)).every((m) => m.executedAt)).toBe(true);
      const app = await startTestApp({ database });
      try {
        expect((await app.call('GET', '/api/health')).statusCode).toBe(200);
        const row = await app.app.db.selectFrom('app_setting').select('value').where('key', '=', 'older').executeTakeFirst();
        expect(row?.value).toBe('before the last migration');
      } finally {
        await app.close();
      }
    } finally {
      await cleanUp();
    }
  }, 180_000);

  it('refuses a file that is not a backup of this portal, and one of a newer version, saying so and touching nothing', async () => {
    const dir = await place.folder();
    const target = await place.empty(schema);
    const refusal = async (file: string) => {
      const error = await restore(file, target).then(() => undefined, (e: unknown) => e);
      expect(error).toBeInstanceOf(BackupError);
      return (error as Error).message;
    };

    const text = join(dir, 'notes.txt');
    await writeFile(text, 'lista zakupów\n'.repeat(100));
    expect(await refusal(text)).toBe(`${text} is not a backup of this portal (fleet-portal): it is not a tar archive. A backup is a file written by \`npm run backup\`.`);
    const otherTar = join(dir, 'other.tar');
    await writeArchive(otherTar, [{ name: 'readme.md', content: Buffer.from('# hello\n') }]);
    expect(await refusal(otherTar)).toMatch(/is not a backup of this portal \(fleet-portal\): it has no manifest\.json/);
    const otherPortal = join(dir, 'other-portal.backup');
    await writeArchive(otherPortal, [{ name: 'manifest.json', content: Buffer.from(JSON.stringify({ portal: 'someone-else', format: 1 })) }]);
    expect(await refusal(otherPortal)).toMatch(/is not a backup of this portal \(fleet-portal\): it is a backup of "someone-else"/);

    // the backup of the first test, as a newer version of the portal would write it
    const entries = await listArchive(backupFile);
    const manifest = JSON.parse((await readEntry(backupFile, entries[0])).toString('utf8'));
    const newer = join(dir, 'newer.backup');
    await writeArchive(newer, [
      { name: 'manifest.json', content: Buffer.from(JSON.stringify({ ...manifest, migration: '999_from_the_future' })) },
      { name: entries[1].name, content: await readEntry(backupFile, entries[1]) },
    ]);
    expect(await refusal(newer)).toBe(
      `${newer} was made by a newer version of the portal: its database is at migration 999_from_the_future, `
      + `and this version knows migrations up to ${MIGRATIONS.at(-1)}. Restore it with that version or a newer one.`,
    );
    const newerFormat = join(dir, 'newer-format.backup');
    await writeArchive(newerFormat, [{ name: 'manifest.json', content: Buffer.from(JSON.stringify({ ...manifest, format: 2 })) }]);
    expect(await refusal(newerFormat)).toMatch(/was written by a newer version of the portal \(backup format 2; this version reads format 1\)/);

    // nothing was restored
    if (target.kind === 'pglite') expect(existsSync(target.dataDir)).toBe(false);
    else {
      const database = await place.open(target);
      try {
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_tables where schemaname = ${target.schema}`.execute(database.db);
        expect(rows[0].n).toBe(0);
      } finally {
        await database.close();
      }
    }
  });

  it('refuses to restore over the running portal', async () => {
    const error = await restore(backupFile, sourceTarget).then(() => undefined, (e: unknown) => e);
    expect(error).toBeInstanceOf(BackupError);
    expect((error as Error).message).toMatch(kind === 'pglite'
      ? new RegExp(`^The portal is running on ${sourceTarget.kind === 'pglite' ? sourceTarget.dataDir : ''} \\(process ${process.pid}\\): stop it before restoring`)
      : new RegExp(`^Schema "${schema}" of .* is not empty \\(\\d+ tables, views or sequences\\): a restore goes into an empty database`));
    // and the portal still serves its data
    expect((await source.call('GET', '/api/health')).statusCode).toBe(200);
  });

  it.runIf(kind === 'pglite')('says why, in `npm run restore`, and exits 1', async () => {
    const file = join(await place.folder(), 'notes.txt');
    await writeFile(file, 'not a backup');
    const dataDir = join(await place.folder(), 'data');
    const { code, stderr } = await new Promise<{ code: number | null; stderr: string }>((resolve, reject) => {
      const child = spawn(join(ROOT, 'node_modules/.bin/tsx'), ['tools/restore.ts', file], { cwd: ROOT, env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' } });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c));
      child.once('error', reject);
      child.once('close', (c) => resolve({ code: c, stderr: err }));
    });
    expect(code).toBe(1);
    expect(stderr).toContain(`restore refused: ${file} is not a backup of this portal (fleet-portal): the file is too short.`);
    expect(existsSync(dataDir)).toBe(false);
  });
});
