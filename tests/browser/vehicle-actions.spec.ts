/**
 * Issue 14, the browser half without the damage wizard: handover and return of a vehicle from the
 * assignments table (with a new employee added from the person picker), the odometer reading from
 * the menu, the actions an advisor does not get, and a damage's details.
 */
import { type Locator, type Page } from '@playwright/test';
import { expect, openColumnFilter, signedIn, test, toast } from './support.ts';

/** Types into an autocomplete and picks the option with that text, as a person does. */
async function pick(page: Page, input: Locator, typed: string, option: string | RegExp) {
  await input.fill(typed);
  await page.getByRole('option', { name: option }).click();
}

/** A cell of the grid, scrolled into view sideways (the grid draws only the columns in view). */
async function cell(page: Page, rowIndex: number, colId: string): Promise<Locator> {
  const found = page.locator(`.ag-row[row-index="${rowIndex}"] .ag-cell[col-id="${colId}"]`).first();
  for (let x = 0; x <= 4000 && !(await found.count()); x += 300) {
    await page.locator('.ag-body-horizontal-scroll-viewport').evaluate((el, left) => (el.scrollLeft = left), x);
  }
  return found;
}

/** The assignments of one vehicle, by the table's registration filter. */
async function filterByPlate(page: Page, plate: string) {
  await openColumnFilter(page, 'rejestr');
  await page.locator('.ag-filter input[type="text"]').first().fill(plate);
  await page.keyboard.press('Escape');
  await expect(page.locator('.ag-row .ag-cell[col-id="rejestr"]').first()).toHaveText(plate);
}

test('a manager adds an employee from the person picker, hands a vehicle over and takes it back; the assignments table shows both', async ({ page }) => {
  await signedIn(page, 'manager', '/app/przydzialy');
  await filterByPlate(page, 'WZ67890');
  await expect(page.locator('.ag-row')).toHaveCount(1);

  // The returned assignment: its details offer Wydanie, not Zdanie.
  await page.locator('.ag-row .ag-cell[col-id="rejestr"]').first().click();
  const details = page.getByRole('dialog', { name: 'Przydział pojazdu WZ67890' });
  await expect(details.getByRole('tab', { name: 'Dane przydziału' })).toBeVisible();
  await expect(details.getByText('Drobna rysa na zderzaku.')).toBeVisible();
  await expect(details.getByRole('button', { name: 'Zdanie', exact: true })).toHaveCount(0);
  await page.screenshot({ path: 'test-results/assignment-details.png' });
  await details.getByRole('button', { name: 'Wydanie', exact: true }).click();

  const handover = page.getByRole('dialog', { name: 'Wydanie pojazdu' });
  await expect(handover.getByTestId('form-hint')).toContainText('WZ67890');
  await expect(handover.getByTestId('form-hint')).toContainText('41 200 km');
  // the make and model as people say them, not the make's code
  await expect(handover.getByTestId('form-hint')).toContainText('Toyota Corolla');

  // The person picker's new employee dialog (§5 rules; the postcode is masked).
  await handover.getByRole('button', { name: 'Nowy pracownik' }).click();
  const employee = page.getByRole('dialog', { name: 'Nowy pracownik' });
  await employee.getByRole('button', { name: 'Dodaj pracownika' }).click();
  await expect(employee.getByText('Pole nie może być puste').first()).toBeVisible();
  await employee.getByLabel(/^Nazwisko/).fill('Zielińska');
  await employee.getByLabel(/^Imię/).fill('Marta');
  await employee.getByLabel(/^E-mail|^Email|^Adres e-mail/i).fill('marta.zielinska@transbud.pl');
  await employee.getByLabel(/^Kod pocztowy/).pressSequentially('02672');
  await expect(employee.getByLabel(/^Kod pocztowy/)).toHaveValue('02-672');
  await pick(page, employee.getByLabel(/^Jednostka organizacyjna/), 'Logistyki', 'Dział Logistyki (KL001-R1-D2)');
  await page.screenshot({ path: 'test-results/employee-form.png' });
  await employee.getByRole('button', { name: 'Dodaj pracownika' }).click();
  await expect(toast(page, 'Dodano pracownika')).toBeVisible();
  await expect(employee).toBeHidden();

  // The picker finds her now. The vehicle goes back to its own driver (the demo account nowy.kierowca
  // signs in with it); a reading below the vehicle's last one is refused on its field.
  const person = handover.getByLabel(/^Pracownik odbierający pojazd/);
  await person.fill('Ziel');
  await expect(page.getByRole('option', { name: 'Zielińska Marta' })).toBeVisible();
  await pick(page, person, 'Nowi', 'Nowicki Paweł (000002)');
  await expect(person).toHaveValue('Paweł Nowicki');
  await handover.getByLabel(/^Licznik przy wydaniu/).fill('41000');
  await handover.getByLabel(/^Wydał/).fill('Anna Nowak');
  await handover.getByLabel(/^Uwagi do wydania/).fill('Wydanie z portalu.');
  await page.screenshot({ path: 'test-results/assignment-handover.png' });
  await handover.getByRole('button', { name: 'Wydaj pojazd' }).click();
  await expect(handover.getByText(/Stan licznika nie może być mniejszy/)).toBeVisible();
  await handover.getByLabel(/^Licznik przy wydaniu/).fill('41300');
  await handover.getByRole('button', { name: 'Wydaj pojazd' }).click();
  await expect(toast(page, 'Zapisano zmianę przydziału')).toBeVisible();
  await expect(handover).toBeHidden();
  await expect(details).toBeHidden();

  // The new, open assignment comes first; its details offer Zdanie.
  await expect(page.locator('.ag-row')).toHaveCount(2);
  await expect(await cell(page, 0, 'uwagiWy')).toHaveText('Wydanie z portalu.');
  await page.locator('.ag-row[row-index="0"] .ag-cell[col-id="rejestr"]').click();
  await expect(details.getByRole('button', { name: 'Wydanie', exact: true })).toHaveCount(0);
  await details.getByRole('button', { name: 'Zdanie', exact: true }).click();
  const giveBack = page.getByRole('dialog', { name: 'Zdanie pojazdu' });
  await expect(giveBack.getByTestId('form-hint')).toContainText('41 300 km');
  await giveBack.getByLabel(/^Licznik przy zdaniu/).fill('41450');
  await giveBack.getByLabel(/^Godzina zdania/).fill('16:30');
  await giveBack.getByLabel(/^Odebrał/).fill('Anna Nowak');
  await page.screenshot({ path: 'test-results/assignment-return.png' });
  await giveBack.getByRole('button', { name: 'Zdaj pojazd' }).click();
  // the handover's toast of the same words may still be on screen: the return's is the newest
  await expect(toast(page, 'Zapisano zmianę przydziału').last()).toBeVisible();
  await expect(giveBack).toBeHidden();

  // Both show in the table: the handover and, on the same row, the return.
  await expect(page.locator('.ag-row')).toHaveCount(2);
  await expect(await cell(page, 0, 'licznikWy')).toHaveText('41 300 km');
  await expect(await cell(page, 0, 'opWydal')).toHaveText('Anna Nowak');
  await expect(await cell(page, 0, 'licznikZd')).toHaveText('41 450 km');
  await expect(await cell(page, 0, 'dataZd')).toHaveText(/\d{2}\.\d{2}\.\d{4} 16:30/);
  await expect(await cell(page, 1, 'licznikZd')).toHaveText('40 100 km');
  await page.screenshot({ path: 'test-results/assignments-after.png' });
});

test('a driver updates the odometer from the menu and sees the new reading on the vehicle panel', async ({ page }) => {
  await signedIn(page, 'kierowca');
  const panel = page.locator('[data-panel="vehicle"]');
  await expect(panel).toContainText('87 450 km');
  // the driver's vehicle is issued: they may give it back, never hand one over
  const actions = page.locator('[data-panel="actions"]');
  await expect(actions.getByRole('button', { name: 'Zdanie pojazdu' })).toBeVisible();
  await expect(actions.getByRole('button', { name: 'Wydanie pojazdu' })).toHaveCount(0);

  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Aktualizacja licznika' }).click();
  await expect(page).toHaveURL(/\/app\/counter$/);
  const modal = page.getByRole('dialog', { name: 'Aktualizacja licznika' });
  const vehicle = modal.getByLabel(/^Pojazd/);
  await expect(vehicle).toBeDisabled();
  await expect(vehicle).toHaveValue('WZ12345');
  await expect(modal.getByTestId('form-hint')).toContainText('87 450 km');
  // the panel stays beneath the modal
  await expect(panel).toBeAttached();
  await modal.getByLabel(/^Stan licznika/).fill('87000');
  await modal.getByRole('button', { name: 'Zapisz' }).click();
  await expect(modal.getByText(/Stan licznika nie może być mniejszy niż ostatni odczyt/)).toBeVisible();
  await modal.getByLabel(/^Stan licznika/).fill('87460');
  await page.screenshot({ path: 'test-results/counter.png' });
  await modal.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano stan licznika')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await expect(panel).toContainText('87 460 km');
  await page.screenshot({ path: 'test-results/counter-after.png' });
});

test('an advisor gets no handover, return or mileage actions, and cannot open the odometer', async ({ page }) => {
  await signedIn(page, 'doradca');
  const actions = page.locator('[data-panel="actions"]');
  await expect(actions.getByRole('button', { name: 'Zmień pojazd' })).toBeVisible();
  for (const name of ['Zdanie pojazdu', 'Wydanie pojazdu', 'Nowy stan licznika']) {
    await expect(actions.getByRole('button', { name })).toHaveCount(0);
  }
  await expect(page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Aktualizacja licznika' })).toHaveCount(0);
  await page.goto('/app/counter');
  await expect(page.getByRole('dialog', { name: 'Aktualizacja licznika' })).toHaveCount(0);
  await expect(page.getByLabel(/^Stan licznika/)).toHaveCount(0);
});

test('a manager opens a damage\'s details: its tabs, the external participant and the notes', async ({ page }) => {
  await signedIn(page, 'manager', '/app/damage');
  await openColumnFilter(page, 'rejestr');
  await page.locator('.ag-filter input[type="text"]').first().fill('WZ12345');
  await page.keyboard.press('Escape');
  // the seeded parking damage: the damage wizard's journey reports another one for the same vehicle
  await openColumnFilter(page, 'rodzSzkod');
  await page.locator('.ag-filter input[type="text"]').first().fill('Szkoda parkingowa');
  await page.keyboard.press('Escape');
  await expect(page.locator('.ag-cell[col-id="rodzSzkod"]').filter({ hasNotText: 'Szkoda parkingowa' })).toHaveCount(0);
  await page.locator('.ag-row .ag-cell[col-id="nrSprawy"]').first().click();
  const dialog = page.getByRole('dialog', { name: /^Szkoda / });
  for (const tab of ['Dane szkody', 'Zgłaszający', 'Uczestnik', 'Uczestnik zewnętrzny', 'Uwagi', 'Załączniki', 'Notatki']) {
    await expect(dialog.getByRole('tab', { name: tab, exact: true })).toBeVisible();
  }
  await expect(dialog.getByText('Szkoda parkingowa')).toBeVisible();
  await page.screenshot({ path: 'test-results/damage-details.png' });
  await dialog.getByRole('tab', { name: 'Uczestnik zewnętrzny' }).click();
  await expect(dialog.getByText('Wójcik Krzysztof')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Notatki' }).click();
  await expect(dialog.getByText('Oświadczenie sprawcy w załączniku.')).toBeVisible();
  await dialog.getByRole('tab', { name: 'Załączniki' }).click();
  await expect(dialog.getByText('Oświadczenie sprawcy').first()).toBeVisible();
  await page.screenshot({ path: 'test-results/damage-details-attachments.png' });
});

test('a manager records a reading from a vehicle\'s details: the vehicle is the one opened', async ({ page }) => {
  await signedIn(page, 'manager');
  await openColumnFilter(page, 'rejestr');
  await page.locator('.ag-filter input[type="text"]').first().fill('WZ67890');
  await page.keyboard.press('Escape');
  await page.locator('.ag-row .ag-cell[col-id="rejestr"]', { hasText: 'WZ67890' }).click();
  const details = page.getByRole('dialog', { name: 'Pojazd WZ67890' });
  // returned: it may be handed over, not given back
  await expect(details.getByRole('button', { name: 'Wydanie pojazdu' })).toBeVisible();
  await expect(details.getByRole('button', { name: 'Zdanie pojazdu' })).toHaveCount(0);
  await details.getByRole('button', { name: 'Nowy stan licznika' }).click();
  const counter = page.getByRole('dialog', { name: 'Nowy stan licznika' });
  await expect(counter.getByLabel(/^Pojazd/)).toHaveValue('WZ67890');
  await expect(counter.getByLabel(/^Pojazd/)).toBeEnabled();
  await expect(counter.getByTestId('form-hint')).toContainText('TOYOTA');
  await counter.getByLabel(/^Stan licznika/).fill('45000');
  await counter.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano stan licznika')).toBeVisible();
  await expect(counter).toBeHidden();
  // the details beneath read the vehicle again
  await details.getByRole('tab', { name: 'Dane pojazdu' }).click();
  await expect(details.getByText('45 000 km')).toBeVisible();
});
