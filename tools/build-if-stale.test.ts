import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runtimeIsStale, serverIsStale } from './build-if-stale.ts';
import { loadBundle } from '../server/config/load-bundle.ts';
import { fieldColumns } from '../server/imports/engine.ts';
import { checkPlanFor } from '../server/imports/row-check.ts';
import { openCheckedRows, ROWS_WORKER_OUTPUT } from '../server/imports/rows-thread.ts';
import type { TrailChunk } from '../server/imports/trail-entries.ts';
import { entryHash } from '../server/audit/chain.ts';
import { openTrailThread, TRAIL_WORKER_OUTPUT } from '../server/imports/trail-thread.ts';
import { buildServer, SERVER_OUTPUT } from './build-server.ts';
import { HASH_FILE, runtimeSourceHash, SERVER_HASH_FILE, serverSourceHash } from '../runtime/source-hash.ts';

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

  it('builds again after a runtime source, the vite config, the lock file or the built-in start-up texts changed', () => {
    for (const [file, text] of [['runtime/src/main.tsx', 'export const x = 1;'], ['runtime/vite.config.ts', 'export default { base: "/" };'], ['package-lock.json', '{"lockfileVersion":3,"x":1}'], ['locales/pl/app.json', '{"loading":"…"}']]) {
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

describe('npm start compiles the server only when its sources changed', () => {
  let dir: string;
  const write = (path: string, text: string) => {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  const recordBuild = () => {
    write(SERVER_OUTPUT, 'export {};');
    write(SERVER_HASH_FILE, `${serverSourceHash(dir)}\n`);
  };
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-server-build-'));
    write('server/main.ts', 'export {};');
    write('runtime/core/conditions.ts', 'export {};');
    write('runtime/src/main.tsx', 'export {};');
    write('tools/build-server.ts', 'export {};');
    write('package-lock.json', '{"lockfileVersion":3}');
    write('screens/menu.json', '{}');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('compiles when there is no compiled server yet, or its output is gone', () => {
    expect(serverIsStale(dir)).toBe(true);
    recordBuild();
    expect(serverIsStale(dir)).toBe(false);
    rmSync(join(dir, SERVER_OUTPUT));
    expect(serverIsStale(dir)).toBe(true);
  });

  it('compiles again after a server source, a shared runtime/core module, the lock file or the recipe changed', () => {
    for (const file of ['server/main.ts', 'server/db/new-module.ts', 'runtime/core/conditions.ts', 'package.json', 'package-lock.json', 'tools/build-server.ts']) {
      recordBuild();
      write(file, `export const changed = ${JSON.stringify(file)};`);
      expect(serverIsStale(dir), file).toBe(true);
    }
  });

  it('ignores the browser-only runtime, the configuration and tests', () => {
    recordBuild();
    write('runtime/src/main.tsx', 'export const x = 1;');
    write('screens/menu.json', '{"changed":true}');
    write('server/app.test.ts', 'it("x", () => {});');
    expect(serverIsStale(dir)).toBe(false);
  });
});

describe('the compiled server', () => {
  let dir: string;
  beforeEach(() => {
    // inside the project: the compiled modules find their libraries in its node_modules
    const scratch = join(import.meta.dirname, '..', '.tmp');
    mkdirSync(scratch, { recursive: true });
    dir = mkdtempSync(join(scratch, 'server-out-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is one module that imports only libraries and Node built-ins, no TypeScript source', async () => {
    const outfile = join(dir, 'main.js');
    await buildServer(join(import.meta.dirname, '..'), outfile);
    const code = readFileSync(outfile, 'utf8');
    const specifiers = [...code.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
    expect(specifiers.length).toBeGreaterThan(5);
    expect(specifiers.filter((s) => s.startsWith('.') || s.endsWith('.ts'))).toEqual([]);
    expect(specifiers).toContain('fastify');
    // the server's own modules are inside (the route plugins, the shared condition evaluator)
    expect(code).toMatch(/ConditionEvaluator = class/);
  });

  it('runs the rows of an import and its trail entries on the threads compiled beside it, with their libraries only', async () => {
    await buildServer(join(import.meta.dirname, '..'), join(dir, 'main.js'));
    for (const output of [ROWS_WORKER_OUTPUT, TRAIL_WORKER_OUTPUT]) {
      const code = readFileSync(join(dir, output), 'utf8');
      const specifiers = [...code.matchAll(/^import\s[^'"]*['"]([^'"]+)['"]/gm)].map((m) => m[1]);
      expect(specifiers.filter((s) => s.startsWith('.') || s.endsWith('.ts'))).toEqual([]);
    }
    // the trail thread makes a chunk's entries as this thread does
    const chunk: TrailChunk = {
      head: { seq: 4, hash: 'a'.repeat(64) }, author: { kind: 'system', job: 'import', label: 'Anna Nowak · pojazdy.csv', session: 'import-1' },
      resource: 'car', action: 'create', copy: true, rows: [{ _trailKey: '7', _trailBefore: '{}', _trailAfter: '{"rejestr":"WZ1","rok":2024}' }],
    };
    const trailThread = openTrailThread(pathToFileURL(join(dir, TRAIL_WORKER_OUTPUT)));
    try {
      const made = await trailThread.make(chunk);
      const [seq, at, actorKind, , , , , job, actorLabel, , session, resource, recordKey, action, changes, prevHash, hash] = made.copyText.trimEnd().split('\t');
      expect(made.count).toBe(1);
      expect(made.head).toEqual({ seq: 5, hash });
      expect([seq, actorKind, job, actorLabel, session, resource, recordKey, action, prevHash]).toEqual(['5', 'system', 'import', 'Anna Nowak · pojazdy.csv', 'import-1', 'car', '7', 'create', 'a'.repeat(64)]);
      expect(JSON.parse(changes)).toEqual({ rejestr: [null, 'WZ1'], rok: [null, 2024] });
      expect(hash).toBe(entryHash({ seq: 5, at, actorKind: 'system', userId: null, role: null, keyId: null, accountId: null, job, actorLabel, address: null, session, resource, recordKey, action, changes: JSON.parse(changes), prevHash }));
    } finally {
      await trailThread.close();
    }
    const bundle = loadBundle({ root: join(import.meta.dirname, '..'), variant: 'default' });
    const decl = bundle.imports.car;
    async function* file() {
      yield Buffer.from('VIN;Nr rejestracyjny\nVF1AAA;WZ1\nVF1BBB;\n');
    }
    const rows = await openCheckedRows(file(), {
      format: 'csv', fileName: 'pojazdy.csv', plan: checkPlanFor(bundle, decl), locales: bundle.locales, language: { id: 'pl', locale: 'pl-PL' }, maxRows: 10,
      copyText: true, batchRows: 100, batchesAhead: 1, nice: 0,
    }, pathToFileURL(join(dir, ROWS_WORKER_OUTPUT)));
    try {
      const { columnIndex, columnOf } = fieldColumns(decl, rows.head.columns, { VIN: 'nrPodw', 'Nr rejestracyjny': 'rejestr' });
      const batches = [];
      for await (const batch of rows.batches(columnIndex, columnOf)) batches.push(batch);
      expect(batches).toEqual([{ type: 'batch', total: 2, values: [],
        copyText: '2\t{"nrPodw":"VF1AAA","rejestr":"WZ1"}\t["VF1AAA","WZ1"]\n',
        errors: [[3, 'Nr rejestracyjny', expect.stringMatching(/\S/), '["VF1BBB",""]']] }]);
    } finally {
      await rows.close();
    }
  });
});
