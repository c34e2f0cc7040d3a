/**
 * Fuel anomalies (issue 46): the fleet manager sees his vehicles' refuelling anomalies on the Pulpit
 * (the seed's 58 l into WZ12345's 50 l tank), explains one with a note — it leaves the list — and
 * finds it among the explained ones of Raporty → Anomalie paliwowe (at 1400 px); the section, the
 * dialog and the report read at 900 and 390 px too.
 */
import { type Page } from '@playwright/test';
import { axeScan, expect, signedIn, test, toast } from './support.ts';

async function expectAccessible(page: Page) {
  const serious = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const iso = (d: Date) => d.toISOString().slice(0, 10);

test('a manager sees a refuelling anomaly on the Pulpit, explains it and finds it explained in Raporty', async ({ page }) => {
  await journey(page, 1400, true);
});

for (const width of [900, 390]) {
  test(`the anomalies on the Pulpit, the explanation dialog and the report at ${width} px`, async ({ page }) => {
    await journey(page, width, false);
  });
}

async function journey(page: Page, width: number, explain: boolean) {
  await page.setViewportSize({ width, height: 900 });
  await signedIn(page, 'manager', '/app/pulpit');
  const section = page.locator('[data-section="fuel-anomalies"]');
  await expect(section.getByRole('heading', { name: 'Anomalie tankowań do wyjaśnienia' })).toBeVisible();
  // the seed's fill over the tank; a row on a wide page, a card on a narrow one
  const item = section.locator('[data-key]').filter({ hasText: 'Tankowanie ponad pojemność zbiornika' }).first();
  if (explain) {
    await expect(item).toContainText('WZ12345');
    await expect(item).toContainText('Zatankowano 58 l, a zbiornik mieści 50 l');
  }
  const key = explain ? await item.getAttribute('data-key') : null;
  await page.screenshot({ path: `test-results/fuel-anomalies-pulpit-${width}.png`, fullPage: true });
  await expectAccessible(page);

  // the first journey explained the seed's fill over the tank; any anomaly left opens the dialog
  const row = explain ? item : section.locator('[data-key]').first();
  await row.getByRole('button', { name: 'Wyjaśnij' }).click();
  const dialog = page.getByRole('dialog', { name: 'Wyjaśnij anomalię' });
  await expect(dialog).toBeVisible();
  // without a note nothing is saved, and the field says why
  await dialog.getByRole('button', { name: 'Zapisz wyjaśnienie' }).click();
  await expect(dialog).toContainText('Wpisz wyjaśnienie anomalii');
  await dialog.getByLabel('Wyjaśnienie').fill('Tankowanie kanistra do agregatu na budowie');
  await page.screenshot({ path: `test-results/fuel-anomalies-explain-${width}.png` });
  if (explain) {
    await dialog.getByRole('button', { name: 'Zapisz wyjaśnienie' }).click();
    await expect(toast(page, 'Anomalia oznaczona jako wyjaśniona')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(section.locator(`[data-key="${key}"]`)).toHaveCount(0);
  } else {
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  }

  // Raporty → Anomalie paliwowe, over the last two months: the vehicle's explained anomaly counted
  await page.goto('/app/raporty');
  const notice = page.getByRole('button', { name: 'Rozumiem' });
  if (await notice.isVisible()) await notice.click();
  await page.getByLabel('Raport', { exact: true }).selectOption({ label: 'Anomalie paliwowe' });
  await page.getByLabel('Okres', { exact: true }).selectOption({ label: 'Własny okres' });
  const today = new Date();
  await page.getByLabel('Od', { exact: true }).fill(iso(new Date(today.getTime() - 60 * 86_400_000)));
  await page.getByLabel('Do', { exact: true }).fill(iso(today));
  const table = page.locator('.reports-table table');
  await expect(table.locator('thead')).toContainText('Do wyjaśnienia');
  await page.getByLabel('Grupuj według', { exact: true }).selectOption({ label: 'Wyjaśnienie' });
  await expect(table.locator('tbody')).toContainText(explain ? 'wyjaśnione' : /wyjaśnione|do wyjaśnienia/);
  await expect(table.locator('tfoot')).toContainText('Razem');
  await page.screenshot({ path: `test-results/fuel-anomalies-report-${width}.png`, fullPage: true });
  await expectAccessible(page);
}
