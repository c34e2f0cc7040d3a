/**
 * Exports as a user meets them (issue 4): a manager filters the orders and saves an Excel file that
 * holds the visible columns and the filtered rows; the administrator saves the acceptance history
 * as a ;-separated CSV; a client variant with a lower export limit answers with the spec's message.
 * The files are the real downloads (Playwright's download event), read back with the xlsx package.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Page } from '@playwright/test';
import * as XLSX from 'xlsx';
import { dropSchema } from '../../server/db/connect.ts';
import { ACCOUNTS, expect, openColumnFilter, rowCount, signedIn, submitLogin, test, toast } from './support.ts';
import { PORT } from './ports';
import { seededPGliteDataDir } from '../../server/seed/testing.ts';


test('a manager exports the filtered orders to Excel: the visible columns in order, the filtered rows', async ({ page }) => {
  await signedIn(page, 'manager', '/app/order');
  await expect(page.locator('.ag-row[row-index="0"] .ag-cell[col-id="statusZnaczenie"]')).toHaveText(/\S/);
  const all = await rowCount(page);

  await openColumnFilter(page, 'status');
  const filtered = page.waitForResponse((r) => r.url().endsWith('/api/order/table2') && (r.request().postData() ?? '').includes('"values":[4]'));
  await page.getByRole('group', { name: 'Pokaż wiersze o wartościach' }).getByLabel('Autoryzowano', { exact: true }).check();
  await filtered;
  await page.keyboard.press('Escape');
  await expect.poll(() => rowCount(page)).toBeLessThan(all);
  const count = await rowCount(page);
  expect(count).toBeGreaterThan(0);

  const button = page.getByRole('button', { name: 'Eksport do Excel' });
  await expect(button).toBeVisible();
  await page.locator('.table-screen-head').screenshot({ path: 'test-results/export-toolbar.png' });

  // hold the request at the browser until the button has shown that it is busy, then let it through
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/order/excel/prepare', async (route) => {
    await held;
    await route.continue();
  });
  const prepared = page.waitForRequest((r) => r.url().endsWith('/api/order/excel/prepare'));
  const downloaded = page.waitForEvent('download');
  await button.click();
  const busy = page.getByRole('button', { name: 'Przygotowywanie pliku…' });
  await expect(busy).toBeDisabled();
  await expect(busy).toHaveAttribute('aria-busy', 'true');
  await page.locator('.table-screen-head').screenshot({ path: 'test-results/export-toolbar-busy.png' });
  release();

  const request = (await prepared).postDataJSON();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^Zlecenia \d{2}\.\d{2}\.\d{4}\.xlsx$/);
  await expect(page.getByRole('button', { name: 'Eksport do Excel' })).toBeEnabled();

  // what was asked: the displayed columns, left to right, with the grid's filter and sort
  expect(request.rowParams).toMatchObject({ startRow: 0, endRow: 20000, filterModel: { status: { filterType: 'set', values: [4] } } });
  expect(request.columnNames.slice(0, 3)).toEqual(['Stan', 'Status', 'Nr zlecenia']);
  expect(request.fieldNames).not.toContain('zgloNazwiskoImie'); // hidden by default

  const book = XLSX.read(readFileSync(await download.path()), { type: 'buffer' });
  const rows = XLSX.utils.sheet_to_json<unknown[]>(book.Sheets[book.SheetNames[0]], { header: 1, defval: null });
  expect(rows[0]).toEqual(request.columnNames);
  const data = rows.slice(1);
  expect(data).toHaveLength(count);
  // both columns show the status (one as its text, one as an icon): found by their headers
  const status = request.columnNames.indexOf('Status');
  const icon = request.columnNames.indexOf('Stan');
  expect(new Set(data.map((r) => r[status]))).toEqual(new Set(['Autoryzowano']));
  expect(new Set(data.map((r) => r[icon]))).toEqual(new Set(['Autoryzowano'])); // the icon column as its meaning
  const firstShown = await page.locator('.ag-row[row-index="0"] .ag-cell[col-id="autNr"]').innerText();
  expect(data[0][request.fieldNames.indexOf('autNr')]).toBe(firstShown);
});

test('the administrator saves the acceptance history as a CSV with ;', async ({ page }) => {
  await signedIn(page, 'admin', '/app/acceptance-history');
  await expect(page.locator('.ag-row[row-index="0"] .ag-cell[col-id="login"]')).toHaveText(/\S/);
  const count = await rowCount(page);
  const firstLogin = await page.locator('.ag-row[row-index="0"] .ag-cell[col-id="login"]').innerText();
  const firstDate = await page.locator('.ag-row[row-index="0"] .ag-cell[col-id="acceptedAt"]').innerText();

  const downloaded = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Eksport do CSV' }).click();
  const download = await downloaded;
  expect(download.suggestedFilename()).toMatch(/^Historia akceptacji \d{2}\.\d{2}\.\d{4}\.csv$/);
  const bytes = readFileSync(await download.path());
  expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  const lines = bytes.toString('utf8').slice(1).split('\r\n').filter(Boolean);
  expect(lines[0]).toBe('Użytkownik;Imię;Nazwisko;Klient;Nazwa dokumentu;Grupa dokumentu;Data akceptacji');
  expect(lines).toHaveLength(count + 1);
  const first = lines[1].split(';');
  expect(first[0]).toBe(firstLogin);
  expect(first[6]).toBe(firstDate); // DD.MM.YYYY HH:mm, as the grid shows it
});

test.describe('a client variant with a lower export limit', () => {
  // A second server of the same build with the example variant (excelExportLimit 50), on its own database.
  const port = PORT + 50;
  const schema = `${process.env.E2E_SCHEMA || 'e2e'}_variant_${process.env.TEST_PARALLEL_INDEX || 0}`;
  let server: ChildProcess | undefined;
  let dataDir: string | undefined;
  test.use({ baseURL: `http://127.0.0.1:${port}` });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), PORTAL_VARIANT: 'example', SECOND_FACTOR_OPTIONAL: '1', LOG: 'off' }; // the demo admin signs in with the password, as on serve.ts's server
    if (process.env.DATABASE_URL) {
      await dropSchema({ databaseUrl: process.env.DATABASE_URL, schema });
      env.DATABASE_SCHEMA = schema;
    } else {
      dataDir = mkdtempSync(join(tmpdir(), 'portal-e2e-variant-'));
      await seededPGliteDataDir(dataDir); // the seeded snapshot: the seed does not depend on the variant
      env.DATA_DIR = dataDir;
    }
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: 'ignore' });
    for (;;) {
      if (server.exitCode !== null) throw new Error(`the variant server stopped (${server.exitCode})`);
      const up = await fetch(`http://127.0.0.1:${port}/api/health`).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((r) => setTimeout(r, 500));
    }
  });

  test.afterAll(async () => {
    if (server && server.exitCode === null) {
      const stopped = new Promise((r) => server!.once('exit', r));
      server.kill('SIGTERM');
      await stopped;
    }
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    if (process.env.DATABASE_URL) await dropSchema({ databaseUrl: process.env.DATABASE_URL, schema });
  });

  test('more orders than the limit: the spec\'s message, and no file', async ({ page }) => {
    let downloads = 0;
    page.on('download', () => downloads++);
    // the example variant lands its managers on the Pulpit (its screens/routes.json: landing per role)
    await submitLogin(page, ACCOUNTS.manager);
    await expect(page).toHaveURL(/\/app\/pulpit$/);
    await page.goto('/app/order');
    await expect(page.locator('.ag-row[row-index="0"] .ag-cell[col-id="statusZnaczenie"]')).toHaveText(/\S/);
    expect(await rowCount(page)).toBeGreaterThan(50);
    const refused = page.waitForResponse((r) => r.url().endsWith('/api/order/excel/prepare'));
    await page.getByRole('button', { name: 'Eksport do Excel' }).click();
    expect((await refused).status()).toBe(400);
    await expect(toast(page, 'Dane przekraczają limit 50 pozycji. Użyj filtrów, aby zawęzić dane do eksportu.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Eksport do Excel' })).toBeEnabled();
    await page.screenshot({ path: 'test-results/export-over-limit.png' });
    await page.locator('.table-screen-head').screenshot({ path: 'test-results/export-over-limit-toolbar.png' });
    expect(downloads).toBe(0);
  });
});
