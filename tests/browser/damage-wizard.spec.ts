/**
 * Issue 14's damage wizard (screens/damage-wizard.json): a driver reports a damage through every
 * step with a new external participant; a manager opens it from the orders table and picks the
 * participant among the vehicle's client's employees; under the regional dealer a manager is not
 * offered the risk types the variant refuses. Every step is photographed (test-results/damage-*.png).
 */
import { type Locator, type Page } from '@playwright/test';
import { tinyPdf } from '../../server/seed/pdf.ts';
import { expect, rowCount, signedIn, test, toast } from './support';
import { PORT } from './ports';

const shot = async (page: Page, name: string) => {
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  await page.screenshot({ path: `test-results/damage-${name}.png` });
};
const wizard = (page: Page) => page.getByRole('dialog', { name: 'Zgłoszenie szkody' }).filter({ has: page.getByTestId('wizard-step-title') });
const stepTitle = (w: Locator) => w.getByTestId('wizard-step-title');
const next = (w: Locator) => w.getByRole('button', { name: 'Następny' }).click();
const riskTypes = (w: Locator) => w.getByLabel(/^Rodzaj ryzyka/).locator('option').allInnerTexts();

test('a driver reports a damage through every step with a new external participant and sees the toast', async ({ page, browser }) => {
  await signedIn(page, 'kierowca');
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Zamówienia usługi' }).click();
  await page.getByRole('dialog', { name: 'Zamówienia usługi' }).getByRole('button', { name: 'Zgłoszenie szkody' }).click();

  const w = wizard(page);
  await expect(w).toBeVisible();
  await expect(w.getByRole('list', { name: 'Kroki' }).getByRole('listitem')).toHaveText([
    '1. Dane szkody', '2. Zgłaszający', '3. Uczestnik', '4. Uczestnik zewnętrzny', '5. Uwagi', '6. Załączniki', '7. Notatki', '8. Podsumowanie',
  ]);
  await expect(stepTitle(w)).toHaveText('Dane szkody');
  // the driver's vehicle is fixed; the defaults of spec §9
  await expect(w.getByRole('combobox', { name: /^Nr rejestracyjny/ })).toHaveValue('WZ12345');
  await expect(w.getByRole('combobox', { name: /^Nr rejestracyjny/ })).toBeDisabled();
  await expect(w.getByLabel(/^Rodzaj ryzyka/).locator('option:checked')).toHaveText('AC');
  expect(await riskTypes(w)).toEqual(expect.arrayContaining(['AC', 'OC', 'AC z regresem', 'OC nasze']));
  await expect(w.getByLabel(/^Nr szkody w TU/)).toHaveValue('-');
  await expect(w.getByLabel(/^Data szkody/)).toHaveValue(/^\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/);
  // the damage type is required (spec §5)
  await next(w);
  await expect(stepTitle(w)).toHaveText('Dane szkody');
  await expect(w.getByText('Pole nie może być puste').first()).toBeVisible();
  await w.getByLabel(/^Rodzaj szkody/).fill('Kolizja drogowa');
  await w.getByLabel('Poszkodowany').check();
  await w.getByLabel(/^Opis szkody/).fill('Uderzenie w tylny zderzak na parkingu.');
  await shot(page, 'driver-1-details');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Zgłaszający');
  await expect(w.getByLabel(/^Nazwisko i imię zgłaszającego/)).not.toHaveValue('');
  await w.getByLabel(/^Telefon zgłaszającego/).fill('600123456');
  await w.getByLabel(/^E-mail zgłaszającego/).fill('kierowca@transbud.pl');
  await shot(page, 'driver-2-reporter');
  await next(w);

  // a driver is the participant: no picker, no new employee
  await expect(stepTitle(w)).toHaveText('Uczestnik');
  await expect(w.getByText('Uczestnikiem szkody jesteś Ty')).toBeVisible();
  await expect(w.getByRole('button', { name: 'Nowy pracownik' })).toHaveCount(0);
  await shot(page, 'driver-3-participant');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Uczestnik zewnętrzny');
  await w.getByLabel(/^Nazwisko i imię \/ nazwa/).fill('Zieliński Marek');
  await w.getByLabel(/^Miejscowość/).fill('Poznań');
  await w.getByLabel(/^Kod pocztowy/).fill('60-101');
  await w.getByLabel(/^Ulica/).fill('ul. Długa 5');
  await w.getByLabel(/^Nr rejestracyjny pojazdu/).fill('PO4455A');
  await w.getByLabel(/^Marka i model pojazdu/).fill('Skoda Octavia');
  await w.getByLabel(/^Nr polisy OC/).fill('OC/2026/123');
  // spec §5: the insurer's name takes at most 20 characters
  await w.getByLabel(/^Ubezpieczyciel/).pressSequentially('Towarzystwo Ubezpieczeń Wzajemnych');
  await expect(w.getByLabel(/^Ubezpieczyciel/)).toHaveValue('Towarzystwo Ubezpiec');
  await w.getByLabel(/^Ubezpieczyciel/).fill('PZU');
  await shot(page, 'driver-4-external');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Uwagi');
  await w.getByLabel(/^Uwagi/).fill('Auto jezdne.');
  await shot(page, 'driver-5-remarks');
  await next(w);

  // a photo of the damage, uploaded to the new damage after it is reported
  await expect(stepTitle(w)).toHaveText('Załączniki');
  await w.getByRole('button', { name: 'Dodaj załącznik' }).click();
  await w.getByLabel(/^Tytuł/).fill('Protokół policji');
  await w.getByLabel(/^Opis/).fill('Notatka ze zdarzenia');
  await w.getByLabel(/^Plik/).setInputFiles({ name: 'protokol.pdf', mimeType: 'application/pdf', buffer: tinyPdf(['Protokol']) });
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByRole('row', { name: /Protokół policji/ })).toContainText('protokol.pdf');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Notatki');
  await w.getByRole('button', { name: 'Dodaj notatkę' }).click();
  await w.getByLabel(/^Treść notatki/).fill('Zdjęcia doślę mailem.');
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByRole('cell', { name: 'Zdjęcia doślę mailem.' })).toBeVisible();
  await shot(page, 'driver-6-notes');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Podsumowanie');
  const summary = w.getByTestId('wizard-summary');
  await expect(summary.locator('[data-field="rejestr"]')).toHaveText('WZ12345');
  await expect(summary.locator('[data-field="winaPrac"]')).toHaveText('Poszkodowany');
  await expect(summary.locator('[data-field="sprawcaNazImie"]')).toHaveText('Zieliński Marek');
  await expect(summary.getByText('Zdjęcia doślę mailem.')).toBeVisible();
  await shot(page, 'driver-7-summary');
  await w.getByRole('button', { name: 'Zapisz' }).click();

  await expect(toast(page, 'Zgłoszono szkodę.')).toBeVisible();
  await expect(w).toHaveCount(0);
  await shot(page, 'driver-8-saved');

  // the fleet manager opens the new damage (newest first): the photo is on its Załączniki tab
  const context = await browser.newContext();
  const manager = await context.newPage();
  await signedIn(manager, 'manager', '/app/damage');
  await manager.locator('.ag-row').first().click();
  const details = manager.getByRole('dialog').filter({ has: manager.getByRole('tab', { name: 'Załączniki' }) });
  await details.getByRole('tab', { name: 'Załączniki' }).click();
  await expect(details.locator('.ag-row').filter({ hasText: 'Protokół policji' })).toContainText('protokol.pdf');
  await context.close();
});

test('a manager opens the damage report from the orders table, picks a participant and may add an employee', async ({ page }) => {
  await signedIn(page, 'manager', '/app/order');
  const before = await expect.poll(() => rowCount(page)).not.toBeNaN().then(() => rowCount(page));
  await page.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name: 'Zgłoszenie szkody' }).click();
  const w = wizard(page);
  await expect(stepTitle(w)).toHaveText('Dane szkody');
  const plate = w.getByRole('combobox', { name: /^Nr rejestracyjny/ });
  await plate.pressSequentially('wz1');
  await w.getByRole('option', { name: /^WZ12345/ }).click();
  await w.getByLabel(/^Rodzaj szkody/).fill('Stłuczka');
  // the vehicle's reading comes with it; one below it is refused on save (docs/decisions.md)
  await expect(w.getByLabel(/^Stan licznika/)).not.toHaveValue('');
  await w.getByLabel(/^Stan licznika/).fill('1');
  await shot(page, 'manager-1-details');
  await next(w);
  await w.getByLabel(/^Nazwisko i imię zgłaszającego/).fill('Manager Adam');
  await w.getByLabel(/^Telefon zgłaszającego/).fill('600123456');
  await w.getByLabel(/^E-mail zgłaszającego/).fill('manager@transbud.pl');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Uczestnik');
  // the participant is required, and found among the vehicle's client's employees
  await next(w);
  await expect(stepTitle(w)).toHaveText('Uczestnik');
  await expect(w.getByText('Pole nie może być puste').first()).toBeVisible();
  const participant = w.getByRole('combobox', { name: /^Uczestnik \(pracownik\)/ });
  await participant.pressSequentially('Kowal');
  await w.getByRole('option', { name: /^Kowalski Jan/ }).click();
  await expect(participant).toHaveValue(/^Kowalski Jan/);
  // a new employee opens the employee dialog over the wizard
  await w.getByRole('button', { name: 'Nowy pracownik' }).click();
  const employee = page.getByRole('dialog', { name: 'Nowy pracownik' }).filter({ hasNot: page.getByTestId('wizard-step-title') });
  await expect(employee.getByLabel(/^Nazwisko/).first()).toBeVisible();
  await shot(page, 'manager-2-new-employee');
  await employee.getByRole('button', { name: /Anuluj|Zamknij/ }).first().click();
  await expect(stepTitle(w)).toHaveText('Uczestnik');
  await shot(page, 'manager-3-participant');
  await next(w);
  await expect(stepTitle(w)).toHaveText('Uczestnik zewnętrzny');
  // remarks, attachments and notes stay empty
  for (const step of ['Uwagi', 'Załączniki', 'Notatki']) {
    await next(w);
    await expect(stepTitle(w)).toHaveText(step);
  }
  await next(w);
  await expect(stepTitle(w)).toHaveText('Podsumowanie');
  await w.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, /Stan licznika nie może być mniejszy niż ostatni odczyt pojazdu/)).toBeVisible();
  await expect(w.getByTestId('wizard-summary').locator('[data-field="pracId"]')).toHaveText(/^Kowalski Jan/);
  await shot(page, 'manager-4-odometer-refused');
  // the wizard stays open with the data: back to the first step, no reading this time
  for (let i = 0; i < 7; i++) await w.getByRole('button', { name: 'Poprzedni' }).click();
  await expect(stepTitle(w)).toHaveText('Dane szkody');
  await w.getByLabel(/^Stan licznika/).fill('');
  for (let i = 0; i < 7; i++) await next(w);
  await expect(stepTitle(w)).toHaveText('Podsumowanie');
  await w.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zgłoszono szkodę.')).toBeVisible();
  await expect(w).toHaveCount(0);
  // the orders table reloads with the damage's row
  await expect.poll(() => rowCount(page)).toBe(before + 1);
});

test.describe('under the regional dealer', () => {
  test.use({ baseURL: `http://dealer.localhost:${PORT}` });

  test('a manager is not offered the risk types AC z regresem and OC nasze', async ({ page }) => {
    await signedIn(page, 'manager', '/app/order');
    await page.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name: 'Zgłoszenie szkody' }).click();
    const w = wizard(page);
    await expect(stepTitle(w)).toHaveText('Dane szkody');
    await expect(w.getByLabel(/^Rodzaj ryzyka/).locator('option:checked')).toHaveText('AC');
    expect(await riskTypes(w)).not.toContain('AC z regresem');
    expect(await riskTypes(w)).not.toContain('OC nasze');
    expect(await riskTypes(w)).toEqual(expect.arrayContaining(['AC', 'OC']));
    await shot(page, 'dealer-manager-risk-types');
  });
});
