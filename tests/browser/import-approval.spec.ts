/**
 * Imports: what the user approves is what happens (issue 49). After the dry run, another choice
 * ("Wycofaj", "Tylko poprawne wiersze") marks its numbers stale and locks "Importuj" until the file
 * is checked again; "Importuj" asks with the dry run's numbers, and retiring more than the declared
 * share of the client's vehicles asks for that number typed. The history shows imports and dry runs
 * apart, opens a run, and is not cut off at 900 or 390 px. Nothing is imported here (the server's
 * side of it is tests/api/import-approval.test.ts). With SHOTS=1 photographed at 1400, 900, 390 px.
 */
import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { axeScan, expect, signIn, test } from './support.ts';

const SHOTS = 'test-results/import-approval';

async function look(page: Page, name: string) {
  const serious = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  if (!process.env.SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

test('a choice changed after the dry run makes its numbers stale; Importuj names them and asks for the number of vehicles it retires', async ({ page }) => {
  const tag = String(Date.now() % 100000).padStart(5, '0');
  const csv = `VIN;Klient;Nr rejestracyjny\nAPRV${tag}00000001;KL001;WA${tag}A\nAPRV${tag}00000002;KL001;WA${tag}B\n`;
  await signIn(page, 'admin');
  await page.getByRole('button', { name: 'Rozumiem' }).click();
  await page.goto('/app/data-import');
  const step = page.getByTestId('import-step');
  await step.getByRole('radio', { name: /^Pojazdy/ }).check();
  await step.getByRole('button', { name: 'Dalej' }).click();
  await step.getByLabel('albo wybierz plik z dysku').setInputFiles({ name: 'trzy-pojazdy.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await expect(page.getByTestId('import-detected')).toBeVisible();
  await step.getByRole('button', { name: 'Dalej' }).click();
  await step.getByRole('button', { name: 'Sprawdź plik (przebieg próbny)' }).click();

  const counts = page.getByTestId('import-counts');
  const importButton = step.getByRole('button', { name: 'Importuj' });
  await expect(counts.locator('[data-count="new"] dd')).toHaveText('2');
  await expect(counts.locator('[data-count="deactivated"] dd')).toHaveText('0');
  await expect(importButton).toBeEnabled();

  // "Wycofaj" after the dry run: its "Do wycofania 0" is no promise any more
  await step.getByRole('radio', { name: 'Wycofaj' }).check();
  await expect(page.getByTestId('import-stale')).toContainText('Wyniki nieaktualne');
  await expect(importButton).toBeDisabled();
  await look(page, '1-stale');
  // back to what was checked: the numbers hold again; the other choice makes them stale too
  await step.getByRole('radio', { name: 'Pozostaw' }).check();
  await expect(page.getByTestId('import-stale')).toHaveCount(0);
  await expect(importButton).toBeEnabled();
  await step.getByRole('radio', { name: 'Tylko poprawne wiersze' }).check();
  await expect(importButton).toBeDisabled();
  await step.getByRole('radio', { name: 'Wszystko albo nic' }).check();

  // checked again with "Wycofaj": every other vehicle of KL001 is counted, and Importuj says so
  await step.getByRole('radio', { name: 'Wycofaj' }).check();
  await page.getByTestId('import-stale').getByRole('button', { name: 'Sprawdź ponownie' }).click();
  await expect(page.getByTestId('import-stale')).toHaveCount(0);
  await expect(counts.locator('[data-count="deactivated"] dd')).not.toHaveText('0');
  const retired = (await counts.locator('[data-count="deactivated"] dd').innerText()).trim();
  await expect(step.getByRole('radio', { name: 'Wycofaj' })).toBeChecked();
  await importButton.click();
  const confirm = page.getByRole('dialog', { name: 'Importować plik?' });
  await expect(confirm.getByTestId('import-confirm-question')).toHaveText(`Pojazdy (z polisami): dodać 2, zmienić 0, wycofać ${retired}?`);
  const typed = confirm.getByLabel(`Import wycofa ${retired} rekordów. Aby potwierdzić, wpisz tę liczbę:`);
  const go = confirm.getByRole('button', { name: 'Importuj' });
  await expect(go).toBeDisabled();
  await typed.fill('1');
  await expect(go).toBeDisabled();
  await expect(confirm).toContainText('Wpisana liczba nie zgadza się');
  await typed.fill(retired);
  await expect(go).toBeEnabled();
  await look(page, '2-confirm');
  await confirm.getByRole('button', { name: 'Anuluj' }).click();
  await expect(confirm).toHaveCount(0);

  // the history: imports by default, the dry runs apart; a dry run opens with its counts
  const history = page.getByTestId('import-history');
  await history.getByLabel('Pokaż').selectOption({ label: 'Przebiegi próbne' });
  await expect(history.locator('tbody tr').first()).toContainText('trzy-pojazdy.csv');
  await expect(history.locator('tbody tr[data-mode="import"]')).toHaveCount(0);
  await history.getByLabel('Pokaż').selectOption({ label: 'Importy' });
  await expect(history.locator('tbody tr[data-mode="dryRun"]')).toHaveCount(0);
  await history.getByLabel('Pokaż').selectOption({ label: 'Przebiegi próbne' });
  await expect(history.locator('tbody tr').first()).toContainText('trzy-pojazdy.csv');

  // at 900 px every header is seen whole; at 390 px every value is within the screen
  for (const width of [900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const region = history.getByRole('region');
    const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
    expect(overflow, `the history scrolls sideways at ${width} px`).toBeLessThanOrEqual(0);
    const rightmost = await history.locator('th, td').evaluateAll((cells) => Math.max(...cells.filter((c) => c.getBoundingClientRect().width > 1).map((c) => c.getBoundingClientRect().right)));
    expect(rightmost).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await history.locator('tbody tr').first().getByRole('button', { name: /^Otwórz przebieg pliku trzy-pojazdy\.csv/ }).click();
  const details = page.getByRole('dialog', { name: 'Przebieg próbny: trzy-pojazdy.csv' });
  await expect(details.getByTestId('import-counts').locator('[data-count="deactivated"] dd')).toHaveText(retired);
  await expect(details).toContainText('Wycofaj');
  await look(page, '3-history-run');
  await details.getByRole('button', { name: 'Zamknij' }).first().click();
  if (process.env.SHOTS) {
    for (const width of [1400, 900, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await history.scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/4-history-${width}.png`, fullPage: true });
    }
  }
});
