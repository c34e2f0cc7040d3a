import { type Page } from '@playwright/test';
import { axeScan, expect, openColumnFilter, signedIn, test, toast } from './support';

const SHOTS = process.env.E2E_SHOTS;

/** No serious or critical accessibility violation in the open dialogs. */
async function expectAccessible(page: Page) {
  const result = await axeScan(page).include('.modal-dialog').analyze();
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * Opens the orders list, narrows it with the columns' own text filters (other journeys add orders
 * to the same vehicles, so a plate alone does not name one order) and opens the first row left.
 */
async function openOrder(page: Page, filters: Record<string, string>) {
  await page.goto('/app/order');
  for (const [column, text] of Object.entries(filters)) {
    await openColumnFilter(page, column);
    await page.locator('.ag-filter input[type="text"]').first().fill(text);
    await page.keyboard.press('Escape');
  }
  // the filtered block has arrived once no row left disagrees with a filter
  for (const [column, text] of Object.entries(filters)) {
    await expect(page.locator(`.ag-cell[col-id="${column}"]`).filter({ hasNotText: text })).toHaveCount(0);
  }
  const [column, text] = Object.entries(filters)[0];
  await page.locator('.ag-body-horizontal-scroll-viewport').first().evaluate((el) => { el.scrollLeft = 0; });
  await page.locator(`.ag-cell[col-id="${column}"]`).filter({ hasText: text }).first().click();
  const dialog = page.locator('.modal.details-dialog');
  await expect(dialog.getByRole('tablist')).toBeVisible();
  return dialog;
}

test('a fleet manager opens an order awaiting them, accepts it, sees the new status and who moved it, and sees no prices the order hides', async ({ page }) => {
  await signedIn(page, 'manager', '/app/order');
  // authorised orders are highlighted in the list
  await expect(page.locator('.ag-cell[col-id="statusZnaczenie"]').filter({ hasText: /^Autoryzowano$/ }).first()).toHaveClass(/cell-highlight-success/);
  // the technical inspection of WZ67890 awaits the manager (status 1); its prices are hidden (cenaWidoczna N)
  const dialog = await openOrder(page, { rejestr: 'WZ67890' });
  // not yet authorised: titled by the day it was reported, never by its id (issue 49)
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(/^Zlecenie z \d{2}\.\d{2}\.\d{4}$/);
  await expect(dialog.locator('[data-field="status"]')).toContainText('Oczekuje na akceptację Fleet Managera');
  // the history shows the station's move that brought the order here
  const history = dialog.locator('[data-list="history"]');
  await expect(history.locator('tbody tr')).toHaveCount(1);
  await expect(history.locator('tbody tr').first()).toContainText('doradca');

  await dialog.getByRole('tab', { name: 'Zakres' }).click();
  const positions = dialog.locator('[data-list="positions"]');
  await expect(positions.locator('tbody tr')).toHaveCount(2);
  await expect(positions.getByRole('columnheader', { name: 'Treść' })).toBeVisible();
  for (const hidden of ['Ilość', 'Cena', 'Rabat %', 'Netto']) await expect(positions.getByRole('columnheader', { name: hidden, exact: true })).toHaveCount(0);
  await expect(positions).not.toContainText('zł');
  await expect(positions.getByRole('button', { name: 'Dodaj pozycję' })).toHaveCount(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/manager-scope.png` });
  await expectAccessible(page);

  // the moves the manager may make, each asked Tak/Nie first
  const footer = dialog.locator('.modal-footer');
  for (const move of ['Akceptuj', 'Akceptuj częściowo', 'Odrzuć']) await expect(footer.getByRole('button', { name: move, exact: true })).toBeVisible();
  await footer.getByRole('button', { name: 'Akceptuj', exact: true }).click();
  const question = page.getByRole('dialog', { name: 'Potwierdzenie' });
  await expect(question).toContainText('Czy na pewno wybrać „Akceptuj” dla tego zlecenia?');
  // it names the order as its title does (unnumbered: the day it was reported, never its internal id),
  // and says the price the manager may not see is settled under the contract
  await expect(question.locator('.confirm-facts dd')).toHaveText([/^z \d{2}\.\d{2}\.\d{4}$/, 'WZ67890 Toyota Corolla', /\S/, 'rozliczana w ramach kontraktu']);
  await question.getByRole('button', { name: 'Nie' }).click();
  await expect(question).toBeHidden();
  await expect(dialog.locator('[data-field="status"]')).toContainText('Oczekuje na akceptację');
  await footer.getByRole('button', { name: 'Akceptuj', exact: true }).click();
  await question.getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Zmieniono status zlecenia na: Zaakceptowano przez Fleet Managera')).toBeVisible();

  await dialog.getByRole('tab', { name: 'Dane zlecenia' }).click();
  await expect(dialog.locator('[data-field="status"]')).toContainText('Zaakceptowano przez Fleet Managera');
  await expect(history.locator('tbody tr')).toHaveCount(2);
  await expect(history.locator('tbody tr').last()).toContainText('manager');
  await expect(history.locator('tbody tr').last()).toContainText('Zaakceptowano przez Fleet Managera');
  // whoever decided is named where the details read it, not only in the history
  await expect(dialog.locator('[data-field="zatwierdzil"]')).toContainText('Nowak Anna');
  // no further move is the manager's
  await expect(footer.getByRole('button', { name: 'Akceptuj', exact: true })).toHaveCount(0);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/manager-accepted.png` });

  // the list behind the dialog was read again
  await dialog.getByRole('button', { name: 'Zamknij' }).last().click();
  const rowIndex = await page.locator('.ag-row', { has: page.locator('.ag-cell[col-id="rejestr"]', { hasText: 'WZ67890' }) }).first().getAttribute('row-index');
  await expect(page.locator(`.ag-row[row-index="${rowIndex}"] .ag-cell[col-id="statusZnaczenie"]`)).toHaveText('Zaakceptowano przez Fleet Managera');
});

test('an advisor adds a position to a new order, confirms the estimate and can no longer add or edit positions', async ({ page }) => {
  await signedIn(page, 'doradca');
  // the newest order of WZ12345, the inspection at the advisor's station, is new (status 0) and its estimate not confirmed
  const dialog = await openOrder(page, { rejestr: 'WZ12345', zgloZakres: 'Przegląd okresowy 90 000 km' });
  await expect(dialog.locator('[data-field="status"]')).toHaveText(/Zgłoszono/);
  await expect(dialog.getByRole('tab', { name: 'Zgłaszający' })).toHaveCount(0);
  await dialog.getByRole('tab', { name: 'Zakres' }).click();
  await expect(dialog.locator('[data-field="zgloZakres"]')).toHaveText(/Przegląd okresowy 90 000 km/);
  const positions = dialog.locator('[data-list="positions"]');
  await expect(positions.locator('tbody tr')).toHaveCount(2);
  await expect(positions.getByRole('columnheader', { name: 'Cena', exact: true })).toBeVisible();

  await positions.getByRole('button', { name: 'Dodaj pozycję' }).click();
  const form = page.getByRole('dialog', { name: 'Dodanie pozycji' });
  await expect(form.getByLabel(/^Ilość/)).toHaveValue('1');
  await expect(form.getByLabel(/^Rabat %/)).toHaveValue('0');
  await expect(form.getByLabel(/^Marka opony/)).toHaveCount(0);
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(form.getByText('Pole nie może być puste').first()).toBeVisible();
  await form.getByLabel(/^Rodzaj usługi/).selectOption({ label: 'Usługa serwisowa' });
  await form.getByLabel(/^Treść/).fill('Wymiana filtra kabinowego');
  await form.getByLabel(/^Ilość/).fill('2');
  await form.getByLabel(/^Cena/).fill('45,50');
  await form.getByLabel(/^Rabat %/).fill('10');
  // the net as the server will store it, while typing: (45,50 − 10 %) × 2
  await expect(form.locator('[data-computed="ogNetto"]')).toContainText(/81,90\s*zł/);
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/advisor-position-form.png` });
  await expectAccessible(page);
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Dodano pozycje')).toBeVisible();
  await expect(form).toBeHidden();
  const added = positions.locator('tbody tr').filter({ hasText: 'Wymiana filtra kabinowego' });
  await expect(added).toBeVisible();
  // (45,50 − 10 %) × 2 = 81,90
  await expect(added.locator('[data-column="ogNetto"]')).toHaveText(/81,90\s*zł/);

  // edited: the form starts from the row; the net follows
  await added.getByRole('button', { name: 'Edytuj' }).click();
  const edit = page.getByRole('dialog', { name: 'Edycja pozycji' });
  await expect(edit.getByLabel(/^Treść/)).toHaveValue('Wymiana filtra kabinowego');
  await edit.getByLabel(/^Ilość/).fill('3');
  await edit.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano pozycję')).toBeVisible();
  await expect(edit).toBeHidden();
  // (45,50 − 10 %) × 3 = 122,85
  await expect(added.locator('[data-column="ogNetto"]')).toHaveText(/122,85\s*zł/);

  const footer = dialog.locator('.modal-footer');
  await footer.getByRole('button', { name: 'Zatwierdź kosztorys' }).click();
  await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Pomyślnie zatwierdzono kosztorys.')).toBeVisible();
  await expect(footer.getByRole('button', { name: 'Zatwierdź kosztorys' })).toHaveCount(0);
  await expect(positions.getByRole('button', { name: 'Dodaj pozycję' })).toBeDisabled();
  for (const edit of await positions.getByRole('button', { name: 'Edytuj' }).all()) await expect(edit).toBeDisabled();
  for (const del of await positions.getByRole('button', { name: 'Usuń' }).all()) await expect(del).toBeDisabled();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/advisor-confirmed.png` });
});

test('the administrator edits an order\'s remarks and approved scope; the remarks show on their tab', async ({ page }) => {
  await signedIn(page, 'admin');
  // the technical inspection of WZ67890 (awaiting or accepted by the manager: the admin may still cancel it)
  const dialog = await openOrder(page, { rejestr: 'WZ67890' });
  await dialog.locator('.modal-footer').getByRole('button', { name: 'Edytuj zlecenie' }).click();
  const form = page.getByRole('dialog', { name: 'Edycja zlecenia' });
  await expect(form.getByLabel(/^Uwagi/)).toHaveValue('Prośba o termin w godzinach porannych.');
  await form.getByLabel(/^Uwagi/).fill('Klient prosi o telefon przed odbiorem.');
  await form.getByLabel(/^Zatwierdzony zakres/).fill('Badanie techniczne i regulacja świateł');
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano zmiany w zleceniu')).toBeVisible();
  await expect(form).toBeHidden();
  await dialog.getByRole('tab', { name: 'Uwagi' }).click();
  await expect(dialog.locator('[data-field="uwagi"]')).toContainText('Klient prosi o telefon przed odbiorem.');
  await dialog.getByRole('tab', { name: 'Zakres' }).click();
  await expect(dialog.locator('[data-field="zlecZakres"]')).toContainText('Badanie techniczne i regulacja świateł');
  // the admin may cancel an open order
  await expect(dialog.locator('.modal-footer').getByRole('button', { name: 'Anuluj zlecenie' })).toBeVisible();
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/admin-scope.png` });
});
