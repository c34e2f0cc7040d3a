/**
 * Fingerprints of what the two builds are made from, so `npm start` rebuilds only when needed
 * (tools/build-if-stale.ts compares them with the ones each build recorded):
 * - the browser runtime: every file under runtime/ (its sources, index.html, public/ and
 *   vite.config.ts), package-lock.json (the libraries bundled into it) and locales/pl/app.json
 *   (the start-up texts built into it), in dist/runtime.hash;
 * - the compiled server (tools/build-server.ts): server/, runtime/core/, runtime/src/screens/,
 *   forms/ and shell/ with the formats the forms reach (the modules both sides share: the screen
 *   types' cross-checks, the login page's components its first paint is drawn with), package-lock.json and the build recipe itself, in dist-server/server.hash.
 * Screens, texts and variants are in neither: both read them at run time. Tests are left out.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const HASH_FILE = 'dist/runtime.hash';
export const SERVER_HASH_FILE = 'dist-server/server.hash';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path);
    return /\.test\.tsx?$/.test(entry.name) ? [] : [path];
  });
}

/** The hash of every non-test file under the folders, plus the single files, by path and content. */
export function sourceHash(root: string, folders: string[], singleFiles: string[]): string {
  const hash = createHash('sha256');
  const paths = [...folders.flatMap((f) => (existsSync(join(root, f)) ? files(join(root, f)) : [])), ...singleFiles.map((f) => join(root, f))];
  for (const path of paths.sort()) {
    hash.update(relative(root, path).replaceAll('\\', '/')).update('\0').update(existsSync(path) ? readFileSync(path) : '').update('\0');
  }
  return hash.digest('hex');
}

export function runtimeSourceHash(root: string): string {
  // app.json's start-up texts are built in (config/i18n.ts, the loading modal of index.html)
  return sourceHash(root, ['runtime'], ['package-lock.json', 'locales/pl/app.json']);
}

export function serverSourceHash(root: string): string {
  // the server imports nothing from runtime/src (tools/check-layers.ts): runtime/core is all it shares
  // package.json: the bundle carries its version, licence and author (the OpenAPI document's info)
  // and draws the login page's first paint with the runtime's own components (server/init/first-paint.ts: the form, the public frame)
  return sourceHash(root, ['server', 'runtime/core', 'runtime/src/screens', 'runtime/src/forms', 'runtime/src/shell'], ['runtime/src/format.ts', 'runtime/src/format-settings.ts', 'package.json', 'package-lock.json', 'tools/build-server.ts']);
}
