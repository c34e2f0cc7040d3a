/**
 * Size budget of the built runtime (run after `npm run build`; part of `npm test`): the JavaScript
 * a page needs before it can show anything, gzipped, read from the vite manifest in dist/runtime:
 * the entry (index.html) with its static imports, plus the screen's lazy chunk with its static
 * imports. Lazy chunks the screen loads later (the PDF viewer, the password-strength dictionary)
 * are not counted. Exit 1 when a page is over its budget.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

interface ManifestChunk { file: string; imports?: string[]; dynamicImports?: string[]; css?: string[]; isEntry?: boolean }
type Manifest = Record<string, ManifestChunk>;

/**
 * Budgets (KB of gzipped JavaScript). The goals are 250 KB for the login page and 300 KB for a
 * table screen; the budgets hold today's sizes with a little room so that growth is caught:
 * the login form is rendered by the form library (@rjsf with its ajv validator, ~105 KB gzipped),
 * and ag-grid's core alone is ~270 KB gzipped even with only the modules in use
 * (screens/table/grid-modules.ts). See docs/decisions.md.
 */
export const BUDGETS_KB: { page: string; screen: string; budgetKb: number }[] = [
  { page: 'login page', screen: 'src/screens/LoginScreen.tsx', budgetKb: 280 },
  { page: 'table screen', screen: 'src/screens/TableScreen.tsx', budgetKb: 440 },
];

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

export function measure(distDir: string, budgets = BUDGETS_KB) {
  const manifestPath = join(distDir, '.vite/manifest.json');
  if (!existsSync(manifestPath)) throw new Error(`${manifestPath} is missing: run npm run build first`);
  const manifest: Manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  const entry = Object.keys(manifest).find((k) => manifest[k].isEntry);
  if (!entry) throw new Error('no entry in the vite manifest');
  const gz = (file: string) => gzipSync(readFileSync(join(distDir, file)), { level: 9 }).length;
  return budgets.map(({ page, screen, budgetKb }) => {
    const files = [...initialFiles(manifest, [entry, screen])];
    const jsKb = files.filter((f) => /\.m?js$/.test(f)).reduce((sum, f) => sum + gz(f), 0) / 1024;
    const cssKb = files.filter((f) => f.endsWith('.css')).reduce((sum, f) => sum + gz(f), 0) / 1024;
    return { page, budgetKb, jsKb, cssKb, files, ok: jsKb <= budgetKb };
  });
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = resolve(fileURLToPath(new URL('../dist/runtime', import.meta.url)));
  const results = measure(dist);
  for (const r of results) {
    console.log(`${r.ok ? 'ok  ' : 'OVER'} ${r.page}: ${r.jsKb.toFixed(1)} KB of JavaScript gzipped (budget ${r.budgetKb} KB), CSS ${r.cssKb.toFixed(1)} KB, ${r.files.length} files`);
  }
  if (results.some((r) => !r.ok)) process.exit(1);
}
