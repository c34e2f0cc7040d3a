/**
 * `npm start` builds only what is missing or older than its sources: the browser runtime (vite,
 * dist/runtime) and the compiled server (tools/build-server.ts, dist-server/main.js). Each build
 * records the hash of its sources (runtime/source-hash.ts); a build is due when its output is
 * missing or the recorded hash differs. `--check` only reports (exit 1 when a build is due);
 * `--runtime-only` leaves the server alone (the journeys' servers run its sources through tsx).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SERVER_OUTPUT, buildServer } from './build-server.ts';
import { HASH_FILE, SERVER_HASH_FILE, runtimeSourceHash, serverSourceHash } from '../runtime/source-hash.ts';

const root = resolve(fileURLToPath(new URL('..', import.meta.url)));

function isStale(dir: string, output: string, hashFile: string, currentHash: () => string): boolean {
  const recorded = existsSync(join(dir, hashFile)) ? readFileSync(join(dir, hashFile), 'utf8').trim() : '';
  return !existsSync(join(dir, output)) || recorded !== currentHash();
}

export function runtimeIsStale(dir = root): boolean {
  return isStale(dir, 'dist/runtime/index.html', HASH_FILE, () => runtimeSourceHash(dir));
}

export function serverIsStale(dir = root): boolean {
  return isStale(dir, SERVER_OUTPUT, SERVER_HASH_FILE, () => serverSourceHash(dir));
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes('--check');
  const stale = { runtime: runtimeIsStale(), server: serverIsStale() };
  if (check) {
    console.log(`runtime build: ${stale.runtime ? 'stale' : 'up to date'}; server build: ${stale.server ? 'stale' : 'up to date'}`);
    if (stale.runtime || stale.server) process.exit(1);
  } else {
    if (!stale.runtime) console.log('runtime build is up to date (dist/runtime matches runtime/ and package-lock.json)');
    else {
      console.log('building the runtime (sources changed since the last build)');
      execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    }
    if (process.argv.includes('--runtime-only')) { /* the caller runs the server from its sources */ }
    else if (!stale.server) console.log('server build is up to date (dist-server matches server/ and runtime/core/)');
    else {
      console.log('compiling the server into dist-server/ (sources changed since the last build)');
      await buildServer(root);
    }
  }
}
