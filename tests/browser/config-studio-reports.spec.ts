/**
 * Raporty in the configuration studio (issue 46, "an analyst adds a report without code"): the
 * analyst (an administrator in Konfiguracja portalu) makes "Koszt paliwa na pojazd" from
 * "Koszt pojazdów", its name in Polish, English and Ukrainian, chooses its columns, grouping and
 * chart, previews the Raporty screen as a fleet manager, publishes, and the fleet manager runs it
 * on Raporty. The journey restores the version it found at its end. Screenshots of the tab at
 * 1400 and 390 px: test-results/config-studio/reports-<width>.png.
 */
import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { axeScan, expect, signedIn, test, toast } from './support';

const RUN = Date.now().toString().slice(-6);
const SHOTS = 'test-results/config-studio';
const status = (page: Page) => page.getByTestId('draft-status');
const studio = (page: Page) => page.locator('.studio');
const openTab = async (page: Page, name: string) => {
  await studio(page).getByRole('tab', { name, exact: true }).click();
  await expect(studio(page).getByRole('tab', { name, exact: true })).toHaveAttribute('aria-selected', 'true');
};
async function openStudio(page: Page) {
  await page.goto('/app/config-studio');
  await expect(page.getByRole('heading', { level: 1, name: 'Konfiguracja portalu' })).toBeVisible();
  await expect(status(page)).toBeVisible();
}
/** The version in use in the base portal (0: as in the files). */
async function baseNumber(page: Page): Promise<number> {
  await page.getByLabel('Zakres zmian').selectOption('base');
  const match = /w użyciu wersja (\d+)/.exec(await status(page).getByTestId('published-line').innerText());
  return match ? Number(match[1]) : 0;
}

test.describe.configure({ mode: 'default' });

test('an analyst makes "Koszt paliwa na pojazd" from "Koszt pojazdów", previews it, publishes it, and a fleet manager runs it', async ({ page, browser }) => {
  test.setTimeout(300_000);
  await signedIn(page, 'admin');
  const cookies = page.getByRole('button', { name: 'Rozumiem' });
  if (await cookies.isVisible()) await cookies.click();
  await openStudio(page);
  const discard = status(page).getByRole('button', { name: 'Odrzuć wersję roboczą' });
  if (await discard.isEnabled()) {
    await discard.click();
    await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
    await expect(toast(page, 'Odrzucono wersję roboczą.')).toBeVisible();
  }
  const baseline = await baseNumber(page);
  const id = `koszt-paliwa-${RUN}`;
  const name = `Koszt paliwa na pojazd ${RUN}`;

  await openTab(page, 'Raporty');
  await page.getByRole('button', { name: 'Nowy raport na podstawie…' }).click();
  const form = page.getByRole('form', { name: 'Nowy raport na podstawie…' });
  // a taken id is refused before anything is sent
  await form.getByLabel('Na podstawie raportu').selectOption({ label: 'Koszt pojazdów (vehicle-cost)' });
  await form.getByLabel('Identyfikator').fill('vehicle-cost');
  await expect(form.getByText('Raport o identyfikatorze „vehicle-cost” już istnieje')).toBeVisible();
  await form.getByLabel('Identyfikator').fill(id);
  await form.getByLabel('Nazwa (Polski)').fill(name);
  await form.getByLabel('Nazwa (English)').fill(`Fuel cost per vehicle ${RUN}`);
  await form.getByLabel('Nazwa (Українська)').fill(`Вартість пального на авто ${RUN}`);
  await form.getByRole('button', { name: 'Utwórz raport' }).click();
  await expect(toast(page, 'Utworzono raport w wersji roboczej')).toBeVisible();
  await expect(page.getByLabel('Raport', { exact: true })).toHaveValue(`schemas/reports/${id}.json`);

  // its settings: the costs, no km columns, by vehicle then month, a doughnut of the net cost, managers only
  const editor = page.locator(`.studio-report[data-report="${id}"]`);
  await expect(editor.getByText('Ten raport istnieje tylko w konfiguracji z portalu')).toBeVisible();
  await expect(editor.getByLabel('Nazwa (Polski)')).toHaveValue(name);
  // an anomalies report's measures and groupings are not offered for a costs report
  await expect(editor.getByRole('checkbox', { name: 'Wyjaśnienie' })).toHaveCount(0);
  await expect(editor.getByRole('checkbox', { name: 'Do wyjaśnienia' })).toHaveCount(0);
  await editor.getByRole('checkbox', { name: 'Przejechane km' }).uncheck();
  await editor.getByRole('checkbox', { name: 'Koszt netto / km' }).uncheck();
  await editor.getByLabel('Następnie według').selectOption({ label: 'Miesiąc' });
  await editor.getByLabel('Rodzaj wykresu').selectOption({ label: 'Pierścieniowy' });
  await editor.getByLabel('Wartość na wykresie').selectOption({ label: 'Koszt netto' });
  await editor.getByRole('group', { name: 'Kto może uruchomić raport' }).getByRole('checkbox', { name: 'Administrator' }).uncheck();
  await editor.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano')).toBeVisible();
  await expect(status(page).getByTestId('draft-line')).toBeVisible();

  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: 900 });
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}/reports-${width}.png`, fullPage: true });
    // nothing is wider than the window
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  const serious = (await axeScan(page).include('.studio-reports').analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  // the JSON tab has the whole document
  await openTab(page, 'JSON');
  await page.getByLabel('Dokument').selectOption(`schemas/reports/${id}.json`);
  await expect(page.locator('.cm-content')).toContainText(`"report": "${id}"`);

  // the preview: the Raporty screen with the draft, as a fleet manager
  await status(page).getByRole('button', { name: 'Podgląd' }).click();
  await page.getByLabel('Rola').selectOption('MANAGER');
  await page.getByLabel('Ekran', { exact: true }).selectOption('/app/raporty');
  await page.getByRole('button', { name: 'Pokaż podgląd' }).click();
  const frame = page.frameLocator('[data-testid="preview-frame"]');
  await expect(frame.getByRole('heading', { name: 'Raporty', level: 1 })).toBeVisible({ timeout: 30_000 });
  await expect(frame.getByTestId('preview-banner')).toBeVisible();
  // the draft's report is there before it is published, and runs with the draft's columns
  await frame.getByLabel('Raport', { exact: true }).selectOption({ label: name });
  await frame.getByLabel('Okres', { exact: true }).selectOption({ label: 'Bieżący rok' });
  await expect(frame.locator('.reports-table table thead')).toContainText('Miesiąc');
  await expect(frame.locator('.reports-table table thead')).not.toContainText('Przejechane km');

  // publish; the fleet manager has it on Raporty, by its name, with its columns and chart
  await status(page).getByRole('button', { name: 'Opublikuj' }).click();
  const dialog = page.getByRole('dialog', { name: 'Opublikuj wersję roboczą' });
  await dialog.getByLabel('Komentarz (co i dlaczego zmieniono)').fill(`Nowy raport: ${name}`);
  await dialog.getByRole('button', { name: 'Opublikuj' }).click();
  await expect(toast(page, /Opublikowano \(.+: wersja \d+/)).toBeVisible();

  const context = await browser.newContext();
  const manager = await context.newPage();
  await signedIn(manager, 'manager', '/app/raporty');
  await expect(manager.getByRole('heading', { name: 'Raporty', level: 1 })).toBeVisible();
  await manager.getByLabel('Raport', { exact: true }).selectOption({ label: name });
  await manager.getByLabel('Okres', { exact: true }).selectOption({ label: 'Bieżący rok' });
  const table = manager.locator('.reports-table table');
  await expect(table.locator('thead')).toContainText('Koszt brutto');
  await expect(table.locator('thead')).toContainText('Miesiąc');
  await expect(table.locator('thead')).not.toContainText('Przejechane km');
  await expect(table.locator('tfoot')).toContainText('Razem');
  await expect(manager.locator('.report-chart canvas')).toBeVisible();
  await manager.screenshot({ path: `${SHOTS}/reports-manager-1400.png`, fullPage: true });
  await context.close();

  // the version in use when the journey began, again
  await openStudio(page);
  await openTab(page, 'Wersje');
  await page.locator(`.studio-version[data-version="${baseline}"]`).getByRole('button', { name: /Przywróć/ }).click();
  await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, new RegExp(`Przywrócono wersję ${baseline} `))).toBeVisible();
});
