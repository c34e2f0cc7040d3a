import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runtimeIsStale } from './build-if-stale.ts';
import { HASH_FILE, runtimeSourceHash } from './runtime-hash.ts';

describe('npm start builds the runtime only when its sources changed', () => {
  let dir: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const recordBuild = () => {
    write('dist/runtime/index.html', '<!doctype html>');
    write(HASH_FILE, `${runtimeSourceHash(dir)}\n`);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-build-'));
    write('runtime/src/main.tsx', 'export {};');
    write('runtime/vite.config.ts', 'export default {};');
    write('package-lock.json', '{"lockfileVersion":3}');
    write('screens/menu.json', '{}');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('builds when there is no build yet', () => {
    expect(runtimeIsStale(dir)).toBe(true);
  });

  it('skips the build when the recorded hash matches the sources', () => {
    recordBuild();
    expect(runtimeIsStale(dir)).toBe(false);
  });

  it('builds again after a runtime source, the vite config or the lock file changed', () => {
    for (const [file, text] of [['runtime/src/main.tsx', 'export const x = 1;'], ['runtime/vite.config.ts', 'export default { base: "/" };'], ['package-lock.json', '{"lockfileVersion":3,"x":1}']]) {
      recordBuild();
      write(file, text);
      expect(runtimeIsStale(dir), file).toBe(true);
    }
  });

  it('ignores what the runtime fetches at run time (screens, texts) and its tests', () => {
    recordBuild();
    write('screens/menu.json', '{"changed":true}');
    write('runtime/src/main.test.ts', 'it("x", () => {});');
    expect(runtimeIsStale(dir)).toBe(false);
  });

  it('builds when the built page is missing though a hash was recorded', () => {
    recordBuild();
    rmSync(join(dir, 'dist/runtime/index.html'));
    expect(runtimeIsStale(dir)).toBe(true);
  });
});
