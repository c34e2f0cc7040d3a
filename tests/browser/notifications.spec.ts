/**
 * Notifications in the browser (issue 25): the bell of the top bar with its unread count and list,
 * a notification's link opening its record (`?open=` on a table), the user's settings page
 * (Ustawienia → Ustawienia powiadomień) and the administrators' log (Administracja → Dziennik powiadomień). The
 * journeys run in this order in one worker: the first makes the notification the others find.
 * Its order is the seed's showcase order of WZ20013 sent back to clarify (status 10, its estimate
 * confirmed, at the advisor's station): no other journey moves it.
 */
import { type Page } from '@playwright/test';
import { partsOf, startTestSmtp, type ReceivedMail } from '../support/smtp.ts';
import { PORT } from './ports.ts';
import { dateText } from '../../runtime/core/date-text.ts';
import { apiAs, axeScan, expect, rowCount, signedIn, submitLogin, tableLoaded, test, toast } from './support.ts';

test.describe.configure({ mode: 'serial' });

const PLATE = 'WZ20013';
/** The order the first journey hands to the fleet manager (its id, read from the address its notification opens). */
let orderId = '';
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
  await signedIn(advisor, 'doradca', '/app/order');
  await tableLoaded(advisor);
  const index = await advisor.locator('.ag-row').filter({ has: advisor.locator('.ag-cell[col-id="rejestr"]', { hasText: PLATE }) })
    .filter({ has: advisor.locator('.ag-cell[col-id="statusZnaczenie"]', { hasText: 'Do wyjaśnienia' }) })
    .first().getAttribute('row-index');
  await advisor.locator(`.ag-row[row-index="${index}"] .ag-cell[col-id="rejestr"]`).click();
  const order = advisor.locator('.modal.details-dialog');
  await order.getByRole('button', { name: 'Przekaż do akceptacji Fleet Managera' }).click();
  await advisor.getByRole('dialog', { name: 'Potwierdzenie' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(advisor, 'Zmieniono status zlecenia na: Oczekuje na akceptację Fleet Managera')).toBeVisible();
  // titled by its number, or before it has one by the day it was reported — never by its internal id
  const title = await order.getByRole('heading', { level: 2 }).innerText();
  expect(title).toMatch(/^Zlecenie (AUT\/\d{4}\/\d+|z \d{2}\.\d{2}\.\d{4})$/);
  await advisor.close();

  // the manager's bell counts it and names the count in words
  const page = await browser.newPage();
  await signedIn(page, 'manager');
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
  await expect(page).toHaveURL(/\/app\/order\?open=\d+$/);
  orderId = new URL(page.url()).searchParams.get('open')!;
  const details = page.locator('.modal.details-dialog');
  await expect(details.getByRole('heading', { level: 2 })).toHaveText(title);
  await expect(details.locator('[data-field="status"]')).toContainText('Oczekuje na akceptację Fleet Managera');
  // closing the dialog drops the record from the address
  await details.getByRole('button', { name: 'Zamknij' }).last().click();
  await expect(page).toHaveURL(/\/app\/order$/);
});

test('a record outside the caller\'s rows named in the address gets the server\'s message, not a crash', async ({ page }) => {
  // manager2 manages another client: the first journey's order is not among his rows
  expect(orderId).not.toBe('');
  await submitLogin(page, { login: 'manager2', password: 'Manager123!', choice: 'Fleet Manager' });
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await page.goto(`/app/order?open=${orderId}`);
  const details = page.locator('.modal.details-dialog');
  await expect(details.getByRole('alert')).toContainText(/Nie znaleziono|nie istnieje|Brak/);
  await details.getByRole('button', { name: 'Zamknij' }).last().click();
  await expect(page).toHaveURL(/\/app\/order$/);
  await expect(page.getByRole('heading', { name: 'Zlecenia', level: 1 })).toBeVisible();
});

test('the bell\'s list and the settings page pass axe at 1400 and 900 px, and the list spans a phone', async ({ page }) => {
  await signedIn(page, 'manager');
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
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toBeVisible();
  await expect(page.getByText(/Nie skonfigurowano poczty/)).toHaveCount(0);
  await signedIn(page, 'manager');
  await expect(page.getByText(/Nie skonfigurowano poczty/)).toHaveCount(0);
  await page.goto('/sign-out');
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toBeVisible();

  // the administrator, with no mail server (the answer of the mail settings as an unconfigured portal gives it)
  await page.route('**/api/settings/email', (route) => route.request().method() === 'GET'
    ? route.fulfill({ json: { smtpHost: '', smtpPort: 25, smtpUser: '', smtpPassword: '', smtpEmail: '', smtpSsl: 'OFF' } })
    : route.fallback());
  await signedIn(page, 'admin');
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
  await signedIn(page, 'kierowca', '/app/account/notifications');
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
  await signedIn(page, 'admin');
  // two entries a reader can tell apart: the log of everyone's notifications, and his own settings
  const menu = page.getByRole('navigation', { name: 'Menu główne' });
  await expect(menu.getByRole('link', { name: /Powiadomienia/ })).toHaveCount(0);
  await expect(menu.getByRole('link', { name: 'Ustawienia powiadomień' })).toBeVisible();
  await menu.getByRole('link', { name: 'Dziennik powiadomień' }).click();
  await expect(page).toHaveURL(/\/app\/notifications-log$/);
  await expect(page.getByRole('heading', { name: 'Dziennik powiadomień', level: 1 })).toBeVisible();
  await tableLoaded(page);
  await expect.poll(() => rowCount(page)).toBeGreaterThan(0);
  // the e-mail, channel, login and sending time are shown on demand (the table's columns)
  for (const header of ['Utworzono', 'Zdarzenie', 'Odbiorca', 'Stan', 'Próby', 'Błąd']) {
    await expect(page.getByRole('columnheader', { name: header, exact: true })).toBeVisible();
  }
  // newest first: the times of the rows shown never rise (the digest's schedule and other journeys
  // queue notifications of their own meanwhile, so the first row need not be this file's)
  const times: string[] = [];
  for (let index = 0; index < Math.min(10, await rowCount(page)); index++) {
    times.push(await page.locator(`.ag-row[row-index="${index}"] .ag-cell[col-id="createdAt"]`).innerText());
  }
  const minutes = times.map((text) => {
    const [, d, m, y, h, min] = /^(\d{2})\.(\d{2})\.(\d{4}) (\d{2}):(\d{2})/.exec(text.trim()) ?? [];
    expect(d, `a time the table shows: ${text}`).toBeDefined();
    return Number(`${y}${m}${d}${h}${min}`);
  });
  expect(minutes.length).toBeGreaterThan(0);
  expect(minutes).toEqual([...minutes].sort((a, b) => b - a));
  // the first journey's notification, in Polish
  const first = page.locator('.ag-row').filter({ has: page.locator('.ag-cell[col-id="event"]', { hasText: 'Zlecenie czeka na akceptację' }) }).first();
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

test('the driver\'s e-mail about his order: the facts he needs, one button that opens the order from his vehicle\'s panel, laid out for 600 px and a phone', async ({ page, browser, request }, testInfo) => {
  const smtp = await startTestSmtp(PORT + 25);
  try {
    // the administrator points the portal at the mail server; the notice of a missing server goes with it
    await signedIn(page, 'admin', '/app/email-config');
    await page.getByLabel(/^Serwer SMTP/).fill('127.0.0.1');
    await page.getByLabel(/^Szyfrowanie/).selectOption({ label: 'Brak' });
    await page.getByLabel(/^Port/).fill(String(PORT + 25));
    await page.getByLabel(/^Użytkownik/).fill('portal');
    await page.getByLabel(/^Hasło/).fill('smtp-haslo');
    await page.getByLabel(/^Adres nadawcy/).fill('portal@partnercfm.pl');
    await page.getByRole('button', { name: 'Zapisz' }).click();
    await expect(toast(page, 'Zapisano konfigurację')).toBeVisible();
    await expect(page.locator('[data-section="mail-not-configured"]')).toHaveCount(0);

    // the driver orders an inspection of his car; the station prices it, shows the prices and hands it on; the manager accepts
    const driver = await apiAs(request, 'kierowca', 'Kierowca123!', 'USER', { rejestr: 'WZ12345' });
    const { order } = await driver.post('/order/add', {
      order: { autTyp: 0, zgloInterw: 'PRZEGLAD', rejestr: 'WZ12345', zgloNazwiskoImie: 'Kowalski Jan', zgloEmail: 'jan.kowalski@transbud.pl', zgloZakres: 'Przegląd — e-mail do kierowcy', stanLicz: 88000 },
      rangePositions: [{ uslRodzaj: 1, tresc: 'Przegląd okresowy — robocizna', ilosc: 2, cena: 180, rabatProc: 0 }],
    });
    const advisor = await apiAs(request, 'doradca', 'Doradca123!', 'ADVISOR', { rejestr: 'WZ12345', vin: '000123' });
    await advisor.put(`/order/${order.autId}`, { cenaWidoczna: 'T' });
    await advisor.get(`/order/confirm-pricing/${order.autId}`);
    await advisor.post(`/order/${order.autId}/transition`, { to: 1 });
    const manager = await apiAs(request, 'manager', 'Manager123!', 'MANAGER');
    await manager.post(`/order/${order.autId}/transition`, { to: 2 });
    // a driver's order has no number yet: the mail names it by the day it was reported, as its dialog's title does
    expect(order.autNr).toBeNull();
    const { order: stored } = await driver.get(`/order/details/${order.autId}`);
    const name = `z ${dateText(new Date(stored.zgloData), 'Europe/Warsaw', 'DD.MM.YYYY')}`;

    let mail: ReceivedMail;
    do mail = await smtp.nextMail(30_000);
    // other journeys' orders of this driver from today read alike: this one is the mail whose link opens it
    while (!(mail.to.includes('jan.kowalski@transbud.pl') && mail.subject === `Zlecenie ${name} (WZ12345): Zaakceptowano przez Fleet Managera`
      && partsOf(mail).text.includes(`?open=${order.autId}\n`)));
    const { text, html } = partsOf(mail);
    // the text part: what, which vehicle, status, date, the price he may see, and the link
    expect(text).toContain(`Zlecenie: ${name}\nPojazd: WZ12345 (Škoda Octavia)\nRodzaj: `);
    expect(text).toContain('\nStatus: Zaakceptowano przez Fleet Managera\n');
    expect(text).toMatch(/\nWartość netto kosztorysu: 360,00\s*zł\n/);
    const link = /<a href="([^"]+)" style="display:inline-block[^"]*">Otwórz zlecenie w portalu<\/a>/.exec(html)?.[1];
    expect(link).toMatch(new RegExp(`/app/dane-pojazdu\\?open=${order.autId}$`));
    expect(text).toContain(`Otwórz w portalu: ${link}`);

    // the HTML part as a mail client shows it, at 600 px and on a phone: nothing wider than the screen, the facts stacked on the phone
    const reader = await browser.newPage();
    for (const width of [600, 390]) {
      await reader.setViewportSize({ width, height: 900 });
      await reader.setContent(html);
      expect(await reader.evaluate(() => document.documentElement.scrollWidth), `${width} px`).toBeLessThanOrEqual(width);
      const button = reader.getByRole('link', { name: 'Otwórz zlecenie w portalu' });
      await expect(button).toBeVisible();
      const box = (await button.boundingBox())!;
      expect(box.x + box.width).toBeLessThanOrEqual(width);
      const label = (await reader.locator('.fact-label', { hasText: 'Status' }).boundingBox())!;
      const value = (await reader.locator('.fact-value', { hasText: 'Zaakceptowano' }).boundingBox())!;
      if (width === 390) expect(value.y).toBeGreaterThan(label.y + label.height - 1);
      else expect(value.y).toBeLessThan(label.y + label.height);
      const shot = await reader.screenshot({ fullPage: true, path: testInfo.outputPath(`driver-mail-${width}.png`) });
      await testInfo.attach(`driver-mail-${width}`, { body: shot, contentType: 'image/png' });
    }
    await reader.close();

    // the button opens the order's details over his vehicle's panel (he has no orders table)
    const driverPage = await browser.newPage();
    await signedIn(driverPage, 'kierowca', new URL(link!).pathname + new URL(link!).search);
    const details = driverPage.getByRole('dialog', { name: `Zlecenie ${name}` });
    await expect(details.locator('[data-field="status"]')).toContainText('Zaakceptowano przez Fleet Managera');
    await expect(details.locator('[data-field="zatwierdzil"]')).toContainText('Nowak Anna');
    await expect(driverPage.locator('[data-screen="vehicle-panels"]')).toBeVisible();
    await details.getByRole('button', { name: 'Zamknij' }).last().click();
    await expect(driverPage).toHaveURL(/\/app\/dane-pojazdu$/);
    await driverPage.close();
  } finally {
    await smtp.close();
  }
});
