/**
 * Report subscriptions on Raporty (issue 46): a fleet manager subscribes to the report he is
 * looking at (monthly, PDF), sees it in his list, sends it now ("Wyślij teraz": the send appears in
 * its log) and deletes it after confirming. At 1400, 900 and 390 px the dialog and the list are
 * looked at (screenshots); the journey itself runs once.
 */
import { axeScan, closeToasts, expect, signedIn, test } from './support.ts';

test('a manager subscribes to a report on Raporty, sees it listed, sends it now and deletes it', async ({ page }) => {
  await page.setViewportSize({ width: 1400, height: 900 });
  await signedIn(page, 'manager', '/app/raporty');
  await expect(page.getByRole('heading', { name: 'Raporty', level: 1 })).toBeVisible();
  // the cookie notice lies over the page's foot; a person closes it
  await page.getByRole('button', { name: 'Rozumiem' }).click();
  await page.getByLabel('Raport', { exact: true }).selectOption({ label: 'Koszt pojazdów' });

  await page.getByRole('button', { name: 'Subskrybuj' }).click();
  const dialog = page.getByRole('dialog', { name: /Subskrypcja raportu „Koszt pojazdów”/ });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Jak często').selectOption({ label: 'Co miesiąc' });
  await dialog.getByLabel('Dzień miesiąca').selectOption('3');
  await dialog.getByLabel('Godzina').selectOption({ label: '06:00' });
  await dialog.getByLabel('Format pliku').selectOption({ label: 'PDF' });
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `test-results/report-subscribe-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await dialog.getByRole('button', { name: 'Subskrybuj' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Zapisano subskrypcję raportu „Koszt pojazdów”.')).toBeVisible();

  const list = page.getByRole('region', { name: 'Subskrypcje raportów' });
  const item = list.getByRole('listitem', { name: 'Koszt pojazdów' }).last();
  await expect(item).toContainText('Co miesiąc, 3. dnia, o 06:00 · PDF');
  await expect(item).toContainText('Jeszcze nie wysłano.');

  await item.getByRole('button', { name: 'Wyślij teraz' }).click();
  await expect(page.getByText(/jest w drodze na adres e-mail właściciela subskrypcji/)).toBeVisible();
  await expect(item).toContainText('(na żądanie)');
  // the toasts read, a person closes them and looks at the list
  await closeToasts(page);
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await list.screenshot({ path: `test-results/report-subscriptions-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  const serious = (await axeScan(page).include('.report-subscriptions').analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  await item.getByRole('button', { name: 'Usuń' }).click();
  const confirm = page.getByRole('dialog', { name: 'Potwierdzenie' });
  await expect(confirm).toContainText('Raport „Koszt pojazdów” (Co miesiąc, 3. dnia, o 06:00) przestanie przychodzić e-mailem.');
  await confirm.getByRole('button', { name: 'Tak' }).click();
  await expect(page.getByText('Usunięto subskrypcję raportu „Koszt pojazdów”.')).toBeVisible();
});
