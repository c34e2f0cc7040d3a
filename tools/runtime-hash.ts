/**
 * The fingerprint of what the browser runtime is built from: every file under runtime/ (its
 * sources, index.html, public/ and vite.config.ts) and package-lock.json (the libraries bundled
 * into it). Screens, texts and variants are not in it: the runtime fetches them at run time.
 * The build records it in dist/runtime.hash; tools/build-if-stale.ts compares.
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const HASH_FILE = 'dist/runtime.hash';

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : files(path);
    return /\.test\.tsx?$/.test(entry.name) ? [] : [path];
  });
}

export function runtimeSourceHash(root: string): string {
  const hash = createHash('sha256');
  for (const path of [...files(join(root, 'runtime')), join(root, 'package-lock.json')].sort()) {
    hash.update(relative(root, path).replaceAll('\\', '/')).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}
