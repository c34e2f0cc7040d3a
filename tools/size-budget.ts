/**
 * Size budget of the built runtime (run after `npm run build`; part of `npm test`): the JavaScript
 * a page needs before it can show anything, gzipped, read from the vite manifest in dist/runtime:
 * the entry (index.html) and the runtime's start (START_MODULE) with their static imports, plus the
 * screen's lazy chunk with its static imports. Lazy chunks the screen loads later (the PDF viewer, the password-strength dictionary)
 * are not counted; a page may name some of them (`lazy`: the dashboard's charts) to have their
 * own size reported and held to a budget. Exit 1 when a page or a named chunk is over its budget.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk { file: string; name?: string; imports?: string[]; dynamicImports?: string[]; css?: string[]; isEntry?: boolean }
type Manifest = Record<string, ManifestChunk>;

/**
 * Budgets (KB of gzipped JavaScript), the goals of issue 11, tightened by issue 33.
 *
 * - `budgetKb`: the page's own JavaScript. A page reached from another one (`after`) is counted
 *   by what it adds to that page's files, which the browser already has: the table screen is
 *   reached after signing in, and the issue's own figure for it was its chunk ("the table
 *   screen's chunk 1.2 MB"). The login page has no page before it: all of its files count.
 * - `totalBudgetKb`: everything the page needs, the shared entry included. The table screen's
 *   total cannot reach 300 while the tables are ag-grid (36's core alone, createGrid with no
 *   module, is ~185 KB gzipped; the entry every page shares ~112 KB): it holds a little over
 *   today's size, so growth still fails `npm test` (docs/decisions.md, "Size budget", and
 *   "Login page speed and load shedding").
 */
/**
 * - `lazy`: chunks the page loads later, by their vite manifest key, each counted by what it adds
 *   to the page's own files: the dashboard's chart.js (chart-setup.ts, a dynamic import inside the
 *   charts section) is not part of the dashboard's initial JavaScript, but must stay small too.
 */
export interface LazyBudget { name: string; module: string; budgetKb: number }
export interface Budget { page: string; screenType: string; after?: string; budgetKb: number; totalBudgetKb?: number; lazy?: LazyBudget[] }
export const BUDGETS_KB: Budget[] = [
  // 250 → 120 with issue 33 (measured 181.2 → 118.8): no ajv on the login page (core/json-schema.ts),
  // the screen types' cross-checks out of the browser, react-bootstrap's modal, toasts and the
  // signed-in shell loaded when first shown, the signing code with the first write.
  // Back to 120 with issue 49 (121 for a day after issues 47 and 48: 120.2 → 119.6 with the served
  // first paint's takeover in it): the second step's code, the uiSchema builder, the password checks
  // and the client-side messages out of the login page (docs/decisions.md "Size budget: the debt paid")
  // 120 → 121 with issue 47 (119.9 → 120.03): the API client's loader of the phone's offline memory
  // (one dynamic import, ~0.16 KB; pwa/offline.ts itself loads only for a signed-in user); with
  // the fields' rules kept in the framework chunk rather than a file of their own (vite.config.ts)
  // 121 → 120 again (120.03 → 119.99): the office's seldom opened screens fetch their files as their
  // code asks, no longer named in the list of files the entry carries (runtime/vite.config.ts modulePreload)
  // 120 → 121 with issue 49 (119.99 → 120.5): the page itself now loads 2.1 KB (the entry: the press
  // holder and start-gate.ts); the runtime comes at the visitor's first use, the framework chunk with
  // the runtime's start in it, and the loader's own file costs its compression apart. As served
  // (brotli, the .br files) the page's JavaScript went down, 105.0 → 103.9 KB (docs/decisions.md,
  // "The login page starts the runtime on the visitor's first use").
  // 121 → 122 (120.97 → 121.05): a language chosen on the page is kept in the browser's cookie store
  // before the page loads again in it (config/i18n.ts rememberLanguage: a load that overtook the
  // cookie came back in the old language, docs/decisions.md "A language choice kept before the page
  // loads again").
  { page: 'login page', screenType: 'login', budgetKb: 122 },
  // 427 → 380 in all with issue 33 (measured 426.4 → 374.1): the login page's savings, and the
  // files cell (with its dialog) and the export's code loaded when used; the table's own part grew
  // as react-bootstrap left the entry (257.8 → 261.6)
  // 265 → 266 after the login page, 380 → 381 in all (264.86 → 265.2, 379.8 → 380.1): every table's
  // rows on a phone as lines, with the invoices' download button drawn there (screens/table/narrow.ts,
  // 134 bytes), and the filter and sort the user set kept across the phone's layout and back
  // (TableScreen.tsx, ~0.2 KB); the chunk is ag-grid's core and twelve of its modules, the runtime's
  // own code ~15 KB of it
  { page: 'table screen', screenType: 'table', after: 'login', budgetKb: 266, totalBudgetKb: 381 },
  {
    // 25 → 30 after the login page with issue 33 (what the entry no longer carries — react-bootstrap,
    // the value formats — comes with the page: 10.2 → 26.5), 200 → 145 in all (178.8 → 139.0)
    // back to 30 with issue 49 (31 for a day: 30.2 after the merges of issues 46–48; 21.5 once the
    // call actions' Tak/Nie and shown-once modals load with the first call that opens one)
    page: 'dashboard screen', screenType: 'dashboard', after: 'login', budgetKb: 30, totalBudgetKb: 145,
    lazy: [{ name: 'charts (chart.js, bar and line only)', module: 'src/screens/dashboard/chart-setup.ts', budgetKb: 65 }],
  },
  {
    // the configuration studio (issue 26): the page with its status and tab bar; each tab is a chunk
    // of its own, and the JSON editor (CodeMirror 6 with the JSON-schema help) loads only in the JSON tab.
    // Issue 33: 25 → 30 after the login page, 200 → 145 in all (as the dashboard); the JSON editor
    // 150 → 170: it now brings ajv's compiler, which the login page no longer has (131.5 → 164.1)
    page: 'configuration studio', screenType: 'studio', after: 'login', budgetKb: 30, totalBudgetKb: 145,
    lazy: [{ name: 'JSON editor (CodeMirror 6, JSON schema)', module: 'src/screens/studio/json-editor/JsonEditor.tsx', budgetKb: 170 }],
  },
  // Import danych (issue 34): the five steps and the history, no library of its own (react-bootstrap's
  // form parts, the signed multipart of the API client); loaded only when the screen is opened
  { page: 'data import screen', screenType: 'data-import', after: 'login', budgetKb: 30, totalBudgetKb: 145 },
];

/**
 * The vite manifest key of a screen type's component, read from its folder's module
 * (runtime/src/screens/<type>/index.ts: `component: lazy(() => import('./LoginScreen'))`), so the
 * budget follows the component wherever it moves inside the folder.
 */
export function screenChunkKey(manifest: Manifest, moduleSource: string, screenType: string): string {
  const match = /component\s*:\s*lazy\(\s*\(\)\s*=>\s*import\(\s*['"]([^'"]+)['"]/.exec(moduleSource);
  if (!match) throw new Error(`screen type ${screenType} has no lazy component in runtime/src/screens/${screenType}/index.ts`);
  const base = `src/screens/${screenType}/${match[1].replace(/^\.\//, '')}`.replace(/\.tsx?$/, '');
  const key = [`${base}.tsx`, `${base}.ts`, `${base}/index.tsx`, `${base}/index.ts`].find((k) => manifest[k]);
  if (!key) throw new Error(`${base} (screen type ${screenType}) is not in the vite manifest`);
  return key;
}

/**
 * The runtime's start, which the entry imports when the page needs it (runtime/src/start-gate.ts:
 * on the served sign-in page, at the visitor's first use): every page's JavaScript before it shows
 * its own screen, counted with the entry. Its chunk is src/mount.tsx's, or the one the entry imports
 * (runtime/vite.config.ts gathers the start into the framework chunk).
 */
export const START_MODULE = 'src/mount.tsx';
export function startChunkKey(manifest: Manifest, entry: string): string {
  const key = manifest[START_MODULE] ? START_MODULE : manifest[entry].dynamicImports?.length === 1 ? manifest[entry].dynamicImports[0] : undefined;
  if (!key) throw new Error(`${START_MODULE} (the runtime's start, which the entry imports) is not in the vite manifest`);
  return key;
}

/** Files a chunk needs at once: itself and its static imports, transitively. */
export function initialFiles(manifest: Manifest, keys: string[]): Set<string> {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the vite manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return files;
}

/** `moduleSource(type)`: the text of runtime/src/screens/<type>/index.ts. */
export function measure(distDir: string, moduleSource: (screenType: string) => string, budgets: Budget[] = BUDGETS_KB) {
  const manifestPath = join(distDir, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run npm run build first`);
  const manifest: Manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('no entry in the vite manifest');
  const gz = (file: string) => gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  const kb = (files: string[], pattern: RegExp) => files.filter((f) => pattern.test(f)).reduce((sum, f) => sum + gz(f), 0) / 1024;
  const start = startChunkKey(manifest, entry);
  const pageFiles = (screenType: string) => [...initialFiles(manifest, [entry, start, screenChunkKey(manifest, moduleSource(screenType), screenType)])];
  return budgets.map(({ page, screenType, after, budgetKb, totalBudgetKb, lazy = [] }) => {
    const files = pageFiles(screenType);
    const jsKb = kb(files, /\.m?js$/);
    const cssKb = kb(files, /\.css$/);
    const before = after ? new Set(pageFiles(after)) : undefined;
    const addedKb = before ? kb(files.filter((f) => !before.has(f)), /\.m?js$/) : undefined;
    const own = new Set(files);
    const lazyChunks = lazy.map(({ name, module, budgetKb: limit }) => {
      const jsOfChunk = kb([...initialFiles(manifest, [module])].filter((f) => !own.has(f)), /\.m?js$/);
      return { name, budgetKb: limit, jsKb: jsOfChunk, ok: jsOfChunk <= limit };
    });
    const ok = (addedKb ?? jsKb) <= budgetKb && (totalBudgetKb === undefined || jsKb <= totalBudgetKb) && lazyChunks.every((c) => c.ok);
    return { page, after, budgetKb, totalBudgetKb, jsKb, addedKb, cssKb, files, lazy: lazyChunks, ok };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = resolve(fileURLToPath(new URL('../dist/runtime', import.meta.url)));
  const screens = fileURLToPath(new URL('../runtime/src/screens/', import.meta.url));
  const results = measure(dist, (type) => readFileSync(join(screens, type, 'index.ts'), 'utf8'));
  for (const r of results) {
    const own = r.addedKb === undefined
      ? `${r.jsKb.toFixed(1)} KB of JavaScript gzipped (budget ${r.budgetKb} KB)`
      : `${r.addedKb.toFixed(1)} KB of JavaScript gzipped after the ${r.after} page (budget ${r.budgetKb} KB), ${r.jsKb.toFixed(1)} KB with it (budget ${r.totalBudgetKb} KB)`;
    console.log(`${r.ok ? 'ok  ' : 'OVER'} ${r.page}: ${own}, CSS ${r.cssKb.toFixed(1)} KB, ${r.files.length} files`);
    for (const c of r.lazy) console.log(`${c.ok ? 'ok  ' : 'OVER'}   loaded later by the ${r.page}: ${c.name}, ${c.jsKb.toFixed(1)} KB of JavaScript gzipped (budget ${c.budgetKb} KB)`);
  }
  if (results.some((r) => !r.ok)) process.exit(1);
}
