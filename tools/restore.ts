/**
 * npm run restore -- <file>
 *
 * Brings back a backup written by `npm run backup`: into the embedded PGlite folder DATA_DIR
 * (default ./data; the portal must be stopped, and a folder that is there is kept beside it), or,
 * with DATABASE_URL, into that PostgreSQL database (schema DATABASE_SCHEMA; it must be empty; needs
 * pg_restore). A file that is not a backup of this portal, or one of a newer version, is refused.
 * `--without-mail` forgets the mail server in the copy (a copy started to check a backup e-mails nobody).
 * The portal migrates a backup of an older version when it starts. docs/deployment.md
 * "Backup and restore".
 */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { BackupError, describeTarget, restore, targetFromEnvironment } from '../server/backup/index.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const { values, positionals } = parseArgs({ allowPositionals: true, options: { 'without-mail': { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
  if (positionals.length !== 1 || values.help) {
    console.log('Usage: npm run restore -- <file> [--without-mail]\n'
      + 'Database: DATABASE_URL (PostgreSQL, with DATABASE_SCHEMA; an empty database; needs pg_restore) or DATA_DIR (PGlite folder, default ./data; stop the portal first).\n'
      + '--without-mail: forget the mail server in the restored copy, so that a copy started to check the backup sends no e-mail.');
    process.exit(values.help ? 0 : 1);
  }
  const file = resolve(positionals[0]);
  const target = targetFromEnvironment(process.env, resolve(process.env.DATA_DIR || join(root, 'data')));
  const result = await restore(file, target, { withoutMail: values['without-mail'] });
  const { manifest } = result;
  console.log(`restored: ${file} (taken ${manifest.createdAt}, migration ${manifest.migration}) into ${describeTarget(target)}`);
  if (result.movedAside) console.log(`the folder that was there is kept in ${result.movedAside}`);
  if (values['without-mail']) console.log('the mail server is forgotten in the restored copy: it sends no e-mail until one is set again (Administracja)');
  console.log(result.pendingMigrations.length
    ? `the backup is of an older version: the portal applies ${result.pendingMigrations.join(', ')} when it starts`
    : 'start the portal: npm start');
}

main().catch((err) => {
  console.error(err instanceof BackupError ? `restore refused: ${err.message}` : `restore failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
