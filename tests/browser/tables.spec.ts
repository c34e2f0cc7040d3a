/**
 * Every table screen of the route table, opened from the menu by each role that sees it: the
 * title, the first column headers in Polish, the rows the server sends, and the roles that must
 * not reach it. Screenshots land in test-results/tables-<route>-<role>.png.
 */
import { type Page } from '@playwright/test';
import { expect, signedIn, test, type Account } from './support.ts';

interface TableCase {
  route: string;
  menu: string;
  title: string;
  /** Column id → header, for the first columns (the grid renders only the columns in view). */
  headers: Record<string, string>;
  roles: Account[];
}

const TABLES: TableCase[] = [
  { route: '/app/przydzialy', menu: 'Przydziały', title: 'Przydziały', headers: { rejestr: 'Nr rejestracyjny', markaOpis: 'Marka', modelOpis: 'Model' }, roles: ['admin', 'manager'] },
  { route: '/app/order', menu: 'Zlecenia', title: 'Zlecenia', headers: { status: 'Stan', statusZnaczenie: 'Status', autNr: 'Nr zlecenia' }, roles: ['admin', 'manager', 'doradca'] },
  { route: '/app/damage', menu: 'Szkody', title: 'Szkody', headers: { nrSprawy: 'Nr sprawy', etapZnacz: 'Etap', dataSzkod: 'Data szkody' }, roles: ['admin', 'manager'] },
  { route: '/app/users', menu: 'Użytkownicy', title: 'Użytkownicy', headers: { login: 'Login', rola: 'Rola', lastName: 'Nazwisko' }, roles: ['admin'] },
  { route: '/app/pracownicy', menu: 'Pracownicy', title: 'Pracownicy', headers: { nazwisko: 'Nazwisko', imie: 'Imię', nrPrac: 'Nr pracownika' }, roles: ['admin'] },
  { route: '/app/login-history', menu: 'Historia logowań', title: 'Historia logowań', headers: { login: 'Login', loginDate: 'Data logowania', uwagi: 'Uwagi' }, roles: ['admin'] },
  { route: '/app/acceptance-history', menu: 'Historia akceptacji', title: 'Historia akceptacji', headers: { login: 'Użytkownik', name: 'Imię', surname: 'Nazwisko' }, roles: ['admin'] },
  { route: '/app/invoice', menu: 'Faktury', title: 'Faktury', headers: { faktNrCaly: 'Nr faktury', faktDataWyst: 'Data wystawienia', klient: 'Klient' }, roles: ['admin', 'manager'] },
  { route: '/app/fuel-card', menu: 'Karty paliwowe', title: 'Karty paliwowe', headers: { rejestr: 'Nr rejestracyjny', nrKarty: 'Nr karty', firma: 'Wystawca karty' }, roles: ['admin', 'manager', 'kierowca'] },
  { route: '/app/contract', menu: 'Kontrakty', title: 'Kontrakty', headers: { rejestr: 'Nr rejestracyjny', umowaNr: 'Nr umowy', dataOd: 'Data od' }, roles: ['admin', 'manager'] },
  { route: '/app/tire', menu: 'Opony', title: 'Opony', headers: { rejestr: 'Nr rejestracyjny', statusOp: 'Status', rodzajOp: 'Rodzaj' }, roles: ['admin', 'manager'] },
];

const ALL: Account[] = ['admin', 'manager', 'kierowca', 'doradca'];

async function openFromMenu(page: Page, entry: string) {
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: entry, exact: true }).click();
}

for (const table of TABLES) {
  for (const role of table.roles) {
    test(`${role} opens ${table.route} from the menu and sees its columns and rows`, async ({ page }) => {
      const answers: number[] = [];
      page.on('response', (r) => {
        if (r.url().endsWith('/table2')) answers.push(r.status());
      });
      await signedIn(page, role);
      await openFromMenu(page, table.menu);
      await expect(page).toHaveURL(new RegExp(`${table.route}$`));
      await expect(page.getByRole('heading', { name: table.title, level: 1 })).toBeVisible();
      for (const [colId, header] of Object.entries(table.headers)) {
        await expect(page.locator(`.ag-header-cell[col-id="${colId}"] .ag-header-cell-text`)).toHaveText(header);
      }
      // a loaded row, not the grid's loading placeholder: its first text column has text
      const textColumn = Object.keys(table.headers).find((id) => id !== 'status')!;
      await expect(page.locator(`.ag-row[row-index="0"] .ag-cell[col-id="${textColumn}"]`)).toHaveText(/\S/);
      await expect(page.getByTestId('row-count')).toContainText(/Liczba rekordów: \d/);
      expect(answers.every((s) => s === 200)).toBe(true);
      await page.screenshot({ path: `test-results/tables${table.route.replaceAll('/', '-')}-${role}.png` });
    });
  }

  const refused = ALL.filter((r) => !table.roles.includes(r));
  if (refused.length) {
    test(`${refused.join(', ')} cannot open ${table.route}, neither from the menu nor by address`, async ({ page }) => {
      for (const role of refused) {
        await signedIn(page, role);
        await expect(page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: table.menu, exact: true })).toHaveCount(0);
        await page.goto(table.route);
        await expect(page.getByRole('alert').filter({ hasText: 'Nie masz dostępu do tej strony.' })).toBeVisible();
        await page.goto('/sign-out');
        await expect(page).toHaveURL(/\/$/);
      }
    });
  }
}
