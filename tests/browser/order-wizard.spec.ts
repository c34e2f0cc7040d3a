import { expect, test, type Locator, type Page } from '@playwright/test';
import { rowCount, signIn, toast } from './support';

/** Every step is photographed (SHOTS=1) so that a person can look at it: /tmp/wizard-<name>.png. */
const shot = async (page: Page, name: string) => {
  if (!process.env.SHOTS) return;
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  await page.screenshot({ path: `/tmp/wizard-${name}.png` });
};
const wizard = (page: Page) => page.getByRole('dialog', { name: 'Dodanie zlecenia' });
const stepTitle = (w: Locator) => w.getByTestId('wizard-step-title');
const next = (w: Locator) => w.getByRole('button', { name: 'Następny' }).click();

test('a driver orders an inspection from the service-order modal through every step and sees the toast', async ({ page }) => {
  await signIn(page, 'kierowca');
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Zamówienia usługi' }).click();
  await expect(page).toHaveURL(/\/app\/service-order$/);
  const modal = page.getByRole('dialog', { name: 'Zamówienia usługi' });
  // one button per intervention type; the damage report opens the damage wizard (damage-wizard.spec.ts)
  await expect(modal.getByRole('button', { name: 'Naprawa' })).toBeEnabled();
  await expect(modal.getByRole('button', { name: 'Zgłoszenie szkody' })).toBeEnabled();
  await shot(page, 'driver-0-service-order');
  await modal.getByRole('button', { name: 'Przegląd okresowy' }).click();

  const w = wizard(page);
  await expect(w).toBeVisible();
  // a driver sees no contractor and no scope
  await expect(w.getByRole('list', { name: 'Kroki' }).getByRole('listitem')).toHaveText(['1. Dane zlecenia', '2. Zgłaszający', '3. Uwagi', '4. Notatki', '5. Podsumowanie']);
  await expect(stepTitle(w)).toHaveText('Dane zlecenia');
  await expect(w.getByLabel(/^Typ interwencji/)).toHaveValue(/PRZEGLAD|0/);
  await expect(w.getByRole('combobox', { name: /^Nr rejestracyjny/ })).toHaveValue('WZ12345');
  await expect(w.getByRole('combobox', { name: /^Nr rejestracyjny/ })).toBeDisabled();
  await shot(page, 'driver-1-details');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Zgłaszający');
  // name from the session; the e-mail rule of spec §5 before Następny
  await expect(w.getByLabel(/^Nazwisko i imię zgłaszającego/)).not.toHaveValue('');
  await w.getByLabel(/^E-mail zgłaszającego/).fill('zly-adres');
  await next(w);
  await expect(w.getByText('Niepoprawny adres email')).toBeVisible();
  await expect(stepTitle(w)).toHaveText('Zgłaszający');
  await w.getByLabel(/^E-mail zgłaszającego/).fill('kierowca@transbud.pl');
  await shot(page, 'driver-2-reporter');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Uwagi');
  await w.getByLabel(/^Uwagi/).fill('Proszę o termin w przyszłym tygodniu.');
  await shot(page, 'driver-3-remarks');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Notatki');
  await w.getByRole('button', { name: 'Dodaj notatkę' }).click();
  await w.getByLabel(/^Treść notatki/).fill('Samochód dostępny od 8:00.');
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByRole('cell', { name: 'Samochód dostępny od 8:00.' })).toBeVisible();
  await shot(page, 'driver-4-notes');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Podsumowanie');
  const summary = w.getByTestId('wizard-summary');
  await expect(summary.locator('[data-field="rejestr"]')).toHaveText('WZ12345');
  await expect(summary.locator('[data-field="uwagi"]')).toHaveText('Proszę o termin w przyszłym tygodniu.');
  await expect(summary.getByText('Samochód dostępny od 8:00.')).toBeVisible();
  await shot(page, 'driver-5-summary');
  await w.getByRole('button', { name: 'Zapisz' }).click();

  await expect(toast(page, 'Dodano zlecenie')).toBeVisible();
  await expect(w).toHaveCount(0);
  // closing returns to the page the driver came from
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await shot(page, 'driver-6-saved');
});

test('an advisor adds an order with positions in the scope step, and it appears in the orders table', async ({ page }) => {
  await signIn(page, 'doradca');
  await page.goto('/app/order');
  const before = await expect.poll(() => rowCount(page)).not.toBeNaN().then(() => rowCount(page));
  const toolbar = page.getByRole('toolbar', { name: 'Działania na tabeli' });
  // the damage report is not for an advisor
  await expect(toolbar.locator('[data-action="damage"]')).toHaveCount(0);
  await toolbar.getByRole('button', { name: 'Dodaj zlecenie' }).click();

  const w = wizard(page);
  await expect(w.getByRole('list', { name: 'Kroki' }).getByRole('listitem')).toHaveText([
    '1. Dane zlecenia', '2. Wykonawca', '3. Zgłaszający', '4. Zakres', '5. Uwagi', '6. Notatki', '7. Podsumowanie',
  ]);
  // Następny checks the step first
  await w.getByRole('combobox', { name: /^Nr rejestracyjny/ }).fill('');
  await next(w);
  await expect(w.getByText('Pole nie może być puste').first()).toBeVisible();
  await expect(stepTitle(w)).toHaveText('Dane zlecenia');
  await w.getByRole('combobox', { name: /^Nr rejestracyjny/ }).fill('WZ12345');
  // an inspection with no service plan for the intervention type: Nie stays, Tak goes on
  await w.getByLabel(/^Typ interwencji/).selectOption({ label: 'Badanie techniczne' });
  await w.getByLabel(/^Rodzaj zlecenia/).selectOption({ label: 'Przegląd' });
  await next(w);
  const question = page.getByRole('dialog', { name: 'Potwierdzenie' });
  await expect(question).toContainText('Nie odnaleziono planu serwisowego dla podanego typu interwencji. Czy przegląd poza zdefiniowanym planem serwisowym?');
  await shot(page, 'advisor-0-no-plan');
  await question.getByRole('button', { name: 'Nie' }).click();
  await expect(question).toHaveCount(0);
  await expect(stepTitle(w)).toHaveText('Dane zlecenia');
  await next(w);
  await question.getByRole('button', { name: 'Tak' }).click();
  await expect(stepTitle(w)).toHaveText('Wykonawca');
  await w.getByRole('button', { name: 'Poprzedni' }).click();
  await expect(stepTitle(w)).toHaveText('Dane zlecenia');
  await w.getByLabel(/^Typ interwencji/).selectOption({ label: 'Naprawa' });
  await expect(w.getByLabel(/^Rodzaj zlecenia/).locator('option:checked')).toHaveText('Naprawa');
  // the vehicle by autocomplete: upper-cased, asked after more than 2 characters
  const plate = w.getByRole('combobox', { name: /^Nr rejestracyjny/ });
  await plate.fill('');
  await plate.pressSequentially('wz1');
  await expect(plate).toHaveValue('WZ1');
  await w.getByRole('option', { name: /^WZ12345/ }).click();
  await expect(plate).toHaveValue('WZ12345');
  await w.getByLabel(/^Opis zgłoszenia/).fill('Stuki w zawieszeniu');
  await shot(page, 'advisor-1-details');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Wykonawca');
  await expect(w.getByLabel('Tak')).toBeChecked();
  await shot(page, 'advisor-2-contractor');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Zgłaszający');
  await next(w);
  await expect(w.getByText('Pole nie może być puste').first()).toBeVisible();
  await w.getByLabel(/^Nazwisko i imię zgłaszającego/).fill('Lewandowski Marek');
  await w.getByLabel(/^E-mail zgłaszającego/).fill('serwis@kowalczyk.pl');
  await shot(page, 'advisor-3-reporter');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Zakres');
  await w.getByRole('button', { name: 'Dodaj pozycję' }).click();
  // a new non-tyre position: Wykonaj, quantity 1, price 0, discount 0
  await expect(w.getByLabel(/^Czynność/).locator('option:checked')).toHaveText('Wykonaj');
  await expect(w.getByLabel(/^Ilość/)).toHaveValue('1');
  await expect(w.getByLabel(/^Cena/)).toHaveValue('0,00');
  await expect(w.getByLabel(/^Rabat %/)).toHaveValue('0');
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByText('Pole nie może być puste').first()).toBeVisible();
  await w.getByLabel(/^Rodzaj usługi/).selectOption({ label: 'Usługa serwisowa' });
  await w.getByLabel(/^Treść/).fill('Wymiana amortyzatorów');
  await w.getByLabel(/^Ilość/).fill('2');
  await w.getByLabel(/^Cena/).fill('450,50');
  await w.getByLabel(/^Rabat %/).fill('10');
  await shot(page, 'advisor-4a-position');
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  // (450.50 − 45.05) × 2 = 810.90
  await expect(w.getByRole('row', { name: /Wymiana amortyzatorów/ })).toContainText('810,90');
  await w.getByRole('button', { name: 'Dodaj pozycję' }).click();
  await w.getByLabel(/^Rodzaj usługi/).selectOption({ label: 'Materiał serwisowy' });
  await w.getByLabel(/^Treść/).fill('Tuleje');
  await w.getByLabel(/^Cena/).fill('19,99');
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByTestId('wizard-total')).toContainText('830,89');
  // delete and edit
  await w.getByRole('button', { name: 'Usuń pozycję 2' }).click();
  await expect(w.getByTestId('wizard-total')).toContainText('810,90');
  await shot(page, 'advisor-4b-scope');
  await next(w);

  await expect(stepTitle(w)).toHaveText('Uwagi');
  await next(w);
  await expect(stepTitle(w)).toHaveText('Notatki');
  await next(w);
  await expect(stepTitle(w)).toHaveText('Podsumowanie');
  await expect(w.getByTestId('wizard-summary')).toContainText('Wymiana amortyzatorów');
  await shot(page, 'advisor-5-summary');
  await w.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Dodano zlecenie')).toBeVisible();
  await expect(w).toHaveCount(0);

  // the table reloads with the new order on top (newest first)
  await expect.poll(() => rowCount(page)).toBe(before + 1);
  const now = new Date();
  const today = `${String(now.getDate()).padStart(2, '0')}.${String(now.getMonth() + 1).padStart(2, '0')}.${now.getFullYear()}`;
  // the first row (newest first): today, the vehicle, and the advisor's station as the reporting company
  const first = page.getByRole('row').nth(1);
  await expect(first).toContainText(today);
  await expect(first).toContainText('WZ12345');
  await expect(first).toContainText('Zgłoszono');
  await expect(first).toContainText('Auto-Serwis Kowalczyk Sp. j.');
  await shot(page, 'advisor-6-table');
});

test('a fleet manager adds an order from the orders table without contractor and scope', async ({ page }) => {
  await signIn(page, 'manager');
  await page.goto('/app/order');
  const toolbar = page.getByRole('toolbar', { name: 'Działania na tabeli' });
  // the damage report beside it opens the damage wizard (damage-wizard.spec.ts)
  await expect(toolbar.getByRole('button', { name: 'Zgłoszenie szkody' })).toBeEnabled();
  await toolbar.getByRole('button', { name: 'Dodaj zlecenie' }).click();
  const w = wizard(page);
  await expect(w.getByRole('list', { name: 'Kroki' }).getByRole('listitem')).toHaveText(['1. Dane zlecenia', '2. Zgłaszający', '3. Uwagi', '4. Notatki', '5. Podsumowanie']);
  // the vehicle is typed: nothing prefilled for a manager
  await expect(w.getByRole('combobox', { name: /^Nr rejestracyjny/ })).toHaveValue('');
  await shot(page, 'manager-1-details');
  await w.getByRole('button', { name: 'Anuluj' }).click();
  await expect(w).toHaveCount(0);
});
