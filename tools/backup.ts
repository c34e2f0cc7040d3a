/**
 * npm run backup -- <file>
 *
 * Writes a backup of the portal's database to <file>: PostgreSQL with pg_dump when DATABASE_URL is
 * set (schema DATABASE_SCHEMA and its job queue's), otherwise the embedded PGlite in DATA_DIR
 * (default ./data), copied by the running portal itself while it serves, or by this command when
 * the portal is stopped. docs/deployment.md "Backup and restore".
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { backup, BackupError, describeTarget, targetFromEnvironment } from '../server/backup/index.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

async function main() {
  const args = process.argv.slice(2);
  if (args.length !== 1 || args[0] === '--help' || args[0] === '-h') {
    console.log('Usage: npm run backup -- <file>\n'
      + 'Database: DATABASE_URL (PostgreSQL, with DATABASE_SCHEMA; needs pg_dump) or DATA_DIR (PGlite folder, default ./data; the portal may run).');
    process.exit(args.length === 1 ? 0 : 1);
  }
  const file = resolve(args[0]);
  const target = targetFromEnvironment(process.env, resolve(process.env.DATA_DIR || join(root, 'data')));
  const portalVersion = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  const started = performance.now();
  const result = await backup(file, target, { portalVersion });
  const { manifest } = result;
  const held = result.heldMs === undefined ? '' : `; the database was held ${Math.round(result.heldMs)} ms`;
  const by = result.takenBy === 'running portal' ? `the running portal (process ${manifest.takenBy})` : result.takenBy;
  console.log(`backup written: ${file} (${(result.bytes / 1024 / 1024).toFixed(1)} MB) of ${describeTarget(target)}, `
    + `at migration ${manifest.migration}, copied by ${by} in ${((performance.now() - started) / 1000).toFixed(1)} s${held}`);
}

main().catch((err) => {
  console.error(err instanceof BackupError ? `backup refused: ${err.message}` : `backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
