/**
 * Raporty (issue 46): the fleet manager chooses a report, sees a chart and a table with totals of
 * his client's vehicles, opens the rows behind a total and a vehicle; at 1400 and 390 px, with axe.
 */
import { type Page } from '@playwright/test';
import { axeScan, expect, signIn, test } from './support.ts';

async function expectAccessible(page: Page) {
  const serious = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

for (const width of [1400, 390]) {
  test(`a manager reads what his vehicles cost, drills into a total and opens a vehicle (${width} px)`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signIn(page, 'manager');
    await page.goto('/app/raporty');
    // the cookie notice lies over the page's foot on a phone; a person closes it
    await page.getByRole('button', { name: 'Rozumiem' }).click();
    await expect(page.getByRole('heading', { name: 'Raporty', level: 1 })).toBeVisible();
    const table = page.locator('.reports-table table');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    await page.getByLabel('Raport', { exact: true }).selectOption({ label: 'Koszt pojazdów' });
    await page.getByLabel('Okres', { exact: true }).selectOption({ label: 'Bieżący rok' });
    await expect(table.locator('thead')).toContainText('Koszt netto / km');
    await expect(table).toContainText('WZ12345');
    await expect(table.locator('tfoot')).toContainText('Razem');
    await expect(page.locator('.report-chart canvas')).toBeVisible();
    await page.screenshot({ path: `test-results/reports-${width}.png`, fullPage: true });
    await expectAccessible(page);

    // a header sorts the rows in the database, by that column; a second click turns the order round
    const headers = await table.locator('thead th').allInnerTexts();
    const column = headers.findIndex((text) => text.trim() === 'Koszt netto / km');
    expect(column, headers.join(' | ')).toBeGreaterThan(-1);
    const header = table.locator('thead th').nth(column);
    /** The column's numbers as the page shows them (Polish: spaces between thousands, a decimal comma); an empty cell is left out. */
    const shownNumbers = async () => (await table.locator('tbody tr').locator(`td:nth-child(${column + 1})`).allInnerTexts())
      .map((text) => text.replace(/[^\d,-]/g, '').replace(',', '.')).filter((text) => text !== '').map(Number);
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'ascending');
    await expect.poll(async () => { const n = await shownNumbers(); return n.length > 1 && n.every((x, i) => i === 0 || n[i - 1] <= x); }).toBe(true);
    await header.getByRole('button').click();
    await expect(header).toHaveAttribute('aria-sort', 'descending');
    await expect.poll(async () => { const n = await shownNumbers(); return n.length > 1 && n.every((x, i) => i === 0 || n[i - 1] >= x); }).toBe(true);
    // by month: each month by its name, as the reader's language writes it (lis 2026), never the key 2026-11
    await page.getByLabel('Grupuj według', { exact: true }).selectOption({ label: 'Miesiąc' });
    await expect(table.locator('thead th').first()).toHaveText('Miesiąc');
    await expect(table.locator('tbody tr').first()).toBeVisible();
    const months = await table.locator('tbody tr td:first-child').allInnerTexts();
    expect(months.length).toBeGreaterThan(0);
    for (const month of months) expect(month.trim()).toMatch(/^(sty|lut|mar|kwi|maj|cze|lip|sie|wrz|paź|lis|gru) \d{4}$/);
    await page.getByLabel('Grupuj według', { exact: true }).selectOption({ label: 'Pojazd' });
    await expect(table).toContainText('WZ12345');
    const file = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Pobierz Excel' }).click();
    expect((await file).suggestedFilename()).toMatch(/^Koszt pojazdów .*\.xlsx$/);

    // costs per cost centre: the total opens the vehicles behind it
    await page.getByLabel('Raport', { exact: true }).selectOption({ label: 'Koszty wg MPK' });
    await expect(table.locator('thead')).toContainText('MPK');
    await table.locator('tfoot').getByRole('button', { name: 'Razem' }).click();
    await expect(table.locator('thead')).toContainText('Pojazd');
    await page.getByRole('link', { name: /WZ12345/ }).first().click();
    await expect(page).toHaveURL(/\/app\/dane-pojazdu\?open=\d+/);
  });
}
