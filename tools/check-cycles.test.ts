import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findCycles } from './check-cycles.ts';

describe('the import cycle check', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-cycles-'));
    const file = (path: string, text: string) => {
      mkdirSync(join(dir, path, '..'), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    // a registry importing a screen that imports the registry back, lazily
    file('circle/registry.ts', "import { Screen } from './screen/Screen';\nexport const registry = { Screen };\n");
    file('circle/screen/Screen.tsx', "export const Screen = () => import('../view');\n");
    file('circle/view.ts', "import { registry } from './registry.ts';\nexport const view = registry;\n");
    // the same shape broken by context: the view imports only the context module
    file('clean/registry.ts', "import { Screen } from './Screen';\nexport const registry = { Screen };\n");
    file('clean/Screen.tsx', "import { context } from './context';\nexport const Screen = () => context;\n");
    file('clean/context.ts', 'export const context = {};\n');
    // a type-only import back is a cycle too: the two modules cannot be understood or moved apart
    file('types/a.ts', "import type { B } from './b';\nexport interface A { b?: B }\n");
    file('types/b.ts', "import { make } from './c';\nexport type B = ReturnType<typeof make>;\n");
    file('types/c.ts', "import type { A } from './a';\nexport const make = (a?: A) => a;\n");
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a circle of imports, dynamic import included', async () => {
    const cycles = await findCycles(['circle'], dir);
    expect(cycles).toHaveLength(1);
    expect([...cycles[0]].sort()).toEqual(['circle/registry.ts', 'circle/screen/Screen.tsx', 'circle/view.ts']);
  });

  it('passes modules that share through a module of their own', async () => {
    expect(await findCycles(['clean'], dir)).toEqual([]);
  });

  it('finds a circle closed by a type-only import', async () => {
    const cycles = await findCycles(['types'], dir);
    expect(cycles).toHaveLength(1);
    expect([...cycles[0]].sort()).toEqual(['types/a.ts', 'types/b.ts', 'types/c.ts']);
  });
});
