import { type Locator, type Page } from '@playwright/test';
import { tinyPdf } from '../../server/seed/pdf.ts';
import { expect, rowCount, signedIn, test, toast } from './support';

/** Every step is photographed (SHOTS=1) so that a person can look at it: /tmp/wizard-<name>.png. */
const shot = async (page: Page, name: string) => {
  if (!process.env.SHOTS) return;
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  await page.screenshot({ path: `/tmp/wizard-${name}.png` });
};
const wizard = (page: Page) => page.getByRole('dialog', { name: 'Dodanie zlecenia' });
const stepTitle = (w: Locator) => w.getByTestId('wizard-step-title');
const next = (w: Locator) => w.getByRole('button', { name: 'Następny' }).click();
const PDF = tinyPdf(['Protokol przekazania']);
/** A title this run alone gives (at most 29 characters). */
const title = `Protokół ${Date.now().toString().slice(-8)}`;

test('a driver orders an inspection from the service-order modal through every step, attaches a PDF, and the order\'s details list it', async ({ page, browser }) => {
  await signedIn(page, 'kierowca');
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
  await expect(w.getByRole('list', { name: 'Kroki' }).getByRole('listitem')).toHaveText(['1. Dane zlecenia', '2. Zgłaszający', '3. Uwagi', '4. Załączniki', '5. Notatki', '6. Podsumowanie']);
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

  // attachments: the upload dialog's rules and messages, the files kept in the browser until the save
  await expect(stepTitle(w)).toHaveText('Załączniki');
  await expect(w.getByText('Brak załączników')).toBeVisible();
  await w.getByRole('button', { name: 'Dodaj załącznik' }).click();
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByText('Tytuł nie może być pusty')).toBeVisible();
  await expect(w.getByText('Opis nie może być pusty')).toBeVisible();
  await expect(w.getByText('Wybierz plik')).toBeVisible();
  await w.getByLabel(/^Tytuł/).fill(title);
  await w.getByLabel(/^Opis/).fill('Protokół przekazania pojazdu');
  await w.getByLabel(/^Plik/).setInputFiles({ name: 'skrypt.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByText('Niedozwolone rozszerzenie pliku. Dozwolone rozszerzenia: pdf, jpg, jpeg, png, doc, docx, xls, xlsx, txt')).toBeVisible();
  await shot(page, 'driver-3a-attachment-form');
  await w.getByLabel(/^Plik/).setInputFiles({ name: 'protokol-przekazania.pdf', mimeType: 'application/pdf', buffer: PDF });
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByRole('row', { name: new RegExp(title) })).toContainText('protokol-przekazania.pdf');
  // a second one, removed again
  await w.getByRole('button', { name: 'Dodaj załącznik' }).click();
  await w.getByLabel(/^Tytuł/).fill('Zbędny');
  await w.getByLabel(/^Opis/).fill('Do usunięcia');
  await w.getByLabel(/^Plik/).setInputFiles({ name: 'zbedny.pdf', mimeType: 'application/pdf', buffer: PDF });
  await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
  await expect(w.getByRole('row', { name: /Zbędny/ })).toBeVisible();
  await shot(page, 'driver-3b-attachments');
  await w.getByRole('button', { name: 'Usuń pozycję 2' }).click();
  await expect(w.getByRole('row', { name: /Zbędny/ })).toHaveCount(0);
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
  await expect(summary).toContainText(`Tytuł: ${title} · Opis: Protokół przekazania pojazdu · Plik: protokol-przekazania.pdf`);
  await expect(summary).not.toContainText('Zbędny');
  await shot(page, 'driver-5-summary');
  await w.getByRole('button', { name: 'Zapisz' }).click();

  await expect(toast(page, 'Dodano zlecenie')).toBeVisible();
  await expect(w).toHaveCount(0);
  // closing returns to the page the driver came from
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await shot(page, 'driver-6-saved');

  // the fleet manager of the vehicle opens the new order (newest first): the PDF is on its Załączniki tab
  const context = await browser.newContext();
  const manager = await context.newPage();
  await signedIn(manager, 'manager', '/app/order');
  await manager.locator('.ag-row').first().click();
  const details = manager.getByRole('dialog').filter({ has: manager.getByRole('tab', { name: 'Załączniki' }) });
  await details.getByRole('tab', { name: 'Załączniki' }).click();
  const row = details.locator('.ag-row').filter({ hasText: title });
  await expect(row).toContainText('protokol-przekazania.pdf');
  await expect(details.locator('.ag-row').filter({ hasText: 'Zbędny' })).toHaveCount(0);
  await shot(manager, 'driver-7-order-attachments');
  await context.close();
});

test('an advisor adds an order with positions in the scope step, and it appears in the orders table', async ({ page }) => {
  await signedIn(page, 'doradca', '/app/order');
  const before = await expect.poll(() => rowCount(page)).not.toBeNaN().then(() => rowCount(page));
  const toolbar = page.getByRole('toolbar', { name: 'Działania na tabeli' });
  // the damage report is not for an advisor
  await expect(toolbar.locator('[data-action="damage"]')).toHaveCount(0);
  await toolbar.getByRole('button', { name: 'Dodaj zlecenie' }).click();

  const w = wizard(page);
  await expect(w.getByRole('list', { name: 'Kroki' }).getByRole('listitem')).toHaveText([
    '1. Dane zlecenia', '2. Wykonawca', '3. Zgłaszający', '4. Zakres', '5. Uwagi', '6. Załączniki', '7. Notatki', '8. Podsumowanie',
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
  await expect(stepTitle(w)).toHaveText('Załączniki');
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
  // today as the portal writes dates: in its time zone (screens/app.json config.timeZone), not the machine's
  const today = new Intl.DateTimeFormat('pl-PL', { timeZone: 'Europe/Warsaw', day: '2-digit', month: '2-digit', year: 'numeric' }).format(new Date());
  // the first row (newest first): today, the vehicle, and the advisor's station as the reporting company
  const first = page.getByRole('row').nth(1);
  await expect(first).toContainText(today);
  await expect(first).toContainText('WZ12345');
  await expect(first).toContainText('Zgłoszono');
  await expect(first).toContainText('Auto-Serwis Kowalczyk Sp. j.');
  await shot(page, 'advisor-6-table');
});

test('a fleet manager adds an order from the orders table without contractor and scope', async ({ page }) => {
  await signedIn(page, 'manager', '/app/order');
  const toolbar = page.getByRole('toolbar', { name: 'Działania na tabeli' });
  // the damage report beside it opens the damage wizard (damage-wizard.spec.ts)
  await expect(toolbar.getByRole('button', { name: 'Zgłoszenie szkody' })).toBeEnabled();
  await toolbar.getByRole('button', { name: 'Dodaj zlecenie' }).click();
  const w = wizard(page);
  await expect(w.getByRole('list', { name: 'Kroki' }).getByRole('listitem')).toHaveText(['1. Dane zlecenia', '2. Zgłaszający', '3. Uwagi', '4. Załączniki', '5. Notatki', '6. Podsumowanie']);
  // the vehicle is typed: nothing prefilled for a manager
  await expect(w.getByRole('combobox', { name: /^Nr rejestracyjny/ })).toHaveValue('');
  await shot(page, 'manager-1-details');
  await w.getByRole('button', { name: 'Anuluj' }).click();
  await expect(w).toHaveCount(0);
});
