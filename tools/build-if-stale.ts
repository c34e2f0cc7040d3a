/**
 * `npm start` builds the browser runtime only when it is missing or older than its sources: the
 * hash of runtime/ and package-lock.json (tools/runtime-hash.ts) is compared with the one the last
 * build recorded in dist/runtime.hash. `--check` only reports (exit 1 when a build is due).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HASH_FILE, runtimeSourceHash } from './runtime-hash.ts';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

export function runtimeIsStale(dir = root): boolean {
  const recorded = existsSync(join(dir, HASH_FILE)) ? readFileSync(join(dir, HASH_FILE), 'utf8').trim() : '';
  return !existsSync(join(dir, 'dist/runtime/index.html')) || recorded !== runtimeSourceHash(dir);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  if (!runtimeIsStale()) {
    console.log('runtime build is up to date (dist/runtime matches runtime/ and package-lock.json)');
  } else if (process.argv.includes('--check')) {
    console.log('runtime build is stale');
    process.exit(1);
  } else {
    console.log('building the runtime (sources changed since the last build)');
    execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  }
}
