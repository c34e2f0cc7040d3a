import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measure, screenChunkKey } from './size-budget.ts';

describe('the size budget of the runtime', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'portal-size-'));
    mkdirSync(join(dir, '.vite'), { recursive: true });
    mkdirSync(join(dir, 'assets'));
    // random bytes do not compress: the gzipped size is about the file size
    const file = (name: string, kb: number) => writeFileSync(join(dir, 'assets', name), randomBytes(kb * 1024));
    file('index.js', 5);
    file('mount.js', 95);
    file('shared.js', 20);
    file('Login.js', 10);
    file('Table.js', 150);
    file('Pdf.js', 500);
    writeFileSync(join(dir, '.vite/manifest.json'), JSON.stringify({
      // the entry imports the runtime's start when the page needs it (runtime/src/start-gate.ts)
      'index.html': { file: 'assets/index.js', isEntry: true, dynamicImports: ['src/mount.tsx'] },
      'src/mount.tsx': { file: 'assets/mount.js', imports: ['index.html'], dynamicImports: ['src/screens/login/Login.tsx', 'src/screens/table/view/index.tsx'] },
      _shared: { file: 'assets/shared.js' },
      'src/screens/login/Login.tsx': { file: 'assets/Login.js', imports: ['_shared', 'index.html'], dynamicImports: ['src/Pdf.tsx'] },
      'src/screens/table/view/index.tsx': { file: 'assets/Table.js', imports: ['_shared'] },
      'src/Pdf.tsx': { file: 'assets/Pdf.js' },
    }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  // each screen type's folder module names its component; the component may be a folder of its own
  const modules: Record<string, string> = {
    login: `export const screenType = { ...loginChecks, component: lazy(() => import('./Login')) };`,
    'details-table': `export const screenType = { ...checks, component: lazy(() => import('./Nope')) };`,
    table: `export const screenType = {\n  ...tableChecks,\n  component: lazy(() => import('./view')),\n};`,
    page: `export const screenType = { type: 'page' };`,
  };
  const registry = (type: string) => modules[type];

  it("counts the entry, the runtime's start and the screen's static imports once each, not what it loads later", () => {
    const [login] = measure(dir, registry, [{ page: 'login', screenType: 'login', budgetKb: 200 }]);
    expect(login.files.sort()).toEqual(['assets/Login.js', 'assets/index.js', 'assets/mount.js', 'assets/shared.js']);
    expect(login.jsKb).toBeGreaterThan(130);
    expect(login.jsKb).toBeLessThan(132);
    expect(login.ok).toBe(true);
  });

  it('fails a page over its budget', () => {
    const [table] = measure(dir, registry, [{ page: 'table', screenType: 'table', budgetKb: 200 }]);
    expect(table.jsKb).toBeGreaterThan(200);
    expect(table.ok).toBe(false);
  });

  it('counts a page reached from another by what it adds to that page, and holds its total to a budget of its own', () => {
    // the table screen shares index.js, mount.js and shared.js with the login page: only Table.js is new
    const [within] = measure(dir, registry, [{ page: 'table', screenType: 'table', after: 'login', budgetKb: 160, totalBudgetKb: 280 }]);
    expect(within.addedKb).toBeGreaterThan(149);
    expect(within.addedKb).toBeLessThan(152);
    expect(within.jsKb).toBeGreaterThan(270);
    expect(within.ok).toBe(true);
    const [overAdded] = measure(dir, registry, [{ page: 'table', screenType: 'table', after: 'login', budgetKb: 140, totalBudgetKb: 280 }]);
    expect(overAdded.ok).toBe(false);
    const [overTotal] = measure(dir, registry, [{ page: 'table', screenType: 'table', after: 'login', budgetKb: 160, totalBudgetKb: 260 }]);
    expect(overTotal.ok).toBe(false);
  });

  it('reports a chunk the page loads later by what it adds to the page, and holds it to its own budget', () => {
    // Pdf.js is a dynamic import of the login screen: not in the page, counted on its own
    const [login] = measure(dir, registry, [{ page: 'login', screenType: 'login', budgetKb: 200, lazy: [{ name: 'pdf', module: 'src/Pdf.tsx', budgetKb: 600 }] }]);
    expect(login.files).not.toContain('assets/Pdf.js');
    expect(login.lazy[0].jsKb).toBeGreaterThan(499);
    expect(login.lazy[0].jsKb).toBeLessThan(502);
    expect(login.ok).toBe(true);
    const [over] = measure(dir, registry, [{ page: 'login', screenType: 'login', budgetKb: 200, lazy: [{ name: 'pdf', module: 'src/Pdf.tsx', budgetKb: 400 }] }]);
    expect(over.lazy[0].ok).toBe(false);
    expect(over.ok).toBe(false);
  });

  it('finds a screen type\'s chunk through the registry, and says so when it cannot', () => {
    const manifest = { 'src/screens/login/Login.tsx': { file: 'a.js' }, 'src/screens/table/view/index.tsx': { file: 'b.js' } };
    expect(screenChunkKey(manifest, modules.table, 'table')).toBe('src/screens/table/view/index.tsx');
    expect(screenChunkKey(manifest, modules.login, 'login')).toBe('src/screens/login/Login.tsx');
    expect(() => screenChunkKey(manifest, modules.page, 'page')).toThrow(/no lazy component/);
    expect(() => screenChunkKey(manifest, modules['details-table'], 'details-table')).toThrow(/not in the vite manifest/);
  });
});
