/**
 * Journeys through the table features of issue 4: the orders list's icon columns and status
 * choice filter, the contracts' Aktualne / Archiwalne / Wszystkie, tyre tread with one decimal, the
 * vehicle details' embedded tables, and saved filters and views that follow the user to another
 * browser (a fresh browser context has no localStorage of the first one).
 */
import { type Page } from '@playwright/test';
import { expect, openColumnFilter, rowCount, signedIn, test } from './support.ts';


/** Scrolls the grid body sideways so that columns at the right end are rendered. */
async function scrollGridRight(page: Page) {
  await page.locator('.ag-body-horizontal-scroll-viewport').evaluate((el) => (el.scrollLeft = el.scrollWidth));
}

const parseDay = (text: string) => {
  const [d, m, y] = text.split('.').map(Number);
  return new Date(y, m - 1, d);
};

test('orders: status icons, the highlighted "Autoryzowano", Z/K/T icons, order type, and a status choice filter', async ({ page }) => {
  await signedIn(page, 'manager', '/app/order');
  await expect(page.locator('.ag-row[row-index="0"]').first()).toBeVisible();

  // Filter by the status choice list: the user ticks a label, the server gets the code.
  await openColumnFilter(page, 'status');
  const filterPanel = page.getByRole('group', { name: 'Pokaż wiersze o wartościach' });
  await expect(filterPanel.getByLabel('Zgłoszono')).toBeVisible();
  const filtered = page.waitForResponse((r) => r.url().endsWith('/api/order/table2') && (r.request().postData() ?? '').includes('"values":[4]'));
  await filterPanel.getByLabel('Autoryzowano', { exact: true }).check();
  await filtered;
  await page.keyboard.press('Escape');
  await expect(page.locator('.ag-cell[col-id="statusZnaczenie"]').first()).toHaveText('Autoryzowano');
  const statusTexts = await page.locator('.ag-cell[col-id="statusZnaczenie"]').allInnerTexts();
  expect(new Set(statusTexts)).toEqual(new Set(['Autoryzowano']));
  await expect(page.locator('.ag-cell[col-id="statusZnaczenie"].cell-highlight-success').first()).toBeVisible();
  await expect(page.locator('.ag-cell[col-id="status"] [role="img"]').first()).toHaveAttribute('aria-label', 'Autoryzowano');

  // Z, K, T and the order type at the right end of the list.
  await scrollGridRight(page);
  for (const [colId, header] of Object.entries({ reporterRole: 'Z', czyKosztorys: 'K', czyTermin: 'T', autTyp: 'Rodzaj zlecenia' })) {
    await expect(page.locator(`.ag-header-cell[col-id="${colId}"] .ag-header-cell-text`)).toHaveText(header);
  }
  await expect(page.locator('.ag-cell[col-id="reporterRole"] [role="img"]').first()).toHaveAttribute('aria-label', /Użytkownik pojazdu|Doradca serwisowy|Fleet Manager|Administrator/);
  await expect(page.locator('.ag-cell[col-id="czyKosztorys"] [aria-label="Jest kosztorys"]').first()).toBeVisible();
  await expect(page.locator('.ag-cell[col-id="autTyp"]').first()).toHaveText(/Przegląd|Naprawa|Opony|Szkoda|Badanie techniczne|Raport/);
  await page.screenshot({ path: 'test-results/orders-icons.png' });

  // A plain status: no highlight.
  await page.locator('.ag-body-horizontal-scroll-viewport').evaluate((el) => (el.scrollLeft = 0));
  await openColumnFilter(page, 'status');
  const reset = page.waitForResponse((r) => r.url().endsWith('/api/order/table2') && (r.request().postData() ?? '').includes('"values":[0]'));
  await filterPanel.getByLabel('Autoryzowano', { exact: true }).uncheck();
  await filterPanel.getByLabel('Zgłoszono', { exact: true }).check();
  await reset;
  await page.keyboard.press('Escape');
  await expect(page.locator('.ag-cell[col-id="statusZnaczenie"]').first()).toHaveText('Zgłoszono');
  await expect(page.locator('.ag-cell[col-id="statusZnaczenie"].cell-highlight-success')).toHaveCount(0);
});

test('contracts: Aktualne by default, Archiwalne, Wszystkie = both, kept after a reload', async ({ page }) => {
  const firstRequest = page.waitForRequest((r) => r.url().endsWith('/api/contract/table2'));
  await signedIn(page, 'manager', '/app/contract');
  expect((await firstRequest).postDataJSON().filterModel).toEqual({ dataTyp: { filterType: 'set', values: ['current'] } });
  const choice = page.getByRole('group', { name: 'Pokaż kontrakty' });
  await expect(choice.getByRole('radio', { name: 'Aktualne' })).toBeChecked();
  // rows are drawn before their block arrives: wait for a date before reading them all
  await expect(page.locator('.ag-cell[col-id="dataDo"]').filter({ hasText: /\d/ }).first()).toBeVisible();
  const today = new Date();
  today.setHours(0, 0, 0, 0);
  for (const text of await page.locator('.ag-cell[col-id="dataDo"]').allInnerTexts()) if (text) expect(parseDay(text) >= today).toBe(true);
  await expect(page.getByTestId('row-count')).toContainText(/\d/);
  const current = await rowCount(page);
  await page.screenshot({ path: 'test-results/contracts-current.png' });

  const archiveBlock = page.waitForResponse((r) => r.url().endsWith('/api/contract/table2') && (r.request().postData() ?? '').includes('"archive"'));
  await choice.getByText('Archiwalne').click();
  await expect(choice.getByRole('radio', { name: 'Archiwalne' })).toBeChecked();
  const archiveRows: { dataDo: string }[] = (await (await archiveBlock).json()).rows;
  expect(archiveRows.length).toBeGreaterThan(0);
  expect(archiveRows.every((r) => new Date(`${r.dataDo}T00:00:00`) < today)).toBe(true);
  // a number, and another one than before (NaN while the new count is on its way)
  await expect.poll(async () => { const n = await rowCount(page); return !Number.isNaN(n) && n !== current; }).toBe(true);
  const archive = await rowCount(page);
  await expect(page.locator('.ag-row[row-index="0"] .ag-cell[col-id="umowaNr"]')).toHaveText(/UM\//);

  await choice.getByText('Wszystkie').click();
  await expect.poll(() => rowCount(page)).toBe(current + archive);

  await page.reload();
  await expect(page.getByRole('group', { name: 'Pokaż kontrakty' }).getByRole('radio', { name: 'Wszystkie' })).toBeChecked();
  await expect.poll(() => rowCount(page)).toBe(current + archive);
});

test('tyres show the tread with one decimal; the vehicle details embed the car’s tyres, fuel cards and contracts without vehicle columns', async ({ page }) => {
  await signedIn(page, 'admin', '/app/tire');
  // the infinite row model draws a row before its block has arrived: wait for the first tread
  await expect(page.locator('.ag-row[row-index="0"] .ag-cell[col-id="stanBieznika"]').first()).toHaveText(/mm$/);
  const treads = (await page.locator('.ag-cell[col-id="stanBieznika"]').allInnerTexts()).filter(Boolean);
  expect(treads.length).toBeGreaterThan(0);
  for (const tread of treads) expect(tread).toMatch(/^\d+,\d\smm$/);
  await page.screenshot({ path: 'test-results/tires.png' });

  await page.goto('/app/dane-pojazdu');
  await openColumnFilter(page, 'rejestr');
  await page.locator('.ag-filter input[type="text"]').first().fill('WZ12345');
  await expect(page.locator('.ag-row[row-index="1"]')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.locator('.ag-row .ag-cell[col-id="rejestr"]', { hasText: 'WZ12345' }).first().click();
  const dialog = page.getByRole('dialog');
  for (const [tab, firstColumn] of [['Opony', 'statusOp'], ['Karta paliwowa', 'nrKarty'], ['Kontrakt', 'umowaNr']] as const) {
    await dialog.getByRole('tab', { name: tab }).click();
    const panel = dialog.getByRole('tabpanel');
    await expect(panel.locator(`.ag-header-cell[col-id="${firstColumn}"]`)).toBeVisible();
    await expect(panel.locator('.ag-header-cell[col-id="rejestr"]')).toHaveCount(0);
    await expect(panel.locator('.ag-row[row-index="0"]').first()).toBeVisible();
  }
  await expect(dialog.getByRole('tabpanel').locator('.ag-cell[col-id="umowaNr"]').first()).toHaveText('UM/2023/000001');
  await page.screenshot({ path: 'test-results/vehicle-details-contracts.png' });
});

test('a saved filter follows the manager to another browser; names are required and unique', async ({ page, browser }) => {
  await signedIn(page, 'manager', '/app/order');
  await expect(page.getByTestId('row-count')).toContainText(/\d/);
  const all = await rowCount(page);

  await openColumnFilter(page, 'rejestr');
  const narrowed = page.waitForResponse((r) => r.url().endsWith('/api/order/table2') && (r.request().postData() ?? '').includes('WZ12345'));
  await page.locator('.ag-filter input[type="text"]').first().fill('WZ12345');
  await narrowed;
  await page.keyboard.press('Escape');
  await expect.poll(() => rowCount(page)).toBeLessThan(all);
  const mine = await rowCount(page);

  const filters = page.getByTestId('saved-filters');
  await filters.getByRole('button', { name: 'Filtry' }).click();
  await expect(filters.getByText('Brak zapisanych filtrów')).toBeVisible();
  await filters.getByRole('button', { name: 'Zapisz bieżący filtr…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Zapisz filtr' });
  await dialog.getByRole('button', { name: 'Zapisz' }).click();
  await expect(dialog.getByText('Nazwa filtru jest wymagana')).toBeVisible();
  await dialog.getByLabel('Nazwa filtru').fill('Moje WZ12345');
  await dialog.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByText('Zapisano filtr „Moje WZ12345”')).toBeVisible();
  await expect(dialog).toHaveCount(0);

  await filters.getByRole('button', { name: 'Filtry' }).click();
  await filters.getByRole('button', { name: 'Zapisz bieżący filtr…' }).click();
  await page.getByRole('dialog', { name: 'Zapisz filtr' }).getByLabel('Nazwa filtru').fill('Moje WZ12345');
  await page.getByRole('dialog', { name: 'Zapisz filtr' }).getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByRole('dialog', { name: 'Zapisz filtr' }).getByText('Filtr o podanej nazwie już istnieje')).toBeVisible();
  await page.screenshot({ path: 'test-results/saved-filter-duplicate.png' });
  await page.getByRole('dialog', { name: 'Zapisz filtr' }).getByRole('button', { name: 'Anuluj' }).click();

  // Another browser: nothing in its localStorage, the filter comes from the server.
  const other = await browser.newContext({ locale: 'pl-PL', viewport: { width: 1400, height: 900 } });
  const page2 = await other.newPage();
  await signedIn(page2, 'manager', '/app/order');
  await expect.poll(() => rowCount(page2)).toBe(all);
  const filters2 = page2.getByTestId('saved-filters');
  await filters2.getByRole('button', { name: 'Filtry' }).click();
  await filters2.getByRole('button', { name: 'Moje WZ12345', exact: true }).click();
  await expect.poll(() => rowCount(page2)).toBe(mine);
  await expect.poll(async () => [...new Set(await page2.locator('.ag-cell[col-id="rejestr"]').allInnerTexts())]).toEqual(['WZ12345']);

  await filters2.getByRole('button', { name: 'Filtry' }).click();
  await filters2.getByRole('button', { name: 'Usuń „Moje WZ12345”' }).click();
  await expect(page2.getByText('Usunięto filtr „Moje WZ12345”')).toBeVisible();
  await expect(filters2.getByText('Brak zapisanych filtrów')).toBeVisible();
  await other.close();
});

test('a saved column view (order and visibility) follows the manager to another browser', async ({ page, browser }) => {
  await signedIn(page, 'manager');
  // The layout a user made by dragging headers: three columns, in this order, the rest hidden.
  const hidden = ['rejestr', 'dataOd', 'oplPrzekmIle', 'opmRataTresc', 'opmRataIle', 'opmSerwTresc', 'opmSerwIle', 'opmUbezTresc', 'opmUbezIle'];
  await page.evaluate((hiddenColIds) => {
    localStorage.setItem('portal.table.CONTRACT_TABLE', JSON.stringify({
      columnOrder: { orderedColIds: ['dataDo', 'umowaNr', 'limitKmOgol', ...hiddenColIds] },
      columnVisibility: { hiddenColIds },
    }));
  }, hidden);
  await page.goto('/app/contract');
  const headers = (p: Page) => p.locator('.ag-header-row-column .ag-header-cell').evaluateAll((cells) => cells.map((c) => c.getAttribute('col-id')));
  await expect.poll(() => headers(page)).toEqual(['dataDo', 'umowaNr', 'limitKmOgol']);

  const views = page.getByTestId('saved-views');
  await views.getByRole('button', { name: 'Widoki' }).click();
  await views.getByRole('button', { name: 'Zapisz bieżący widok…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Zapisz widok kolumn' });
  await dialog.getByRole('button', { name: 'Zapisz' }).click();
  await expect(dialog.getByText('Nazwa widoku jest wymagana')).toBeVisible();
  await dialog.getByLabel('Nazwa widoku').fill('Terminy');
  await dialog.getByRole('button', { name: 'Zapisz' }).click();
  await expect(page.getByText('Zapisano widok „Terminy”')).toBeVisible();

  const other = await browser.newContext({ locale: 'pl-PL', viewport: { width: 1400, height: 900 } });
  const page2 = await other.newPage();
  await signedIn(page2, 'manager', '/app/contract');
  await expect.poll(() => headers(page2)).toContain('opmRataTresc');
  const views2 = page2.getByTestId('saved-views');
  await views2.getByRole('button', { name: 'Widoki' }).click();
  await views2.getByRole('button', { name: 'Terminy', exact: true }).click();
  await expect.poll(() => headers(page2)).toEqual(['dataDo', 'umowaNr', 'limitKmOgol']);
  await page2.screenshot({ path: 'test-results/saved-view-applied.png' });

  await views2.getByRole('button', { name: 'Widoki' }).click();
  await views2.getByRole('button', { name: 'Usuń „Terminy”' }).click();
  await expect(page2.getByText('Usunięto widok „Terminy”')).toBeVisible();
  await other.close();
});

test('orders: scrolling asks for the next block with the cursor of the block before it; an estimated count reads "około"', async ({ page }) => {
  // The e2e database is small, so the server's answer to the first block is turned into what a
  // list beyond the count cap gets: an estimate, and no known end (the grid grows as it scrolls).
  await page.route('**/api/order/table2', async (route) => {
    const body = route.request().postDataJSON();
    if (body.startRow !== 0) return route.continue();
    const response = await route.fetch();
    const page0 = await response.json();
    await route.fulfill({ response, json: { ...page0, count: 1_003_412, estimated: true, lastRow: -1 } });
  });
  const blocks: { startRow: number; cursor?: string }[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/order/table2')) blocks.push(r.postDataJSON());
  });
  await signedIn(page, 'manager', '/app/order');
  await expect(page.locator('.ag-row[row-index="0"]').first()).toBeVisible();
  await expect(page.getByTestId('row-count')).toHaveText(/^Liczba rekordów: około 1\s000\s000$/);

  await page.locator('.ag-row[row-index="0"] .ag-cell[col-id="rejestr"]').hover();
  for (let i = 0; i < 10 && !blocks.some((b) => b.startRow === 30); i++) {
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(300);
  }
  const second = blocks.find((b) => b.startRow === 30);
  expect(second?.cursor).toEqual(expect.any(String));
  expect(blocks.find((b) => b.startRow === 0)?.cursor).toBeUndefined();
  await expect(page.locator('.ag-row[row-index="30"]').first()).toBeVisible();
});
