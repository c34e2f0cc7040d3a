/**
 * Notifications in the browser (issue 25): the bell of the top bar with its unread count and list,
 * a notification's link opening its record (`?open=` on a table), the user's settings page
 * (Ustawienia → Ustawienia powiadomień) and the administrators' log (Administracja → Dziennik powiadomień). The
 * journeys run in this order in one worker: the first makes the notification the others find.
 * Its order is the seed's showcase order of WZ20013 sent back to clarify (status 10, its estimate
 * confirmed, at the advisor's station): no other journey moves it.
 */
import { type Page } from '@playwright/test';
import { axeScan, expect, rowCount, signIn, submitLogin, tableLoaded, test, toast } from './support.ts';

test.describe.configure({ mode: 'serial' });

const PLATE = 'WZ20013';
/** The order the first journey hands to the fleet manager (its number, read from its dialog). */
let orderNumber = '';
const bell = (page: Page) => page.getByTestId('notification-bell');
const panel = (page: Page) => page.getByRole('dialog', { name: 'Powiadomienia' });

/** No serious or critical violation in the part of the page given. */
async function expectAccessible(page: Page, selector?: string) {
  const axe = axeScan(page);
  if (selector) axe.include(selector);
  const serious = (await axe.analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('an advisor submits an estimate; the manager\'s bell shows it, marking all read clears the badge; he opens it and lands on the order', async ({ browser }) => {
  // the advisor hands the order back to the fleet manager (status 1)
  const advisor = await browser.newPage();
  await signIn(advisor, 'doradca');
  await advisor.goto('/app/order');
  await tableLoaded(advisor);
  const index = await advisor.locator('.ag-row').filter({ has: advisor.locator('.ag-cell[col-id="rejestr"]', { hasText: PLATE }) })
    .filter({ has: advisor.locator('.ag-cell[col-id="statusZnaczenie"]', { hasText: 'Do wyjaśnienia' }) })
    .first().getAttribute('row-index');
  await advisor.locator(`.ag-row[row-index="${index}"] .ag-cell[col-id="rejestr"]`).click();
  const order = advisor.locator('.modal.details-dialog');
  await order.getByRole('button', { name: 'Przekaż do akceptacji Fleet Managera' }).click();
  await advisor.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(advisor, 'Zmieniono status zlecenia na: Oczekuje na akceptację Fleet Managera')).toBeVisible();
  const number = (await order.getByRole('heading', { level: 2 }).innerText()).replace(/\D/g, '');
  orderNumber = number;
  await advisor.close();

  // the manager's bell counts it and names the count in words
  const page = await browser.newPage();
  await signIn(page, 'manager');
  await expect(bell(page)).toHaveAccessibleName(/^Powiadomienia: \d+ nieprzeczytan(e|ych)$/);
  const badge = page.getByTestId('notification-badge');
  await expect(badge).toHaveText(/^\d+$/);

  // the list: newest first, unread marked, Escape closes it and returns to the bell
  await bell(page).click();
  await expect(panel(page)).toBeVisible();
  const item = panel(page).getByRole('button', { name: new RegExp(`Zlecenie czeka na akceptację.*${PLATE}`) }).first();
  await expect(item).toContainText('Nieprzeczytane');
  await expect(item).toContainText(/przed chwilą|min temu/);
  await page.keyboard.press('Escape');
  await expect(panel(page)).toBeHidden();
  await expect(bell(page)).toBeFocused();

  // marking all as read clears the badge, and the list says none is unread
  await bell(page).click();
  await panel(page).getByRole('button', { name: 'Oznacz wszystkie jako przeczytane' }).click();
  await expect(badge).toHaveCount(0);
  await expect(bell(page)).toHaveAccessibleName('Powiadomienia: brak nieprzeczytanych');
  await expect(item).not.toContainText('Nieprzeczytane');
  await expect(panel(page).getByRole('button', { name: 'Oznacz wszystkie jako przeczytane' })).toBeDisabled();

  // a click opens the order's details on the orders table
  await item.click();
  await expect(panel(page)).toBeHidden();
  await expect(page).toHaveURL(new RegExp(`/app/order\\?open=${number}$`));
  const details = page.locator('.modal.details-dialog');
  await expect(details.getByRole('heading', { level: 2 })).toHaveText(`Zlecenie ${number}`);
  await expect(details.locator('[data-field="statusZnaczenie"]')).toContainText('Oczekuje na akceptację Fleet Managera');
  // closing the dialog drops the record from the address
  await details.getByRole('button', { name: 'Zamknij' }).last().click();
  await expect(page).toHaveURL(/\/app\/order$/);
});

test('a record outside the caller\'s rows named in the address gets the server\'s message, not a crash', async ({ page }) => {
  // manager2 manages another client: the first journey's order is not among his rows
  expect(orderNumber).not.toBe('');
  await submitLogin(page, { login: 'manager2', password: 'Manager123!', choice: 'Fleet Manager' });
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await page.goto(`/app/order?open=${orderNumber}`);
  const details = page.locator('.modal.details-dialog');
  await expect(details.getByRole('alert')).toContainText(/Nie znaleziono|nie istnieje|Brak/);
  await details.getByRole('button', { name: 'Zamknij' }).last().click();
  await expect(page).toHaveURL(/\/app\/order$/);
  await expect(page.getByRole('heading', { name: 'Zlecenia', level: 1 })).toBeVisible();
});

test('the bell\'s list and the settings page pass axe at 1400 and 900 px, and the list spans a phone', async ({ page }) => {
  await signIn(page, 'manager');
  for (const width of [1400, 900]) {
    await page.setViewportSize({ width, height: 900 });
    await bell(page).click();
    await expect(panel(page).locator('.notification-item, .empty-state').first()).toBeVisible();
    await expectAccessible(page, '.app-topbar');
    await page.keyboard.press('Escape');
    await page.goto('/app/account/notifications');
    await expect(page.getByRole('heading', { name: 'Ustawienia powiadomień', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Zlecenie czeka na akceptację')).toBeVisible();
    await expectAccessible(page);
    await page.goto('/app/dane-pojazdu');
  }
  await page.setViewportSize({ width: 390, height: 844 });
  await bell(page).click();
  const box = await panel(page).boundingBox();
  expect(box!.x).toBe(0);
  expect(box!.width).toBe(390);
});

test('"Nie skonfigurowano poczty" is told to administrators where they can act, never as a toast to every visitor', async ({ page }) => {
  // a visitor on the sign-in page, then a manager: no word of the mail server
  await page.goto('/');
  await expect(page.getByRole('button', { name: 'Zaloguj' })).toBeVisible();
  await expect(page.getByText(/Nie skonfigurowano poczty/)).toHaveCount(0);
  await signIn(page, 'manager');
  await expect(page.getByText(/Nie skonfigurowano poczty/)).toHaveCount(0);
  await page.goto('/sign-out');
  await expect(page.getByRole('button', { name: 'Zaloguj' })).toBeVisible();

  // the administrator, with no mail server (the answer of the mail settings as an unconfigured portal gives it)
  await page.route('**/api/settings/email', (route) => route.request().method() === 'GET'
    ? route.fulfill({ json: { smtpHost: '', smtpPort: 25, smtpUser: '', smtpPassword: '', smtpEmail: '', smtpSsl: 'OFF' } })
    : route.fallback());
  await signIn(page, 'admin');
  await expect(page.getByText(/Nie skonfigurowano poczty/)).toHaveCount(0);
  await page.goto('/app/notifications-log');
  const notice = page.locator('[data-section="mail-not-configured"]');
  await expect(notice).toContainText('Nie skonfigurowano poczty — wiadomości e-mail (kody resetujące hasło, powiadomienia) nie są wysyłane');
  await expect(page.locator('.toast').filter({ hasText: /Nie skonfigurowano poczty/ })).toHaveCount(0);
  await expectAccessible(page, '[data-section="mail-not-configured"]');
  // it leads to the mail settings, where it stays until a server is saved, without a link to the page itself
  await notice.getByRole('link', { name: 'Skonfiguruj serwer poczty' }).click();
  await expect(page).toHaveURL(/\/app\/email-config$/);
  await expect(notice).toBeVisible();
  await expect(notice.getByRole('link')).toHaveCount(0);
  await page.unroute('**/api/settings/email');
  await page.reload();
  await expect(page.getByLabel(/^Serwer SMTP/)).toBeVisible();
});

test('a driver turns an event off and moves his digest; the toast says it is saved and the page keeps it', async ({ page }) => {
  await signIn(page, 'kierowca');
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Ustawienia powiadomień' }).click();
  await expect(page).toHaveURL(/\/app\/account\/notifications$/);
  // a driver is offered the events of his role only
  await expect(page.getByLabel('Zmiana statusu zlecenia')).toBeVisible();
  await expect(page.getByLabel('Zlecenie czeka na akceptację')).toHaveCount(0);
  await page.getByLabel('Zatwierdzenie kosztorysu').uncheck();
  await page.getByLabel(/^Godzina podsumowania/).selectOption({ label: '9:00' });
  await page.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano ustawienia powiadomień.')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Zatwierdzenie kosztorysu')).not.toBeChecked();
  await expect(page.getByLabel('Zmiana statusu zlecenia')).toBeChecked();
  await expect(page.getByLabel(/^Godzina podsumowania/)).toHaveValue(/9/);
});

test('an administrator opens Administracja → Dziennik powiadomień: the log, a notification sent again to a person named as the tables name people, the digest run now', async ({ page }) => {
  await signIn(page, 'admin');
  // two entries a reader can tell apart: the log of everyone's notifications, and his own settings
  const menu = page.getByRole('navigation', { name: 'Menu główne' });
  await expect(menu.getByRole('link', { name: /Powiadomienia/ })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Ustawienia powiadomień' })).toBeVisible();
  await menu.getByRole('link', { name: 'Dziennik powiadomień' }).click();
  await expect(page).toHaveURL(/\/app\/notifications-log$/);
  await expect(page.getByRole('heading', { name: 'Dziennik powiadomień', level: 1 })).toBeVisible();
  await tableLoaded(page);
  await expect.poll(() => rowCount(page)).toBeGreaterThan(0);
  for (const header of ['Utworzono', 'Zdarzenie', 'Odbiorca', 'E-mail', 'Kanał', 'Stan']) {
    await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  // newest first, in Polish
  const first = page.locator('.ag-row[row-index="0"]');
  await expect(first.locator('.ag-cell[col-id="event"]')).toHaveText('Zlecenie czeka na akceptację');
  await expect(first.locator('.ag-cell[col-id="state"]')).toHaveText(/W kolejce|Wysyłanie|Wysłano|Nieudane|Pominięto/);

  // a row's details, and "Wyślij ponownie" asked Tak/Nie first
  await expect(first.locator('.ag-cell[col-id="odbiorca"]')).toHaveText(/^\S+ \S+$/);
  await first.locator('.ag-cell[col-id="event"]').click();
  const details = page.locator('.modal.details-dialog');
  await expect(details.getByRole('heading', { level: 2 })).toHaveText(/^Powiadomienie \d+$/);
  const person = (await details.locator('[data-field="odbiorca"] dd').innerText()).trim();
  expect(person).toMatch(/^\S+ \S+$/);
  await details.getByRole('button', { name: 'Wyślij ponownie' }).click();
  // the question names the person, surname and first name, with the address, not a login
  const question = page.getByRole('dialog', { name: 'Potwierdzenie' });
  await expect(question).toContainText(`Wysłać ponownie to powiadomienie do: ${person}?`);
  await expect(question.locator('.confirm-facts dt').first()).toHaveText('E-mail');
  await expect(question.locator('.confirm-facts dd').first()).toHaveText(/@|brak/);
  await question.getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, /wysłane ponownie|właśnie wysyłane/)).toBeVisible();

  // the digest at once, its counts in the toast
  await page.getByRole('button', { name: 'Uruchom podsumowanie dzienne' }).click();
  await page.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, /Uruchomiono podsumowanie dzienne: \d+ użytkowników, \d+ wiadomości w kolejce/)).toBeVisible();
});
