import { ACCOUNTS, axeScan, expect, menuEntries, signIn, signedIn, test } from './support.ts';

const RECORDS_OFFICE = ['Dane pojazdu', 'Przydziały', 'Zlecenia', 'Szkody', 'Kontrole pojazdów', 'Opony', 'Faktury', 'Karty paliwowe', 'Raporty', 'Kontrakty'];

const MENUS = {
  admin: ['Pulpit', ...RECORDS_OFFICE, 'Historia logowań', 'Dziennik zmian', 'Konfiguracja email', 'Użytkownicy', 'Pracownicy', 'Historia akceptacji', 'Dziennik powiadomień', 'Webhooki', 'Konfiguracja portalu', 'Konta integracyjne', 'Import danych', 'Odśwież aplikację', 'Zmiana hasła', 'Ustawienia powiadomień', 'Bezpieczeństwo', 'Język', 'Wyloguj'],
  manager: ['Pulpit', ...RECORDS_OFFICE, 'Zmiana hasła', 'Ustawienia powiadomień', 'Bezpieczeństwo', 'Język', 'Wyloguj'],
  kierowca: ['Dane pojazdu', 'Aktualizacja licznika', 'Zamówienia usługi', 'Karty paliwowe', 'Zmiana hasła', 'Ustawienia powiadomień', 'Bezpieczeństwo', 'Język', 'Wyloguj'],
  doradca: ['Dane pojazdu', 'Zlecenia', 'Zamówienia usługi', 'Zmień pojazd', 'Zmiana hasła', 'Ustawienia powiadomień', 'Bezpieczeństwo', 'Język', 'Wyloguj'],
} as const;

const NAMES = { admin: 'Zieliński Piotr', manager: 'Nowak Anna', kierowca: 'Kowalski Jan', doradca: 'Lewandowski Marek' } as const;
// the top bar names the role in the words the login screen offered it (one set of texts, app:roles)
const BADGES = { admin: 'Administrator', manager: ACCOUNTS.manager.choice, kierowca: ACCOUNTS.kierowca.choice, doradca: ACCOUNTS.doradca.choice } as const;

for (const account of Object.keys(MENUS) as (keyof typeof MENUS)[]) {
  test(`${account} signs in and sees exactly their menu`, async ({ page }) => {
    await signIn(page, account);
    expect(await menuEntries(page)).toEqual(MENUS[account]);
    const badge = page.getByTestId('role-badge');
    await expect(badge).toContainText(NAMES[account]);
    await expect(badge.locator('.role-label')).toHaveText(`${account} · ${BADGES[account]}`);
    await expect(page.locator('html')).toHaveAttribute('lang', 'pl');
    await expect(page.getByRole('contentinfo')).toContainText('Wersja');
    await page.screenshot({ path: `test-results/menu-${account}.png`, fullPage: true });
  });
}

test('the administrator changes his own password from the menu, as every other role does', async ({ page }) => {
  await signedIn(page, 'admin');
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Zmiana hasła' }).click();
  await expect(page).toHaveURL(/\/app\/account\/password$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Zmiana hasła' })).toBeVisible();
  await expect(page.getByLabel(/^Obecne hasło/)).toBeVisible();
});

test('the login screen shows the plate for drivers and advisors, and the VIN for advisors only', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveTitle(/Partner CFM/);
  await page.getByLabel('Fleet Manager', { exact: true }).check();
  await expect(page.getByLabel(/^Numer rejestracyjny/)).toHaveCount(0);
  await expect(page.getByLabel(/^Ostatnie 6 znaków VIN/)).toHaveCount(0);
  await page.getByLabel('Użytkownik pojazdu', { exact: true }).check();
  await expect(page.getByLabel(/^Numer rejestracyjny/)).toBeVisible();
  await expect(page.getByLabel(/^Ostatnie 6 znaków VIN/)).toHaveCount(0);
  await page.getByLabel('Doradca serwisowy', { exact: true }).check();
  await expect(page.getByLabel(/^Numer rejestracyjny/)).toBeVisible();
  await expect(page.getByLabel(/^Ostatnie 6 znaków VIN/)).toBeVisible();
  const serious = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('a wrong password shows the Polish message and keeps the user on the login screen', async ({ page }) => {
  await page.goto('/');
  await page.getByLabel('Fleet Manager', { exact: true }).check();
  await page.getByLabel(/^Login\*?$/).fill('manager');
  await page.getByLabel(/^Hasło\*?$/).fill('Zle-haslo1!');
  await page.getByRole('button', { name: 'Zaloguj', exact: true }).click();
  await expect(page.getByTestId('login-error')).toHaveText('Błąd logowania: Błędny login lub hasło!');
  await expect(page).toHaveURL(/\/$/);
});

test('a protected route without a session goes to the login screen; a signed-in user skips it', async ({ page }) => {
  await page.goto('/app/przydzialy');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('button', { name: 'Zaloguj', exact: true })).toBeVisible();
  await signIn(page, 'manager');
  await page.goto('/login');
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
});

test('a route the role may not open says so, and sign-out ends the session', async ({ page }) => {
  await signedIn(page, 'kierowca', '/app/users');
  await expect(page.getByRole('alert')).toHaveText('Nie masz dostępu do tej strony.');
  await page.getByRole('link', { name: 'Wyloguj' }).click();
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/app/dane-pojazdu');
  await expect(page).toHaveURL(/\/$/);
});

test('the side menu collapses below 992 px and opens from the toggle', async ({ page }) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await signedIn(page, 'manager');
  await expect(page.getByRole('navigation', { name: 'Menu główne' })).toBeHidden();
  await page.getByRole('button', { name: 'Pokaż lub ukryj menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Menu główne' })).toBeVisible();
  await page.screenshot({ path: 'test-results/menu-narrow.png' });
});
