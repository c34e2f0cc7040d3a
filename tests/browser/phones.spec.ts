/**
 * The first screens on a phone, 390 px (issue 49): a fleet manager sees each vehicle as a few lines
 * (plate and model, driver, odometer and inspection) instead of two columns of twelve, a counts line
 * that says what it counts, and his initials in the header rather than a role letter; the users'
 * ten toolbar buttons fold into one menu so the list starts on the first screen; the authenticator
 * set-up offers the otpauth:// link that opens the app on the same phone; the sessions put "Ta
 * sesja" first. Screenshots go to SHOTS when it is set.
 */
import { mkdirSync } from 'node:fs';
import { type Page } from '@playwright/test';
import { expect, openColumnFilter, rowCount, settled, signedIn, tableLoaded, test } from './support';

const SHOTS = process.env.SHOTS;
const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  mkdirSync(SHOTS, { recursive: true });
  await settled(page);
  await page.screenshot({ path: `${SHOTS}/phones-${name}.png` });
};
const PHONE = { width: 390, height: 844 };

test('a fleet manager on a phone: vehicles as lines, a counts line that says what it counts, his initials', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signedIn(page, 'manager');
  await tableLoaded(page);
  const first = page.locator('.ag-row').first();
  // the plate and the model on the first line, then the driver, then the figures by their names
  const firstLine = first.locator('.narrow-row-first .narrow-row-part');
  await expect(firstLine).toHaveCount(2);
  await expect(firstLine.first()).toHaveText(/^[A-Z]{2}\d{4,5}[A-Z]?$/);
  await expect(page.locator('.narrow-row-more').filter({ hasText: 'Stan licznika:' }).first()).toBeVisible();
  await expect(page.locator('.ag-header-cell[col-id="marka"]')).toHaveCount(0);
  await expect(page.locator('[data-section="strip"]')).toContainText(/^Przypomnienia: po terminie \d+ · pilne \d+ · wkrótce \d+/);
  // the header: the person's initials, his name and role for a screen reader
  const name = (await page.locator('.role-name').textContent())!.trim();
  const [last, firstName] = name.split(/\s+/);
  await expect(page.getByTestId('role-initials')).toHaveText(`${firstName[0]}${last[0]}`.toUpperCase());
  await shot(page, 'vehicles-390');

  // the wide layout is the same table as before
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(page.locator('.ag-header-cell[col-id="marka"]')).toHaveCount(1);
  await expect(page.locator('.narrow-row')).toHaveCount(0);
});

test('an administrator on a phone: the users\' toolbar folds into "Działania", the list starts on the first screen', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signedIn(page, 'admin', '/app/users');
  await tableLoaded(page);
  const toolbar = page.getByRole('toolbar', { name: 'Działania na tabeli' });
  await expect(toolbar.getByRole('button')).toHaveCount(2);
  await expect(toolbar.getByRole('button', { name: 'Dodaj' })).toBeVisible();
  const firstRow = page.locator('.ag-row').first();
  await expect(firstRow).toBeVisible();
  expect((await firstRow.boundingBox())!.y + 40, 'the first user within the first screen').toBeLessThan(PHONE.height);
  await shot(page, 'users-390');
  // the folded buttons still work: "Historia zmian" of the selected user
  await firstRow.click();
  await toolbar.getByRole('button', { name: 'Działania' }).click();
  await shot(page, 'users-menu-390');
  await page.getByRole('button', { name: 'Historia zmian' }).click();
  await expect(page.getByRole('dialog', { name: /^Historia zmian: / })).toBeVisible();
});

test('on a phone the authenticator set-up opens the app on the same phone; "Ta sesja" comes first', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signedIn(page, 'manager', '/app/account/security');
  const sessions = page.locator('.sessions-table tbody tr');
  await expect(sessions.first()).toContainText('Ta sesja');
  await page.getByRole('button', { name: 'Włącz' }).click();
  const open = page.getByTestId('totp-open-app');
  await expect(open).toBeVisible();
  await expect(open).toHaveText('Otwórz w aplikacji uwierzytelniającej');
  expect(await open.getAttribute('href')).toMatch(/^otpauth:\/\/totp\/.+secret=[A-Z2-7]+/);
  await expect(page.getByRole('img', { name: /Kod QR/ })).toBeVisible();
  await expect(page.getByTestId('totp-secret')).toBeVisible();
  await shot(page, 'totp-390');
  // a computer scans the code: no link there
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(open).toBeHidden();
  await page.getByRole('button', { name: 'Anuluj' }).click();
});

test('orders and damages on a phone: each a few lines (plate and model, status or stage, date), a tap opens it', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signedIn(page, 'manager', '/app/order');
  await tableLoaded(page);
  const order = page.locator('.ag-row').filter({ hasText: 'Oczekuje na akceptację Fleet Managera' }).first();
  await expect(order.locator('.narrow-row-first .narrow-row-part').first()).toHaveText(/^[A-Z]{2}\d{4,5}[A-Z]?$/);
  await expect(order.locator('.narrow-row-more').filter({ hasText: /^Data zgłoszenia: \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}/ })).toBeVisible();
  await expect(page.locator('.ag-header-cell[col-id="statusZnaczenie"]')).toHaveCount(0);
  await shot(page, 'orders-390');
  await order.locator('.narrow-row-first').click();
  await expect(page.getByRole('dialog').getByRole('heading', { name: /^Zlecenie / })).toBeVisible();
  await page.getByRole('dialog').getByRole('button', { name: 'Zamknij' }).first().click();

  await page.goto('/app/damage');
  await tableLoaded(page);
  const damage = page.locator('.ag-row').first();
  await expect(damage.locator('.narrow-row-more').first()).toContainText(/SZK\//);
  await expect(damage.locator('.narrow-row-more').filter({ hasText: /^Data szkody: \d{2}\.\d{2}\.\d{4}/ })).toBeVisible();
  await shot(page, 'damages-390');
  await damage.locator('.narrow-row-first').click();
  await expect(page.getByRole('dialog')).toBeVisible();
});

test('every table on a phone is a few lines a row: the assignments\' driver and dates, the tyres\' state, the contracts\' term', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await signedIn(page, 'manager', '/app/przydzialy');
  await tableLoaded(page);
  const assignment = page.locator('.ag-row').first();
  await expect(assignment.locator('.narrow-row-first .narrow-row-part').first()).toHaveText(/^[A-Z]{2}\d{4,5}[A-Z]?$/);
  await expect(assignment.locator('.narrow-row-more').filter({ hasText: /^Data wydania: \d{2}\.\d{2}\.\d{4} \d{2}:\d{2}$/ })).toBeVisible();
  // the driver's name on the second line: the surname, a space, the first name
  await expect(assignment.locator('.narrow-row-more').first().locator('.narrow-row-part')).toHaveText([/^\p{Lu}\p{Ll}+$/u, /^\p{Lu}\p{Ll}+$/u, /^MPK-\d+$/]);
  await expect(assignment.locator('.narrow-row-more').first().locator('.narrow-row-part--joined')).toHaveCount(1);
  await shot(page, 'assignments-390');

  await page.goto('/app/tire');
  await tableLoaded(page);
  const tyre = page.locator('.ag-row').first();
  await expect(tyre.locator('.narrow-row-more').first().locator('.narrow-row-part')).toHaveText([/^(Na pojeździe|W magazynie)$/, /^(Letnie|Zimowe)$/, /^\d{3}\/\d{2} R\d{2}$/]);
  await expect(tyre.locator('.narrow-row-more').filter({ hasText: /^Stan bieżnika: \d+,\d\s?mm$/ })).toBeVisible();
  await shot(page, 'tires-390');

  await page.goto('/app/contract');
  await tableLoaded(page);
  await expect(page.locator('.ag-row').first().locator('.narrow-row-more').first().locator('.narrow-row-part')).toHaveText([/^Data od: \d{2}\.\d{2}\.\d{4}$/, /^Data do: \d{2}\.\d{2}\.\d{4}$/]);
  await expect(page.locator('.ag-header-cell[col-id="umowaNr"]')).toHaveCount(0);
  await shot(page, 'contracts-390');
});

test('a table filtered on a computer keeps its filter on a phone and back, and a saved filter works on the phone', async ({ page }) => {
  await signedIn(page, 'manager', '/app/przydzialy');
  await tableLoaded(page);
  const all = await rowCount(page);
  await openColumnFilter(page, 'mpk');
  await page.locator('.ag-filter input[type="text"]').first().fill('MPK-131');
  await page.keyboard.press('Escape');
  await expect.poll(() => rowCount(page)).toBeLessThan(all);
  const filtered = await rowCount(page);
  expect(filtered).toBeGreaterThan(0);

  // the window narrowed to a phone's (a phone turned upright): the same rows, as lines
  await page.setViewportSize(PHONE);
  await expect(page.locator('.narrow-row').first()).toBeVisible();
  await expect.poll(() => rowCount(page)).toBe(filtered);
  // the driver's line ends with the cost centre filtered on
  for (const line of await page.locator('.narrow-row > div:nth-child(2)').all()) await expect(line).toContainText('MPK-131');
  // column views are about columns: the phone's rows have none
  await expect(page.getByTestId('saved-views')).toHaveCount(0);

  // and wide again: the column's filter is still there, and so are the rows
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect.poll(() => rowCount(page)).toBe(filtered);
  await openColumnFilter(page, 'mpk');
  await expect(page.locator('.ag-filter input[type="text"]').first()).toHaveValue('MPK-131');
  await page.keyboard.press('Escape');

  // the filter saved on the computer, chosen on the phone after the table was reset
  const saved = page.getByTestId('saved-filters');
  await saved.getByRole('button', { name: 'Filtry' }).click();
  await saved.getByRole('button', { name: 'Zapisz bieżący filtr…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Zapisz filtr' });
  await dialog.getByLabel('Nazwa filtru').fill('Dział 131');
  await dialog.getByRole('button', { name: 'Zapisz' }).click();
  await expect(dialog).toHaveCount(0);
  await page.getByRole('button', { name: 'Przywróć układ kolumn' }).click();
  await expect.poll(() => rowCount(page)).toBe(all);
  await page.setViewportSize(PHONE);
  await expect.poll(() => rowCount(page)).toBe(all);
  await saved.getByRole('button', { name: 'Filtry' }).click();
  await saved.getByRole('button', { name: 'Dział 131', exact: true }).click();
  await expect.poll(() => rowCount(page)).toBe(filtered);
});
