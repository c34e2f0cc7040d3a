/**
 * Compiles the server for production (`npm start`): server/main.ts and everything it imports from
 * server/ and runtime/core/ become one ES module, dist-server/main.js (with its source map), that
 * plain `node` runs — no TypeScript transform at start-up. Libraries stay in node_modules
 * (`packages: external`), so their own files (fonts, WASM, CommonJS) load as usual.
 *
 * dist-server/ sits one level below the project like server/, so main.ts's "the project is my
 * parent folder" holds for the compiled file too. esbuild is the compiler tsx itself uses
 * (a locked dependency of tsx); `npm run dev` and the tests keep running the sources through tsx.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { ROWS_WORKER_OUTPUT } from '../server/imports/rows-thread.ts';
import { TRAIL_WORKER_OUTPUT } from '../server/imports/trail-thread.ts';
import { SERVER_HASH_FILE, serverSourceHash } from '../runtime/source-hash.ts';

export const SERVER_ENTRY = 'server/main.ts';
export const SERVER_OUTPUT = 'dist-server/main.js';
const ROWS_WORKER_ENTRY = 'server/imports/rows-worker.ts';
const TRAIL_WORKER_ENTRY = 'server/imports/trail-worker.ts';

/** Compiles into `outfile` (default dist-server/main.js) and, for the default, records the sources' hash. */
export async function buildServer(root: string, outfile = join(root, SERVER_OUTPUT)): Promise<void> {
  const options = { absWorkingDir: root, bundle: true, packages: 'external', platform: 'node', format: 'esm', target: 'node24', sourcemap: true, logLevel: 'warning' } as const;
  await build({ ...options, entryPoints: [join(root, SERVER_ENTRY)], outfile });
  // an import run's row thread (server/imports/rows-thread.ts) starts this file beside main.js
  await build({ ...options, entryPoints: [join(root, ROWS_WORKER_ENTRY)], outfile: join(dirname(outfile), ROWS_WORKER_OUTPUT) });
  // and its trail thread (server/imports/trail-thread.ts)
  await build({ ...options, entryPoints: [join(root, TRAIL_WORKER_ENTRY)], outfile: join(dirname(outfile), TRAIL_WORKER_OUTPUT) });
  if (outfile === join(root, SERVER_OUTPUT)) {
    mkdirSync(dirname(join(root, SERVER_HASH_FILE)), { recursive: true });
    writeFileSync(join(root, SERVER_HASH_FILE), `${serverSourceHash(root)}\n`);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  await buildServer(resolve(fileURLToPath(new URL('..', import.meta.url))));
}
