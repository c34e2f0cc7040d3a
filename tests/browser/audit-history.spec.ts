/**
 * "Historia zmian" (issue 37): an administrator changes a user's client and finds the change, its
 * field named as the form names it, in the user's history and in Dziennik zmian; a fleet manager
 * opens his client's order and reads its history of status moves, the statuses by name.
 */
import { type Page } from '@playwright/test';
import { apiAs, axeScan, expect, openByDoubleClick, openColumnFilter, signedIn, test, toast } from './support';

const SHOTS = process.env.E2E_SHOTS;

async function expectAccessible(page: Page) {
  const result = await axeScan(page).include('.modal-dialog').analyze();
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
}

async function shots(page: Page, name: string) {
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

const toolbar = (page: Page, name: string) => page.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name });

test('an administrator changes a user\'s client and sees it in the user\'s Historia zmian and in Dziennik zmian', async ({ page, request }) => {
  test.setTimeout(120_000);
  // a user of this journey alone (others sign in with the demo accounts)
  const login = `historia.${Date.now().toString(36)}`;
  const admin = await apiAs(request, 'admin', 'Admin123!', 'MANAGER');
  await admin.post('/users', { login, firstName: 'Halina', lastName: 'Historyczna', email: `${login}@transbud.pl`, dataDo: new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10), klientSymbol: 'KL003', password: 'Zielony#Rower42' });

  await signedIn(page, 'admin', '/app/users');
  await openColumnFilter(page, 'login');
  await page.locator('.ag-filter input[type="text"]').first().fill(login);
  await page.keyboard.press('Escape');
  const row = page.locator('.ag-row [col-id="login"]').filter({ hasText: login });
  await row.click();
  await toolbar(page, 'Edytuj').click();
  const edit = page.getByRole('dialog', { name: 'Edytuj użytkownika' });
  const client = edit.getByRole('combobox', { name: /^Klient/ });
  await client.fill('Tra');
  await edit.getByRole('option', { name: /KL001 — Transbud/ }).click();
  await edit.getByRole('button', { name: 'Zapisz' }).click();
  await expect(edit).toBeHidden();
  await expect(toast(page, 'Zapisano zmiany użytkownika')).toBeVisible();

  await row.click();
  await toolbar(page, 'Historia zmian').click();
  const history = page.getByRole('dialog', { name: `Historia zmian: ${login}` });
  await expect(history).toBeVisible();
  const list = history.locator('[data-list="changes"]');
  const change = list.locator('tbody tr').filter({ hasText: 'Klient' });
  await expect(change).toHaveCount(2); // set at creation, changed now
  await expect(change.first()).toContainText('KL003');
  await expect(change.first()).toContainText('KL001');
  await expect(change.first()).toContainText('Zmiana');
  await expect(list.getByRole('columnheader', { name: 'Przed' })).toBeVisible();
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  await expectAccessible(page);
  await shots(page, 'user-history');
  await page.keyboard.press('Escape');

  await page.getByRole('link', { name: 'Dziennik zmian' }).click();
  // the user's change (newest first): "Zmienione pola" names fields by label now, in a column right of the view (issue 49)
  const entry = page.locator('.ag-row').filter({ hasText: 'Użytkownicy' }).filter({ hasText: 'Zmiana' }).first();
  const details = page.getByRole('dialog', { name: /^Zmiana nr \d+$/ });
  // the grid may draw its rows again as the table's first answer lands
  await openByDoubleClick(entry, details);
  const field = details.getByRole('row').filter({ hasText: 'Klient' });
  await expect(field).toContainText('KL003');
  await expect(field).toContainText('KL001');
});

test('a fleet manager opens his client\'s order and reads its Historia zmian, the statuses by name', async ({ page, request }) => {
  test.setTimeout(120_000);
  // the driver orders an inspection; the station prices it and hands it on; the manager accepts it
  const driver = await apiAs(request, 'kierowca', 'Kierowca123!', 'USER', { rejestr: 'WZ12345' });
  const { order } = await driver.post('/order/add', {
    order: { autTyp: 0, zgloInterw: 'PRZEGLAD', rejestr: 'WZ12345', zgloNazwiskoImie: 'Kowalski Jan', zgloEmail: 'jan.kowalski@transbud.pl', zgloZakres: 'Przegląd — historia zmian', stanLicz: 88000 },
    rangePositions: [{ uslRodzaj: 1, tresc: 'Przegląd okresowy — robocizna', ilosc: 2, cena: 180, rabatProc: 0 }],
  });
  const advisor = await apiAs(request, 'doradca', 'Doradca123!', 'ADVISOR', { rejestr: 'WZ12345', vin: '000123' });
  await advisor.get(`/order/confirm-pricing/${order.autId}`);
  await advisor.post(`/order/${order.autId}/transition`, { to: 1 });
  const manager = await apiAs(request, 'manager', 'Manager123!', 'MANAGER');
  await manager.post(`/order/${order.autId}/transition`, { to: 2 });

  await signedIn(page, 'manager', `/app/order?open=${order.autId}`);
  const dialog = page.locator('.modal.details-dialog');
  await dialog.getByRole('tab', { name: 'Historia zmian' }).click();
  const list = dialog.locator('[data-list="changes"]');
  const moves = list.locator('tbody tr').filter({ hasText: 'Zmiana statusu' });
  await expect(moves.filter({ hasText: 'Zaakceptowano przez Fleet Managera' })).toHaveCount(1);
  await expect(moves.filter({ hasText: 'Oczekuje na akceptację Fleet Managera' })).not.toHaveCount(0);
  await expect(list.locator('tbody tr').filter({ hasText: 'Potwierdzenie kosztorysu' })).toHaveCount(1);
  await expect(list.locator('tbody tr').first()).toContainText('manager');
  // an order created under the trail has its whole life in it: no "Zmiany sprzed …" note (issue 49)
  await expect(list.getByTestId('list-note')).toHaveCount(0);
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  await expectAccessible(page);
  await shots(page, 'order-history');
});
