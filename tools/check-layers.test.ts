import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { forbiddenImports, importsOf, importsUpTheLayers } from './check-layers.ts';

describe('the server imports nothing from runtime/src', () => {
  const made: string[] = [];
  const tree = (files: Record<string, string>) => {
    const base = mkdtempSync(join(tmpdir(), 'layers-'));
    made.push(base);
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(base, path, '..'), { recursive: true });
      writeFileSync(join(base, path), text);
    }
    return base;
  };
  afterAll(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

  it('names every kind of import of runtime/src, with file and line', () => {
    const base = tree({
      'server/a.ts': "import { x } from '../runtime/src/x.ts';\n",
      'server/deep/b.ts': "const y = 1;\nimport type { Y } from '../../runtime/src/screens/y';\nexport { z } from '../../runtime/src/z.ts';\n",
      'server/c.test.ts': "type T = import('../runtime/src/t.ts').T;\nconst m = await import('../runtime/src/m.ts');\n",
    });
    expect(forbiddenImports(base).sort()).toEqual([
      'server/a.ts:1: ../runtime/src/x.ts',
      'server/c.test.ts:1: ../runtime/src/t.ts',
      'server/c.test.ts:2: ../runtime/src/m.ts',
      'server/deep/b.ts:2: ../../runtime/src/screens/y',
      'server/deep/b.ts:3: ../../runtime/src/z.ts',
    ]);
  });

  it('lets only the declared file import only its declared views (the login first paint), and names any other', () => {
    const base = tree({
      'server/init/first-paint.ts': "import { LoginView } from '../../runtime/src/screens/login/LoginView.tsx';\nimport { x } from '../../runtime/src/x.ts';\n",
      'server/other.ts': "import { LoginView } from '../runtime/src/screens/login/LoginView.tsx';\n",
    });
    const allowed = { 'server/init/first-paint.ts': ['runtime/src/screens/login/LoginView.tsx'] };
    expect(forbiddenImports(base, 'server', 'runtime/src', allowed).sort()).toEqual([
      'server/init/first-paint.ts:2: ../../runtime/src/x.ts',
      'server/other.ts:1: ../runtime/src/screens/login/LoginView.tsx',
    ]);
  });

  it('lets the server import runtime/core, packages, and words that only look like the path', () => {
    const base = tree({
      'server/ok.ts': [
        "import { merge } from '../runtime/core/merge.ts';",
        "import ts from 'typescript';",
        "// import { x } from '../runtime/src/x.ts';",
        "const text = \"from '../runtime/src/x.ts'\";",
        "import { y } from '../runtime/src-old/y.ts';",
      ].join('\n'),
    });
    expect(forbiddenImports(base)).toEqual([]);
  });

  it('reads each import with its line', () => {
    expect(importsOf('x.ts', "\nimport a from './a';\n\nexport * from './b';")).toEqual([{ spec: './a', line: 2 }, { spec: './b', line: 4 }]);
  });

  it('this tree: server/ imports nothing from runtime/src', () => {
    expect(forbiddenImports()).toEqual([]);
  });

  it('names an import that runs back up the ground rooms, and one of server/routes/ from anywhere but app.ts', () => {
    const base = tree({
      'server/db/rows.ts': "import type { A } from '../config/bundle.ts';\nimport { m } from '../migrations/index.ts';\n",
      'server/config/cross-check.ts': "import { check } from '../anomalies/check.ts';\nimport { q } from '../db/rows.ts';\nimport { r } from './reminders-check.ts';\n",
      'server/audit/names.ts': "import { rows } from '../resources/rows.ts';\nimport { s } from '../access/row-scope.ts';\nimport x from '../../runtime/core/x.ts';\n",
      'server/inspections/service.ts': "import { scope } from '../routes/scopes.ts';\nimport { recordChange } from '../audit/index.ts';\n",
      'server/app.ts': "import routes from './routes/orders.ts';\n",
      'server/config/x.test.ts': "import { buildApp } from '../app.ts';\nimport routes from '../routes/orders.ts';\n",
    });
    expect(importsUpTheLayers(base).sort()).toEqual([
      'server/audit/names.ts:1: ../resources/rows.ts',
      'server/config/cross-check.ts:1: ../anomalies/check.ts',
      'server/db/rows.ts:1: ../config/bundle.ts',
      'server/inspections/service.ts:1: ../routes/scopes.ts',
    ]);
  });

  it('this tree: no import runs back up the server\'s layers', () => {
    expect(importsUpTheLayers()).toEqual([]);
  });
});
