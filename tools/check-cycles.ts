/**
 * `npm run check`: fails when modules of runtime/ or server/ import each other in a circle (issue
 * 10: a cycle makes the order of evaluation an accident and a module's code hard to move). madge
 * builds the import graph with TypeScript's own resolution (tsconfig.json). Type-only imports count
 * (issue 23): they vanish when compiled, but two modules that need each other's types still cannot
 * be read, tested or moved one without the other; the shared types go to a module of their own.
 * Dynamic `import()` counts too (a lazily loaded screen that imported its registry would still be a circle).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import madge from 'madge';

const root = resolve(import.meta.dirname, '..');

/** The import cycles among the .ts/.tsx files under `dirs`, each as the list of files in it. */
export async function findCycles(dirs: string[], baseDir = root): Promise<string[][]> {
  const detective = { skipTypeImports: false, skipAsyncImports: false };
  const graph = await madge(dirs.map((d) => resolve(baseDir, d)), {
    baseDir,
    fileExtensions: ['ts', 'tsx'],
    excludeRegExp: [/node_modules/, /\.d\.ts$/],
    tsConfig: resolve(root, 'tsconfig.json'),
    detectiveOptions: { ts: detective, tsx: { ...detective, jsx: true } },
  });
  return graph.circular();
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const cycles = await findCycles(['runtime', 'server']);
  if (cycles.length) {
    console.error(`${cycles.length} import cycle(s) in runtime/ or server/ (break each by moving the shared part into a module of its own, or by passing it through React context):`);
    for (const cycle of cycles) console.error(`  ${[...cycle, cycle[0]].join(' → ')}`);
    process.exit(1);
  }
  console.log('No import cycles in runtime/ or server/.');
}
