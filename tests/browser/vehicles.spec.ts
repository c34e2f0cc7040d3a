import { axeScan, expect, signedIn, test } from './support.ts';

test('the manager scrolls the vehicles table, block after block, and opens a vehicle’s details', async ({ page }) => {
  const blocks: { startRow: number; endRow: number }[] = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/car/table2')) blocks.push(JSON.parse(r.postData() ?? '{}'));
  });
  await signedIn(page, 'manager');
  await expect(page.getByRole('heading', { name: 'Dane pojazdu' })).toBeVisible();
  await expect(page.locator('.ag-row[row-index="0"]').first()).toBeVisible();
  await expect(page.getByTestId('row-count')).toContainText(/\d+/);
  expect(blocks[0]).toMatchObject({ startRow: 0, endRow: 30 });

  // Scroll down with the mouse wheel, as a person would: the grid asks for the next block of 30.
  await page.locator('.ag-row[row-index="0"] .ag-cell[col-id="marka"]').hover();
  for (let i = 0; i < 10 && !blocks.some((b) => b.startRow === 30); i++) {
    await page.mouse.wheel(0, 800);
    await page.waitForTimeout(300);
  }
  expect(blocks.some((b) => b.startRow === 30 && b.endRow === 60)).toBe(true);
  await expect(page.locator('.ag-row[row-index="30"]').first()).toBeVisible();

  // Dates are DD.MM.YYYY (the grid draws only the columns in view: scroll sideways to the date).
  const readingDate = page.locator('.ag-cell[col-id="aktDataLicz"]').first();
  for (let x = 300; x <= 3000 && !(await readingDate.count()); x += 300) {
    await page.locator('.ag-body-horizontal-scroll-viewport').evaluate((el, left) => (el.scrollLeft = left), x);
  }
  await expect(readingDate).toHaveText(/^\d{2}\.\d{2}\.\d{4}$/);
  await page.locator('.ag-body-horizontal-scroll-viewport').evaluate((el) => (el.scrollLeft = 0));
  await page.screenshot({ path: 'test-results/vehicles-table.png' });

  await page.mouse.wheel(0, -20000);
  await page.locator('.ag-row[row-index="0"] .ag-cell[col-id="rejestr"]').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  for (const tab of ['Dane pojazdu', 'Użytkownik pojazdu', 'Karta paliwowa', 'Polisy', 'Opony', 'Kontrakt']) {
    await expect(dialog.getByRole('tab', { name: tab })).toBeVisible();
  }
  await dialog.getByRole('tab', { name: 'Opony' }).click();
  await expect(dialog.locator('.ag-root')).toBeVisible();
  await page.screenshot({ path: 'test-results/vehicle-details.png' });
  const serious = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('the manager filters the vehicles table on the server', async ({ page }) => {
  await signedIn(page, 'manager');
  const header = page.locator('.ag-header-cell[col-id="rejestr"]');
  await header.hover();
  await header.locator('.ag-header-cell-filter-button, .ag-header-icon.ag-header-cell-menu-button').first().click();
  const response = page.waitForResponse((r) => r.url().endsWith('/api/car/table2') && (r.request().postData() ?? '').includes('WZ12345'));
  await page.locator('.ag-filter input[type="text"]').first().fill('WZ12345');
  await response;
  await expect(page.locator('.ag-row[row-index="1"]')).toHaveCount(0);
  await expect(page.locator('.ag-cell[col-id="rejestr"]')).toHaveText('WZ12345');
  await expect(page.getByTestId('row-count')).toContainText('1');
});

test('the insurance tab is disabled when a vehicle has no policy data', async ({ page }) => {
  await signedIn(page, 'admin');
  const bare = page.locator('.ag-row .ag-cell[col-id="rejestr"]', { hasText: 'WZ67890' });
  const header = page.locator('.ag-header-cell[col-id="rejestr"]');
  await header.hover();
  await header.locator('.ag-header-cell-filter-button, .ag-header-icon.ag-header-cell-menu-button').first().click();
  await page.locator('.ag-filter input[type="text"]').first().fill('WZ67890');
  await expect(bare).toBeVisible();
  await page.keyboard.press('Escape');
  await bare.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('tab', { name: 'Polisy' })).toBeDisabled();
  await expect(dialog.getByRole('tab', { name: 'Dane pojazdu' })).toBeEnabled();
});

for (const account of ['kierowca', 'doradca'] as const) {
  test(`${account} sees the single-vehicle panels of WZ12345`, async ({ page }) => {
    await signedIn(page, account);
    for (const panel of ['Akcje', 'Dane pojazdu', 'Użytkownik pojazdu']) {
      await expect(page.getByRole('heading', { name: panel, exact: true }).first()).toBeVisible();
    }
    await expect(page.locator('[data-panel="contract"]')).toHaveCount(account === 'doradca' ? 0 : 1);
    await expect(page.locator('[data-panel="vehicle"]')).toContainText('WZ12345');
    await expect(page.locator('.ag-root')).toHaveCount(0);
    await page.screenshot({ path: `test-results/panels-${account}.png`, fullPage: true });
  });
}
