/**
 * "Rekord" of Dziennik zmian (issue 49): an entry names its record as users know it — a user by the
 * login, an order by its number or, before it has one, by its day — and opens it, from the list's
 * link and from the entry's details, at 1400 px and on a phone (where the list still shows what
 * changed and which record, not only when and who). The order's dialog is titled by its number,
 * never its id, and a seeded order older than the trail says from which day its changes are kept.
 */
import { type Page } from '@playwright/test';
import { dateText } from '../../runtime/core/date-text.ts';
import { apiAs, axeScan, expect, signedIn, tableLoaded, test } from './support';

const SHOTS = process.env.E2E_SHOTS;

async function expectAccessible(page: Page) {
  const result = await axeScan(page).analyze();
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

async function shot(page: Page, name: string) {
  if (SHOTS) await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

const yearAhead = () => new Date(Date.now() + 365 * 86_400_000).toISOString().slice(0, 10);

test('Dziennik zmian names each record as users know it and opens it, at 1400 px and on a phone', async ({ page, request }) => {
  test.setTimeout(180_000);
  // a user of this journey alone, and an order the driver reports, the station hands on and the manager accepts
  const login = `rekord.${Date.now().toString(36)}`;
  const admin = await apiAs(request, 'admin', 'Admin123!', 'MANAGER');
  const { user } = await admin.post('/users', { login, firstName: 'Regina', lastName: 'Rekordowa', email: `${login}@transbud.pl`, dataDo: yearAhead(), klientSymbol: 'KL003', password: 'Zielony#Rower42' });
  const driver = await apiAs(request, 'kierowca', 'Kierowca123!', 'USER', { rejestr: 'WZ12345' });
  const { order } = await driver.post('/order/add', {
    order: { autTyp: 0, zgloInterw: 'PRZEGLAD', rejestr: 'WZ12345', zgloNazwiskoImie: 'Kowalski Jan', zgloEmail: 'jan.kowalski@transbud.pl', zgloZakres: 'Przegląd — rekord w dzienniku', stanLicz: 88000 },
    rangePositions: [{ uslRodzaj: 1, tresc: 'Przegląd okresowy — robocizna', ilosc: 2, cena: 180, rabatProc: 0 }],
  });
  const advisor = await apiAs(request, 'doradca', 'Doradca123!', 'ADVISOR', { rejestr: 'WZ12345', vin: '000123' });
  await advisor.get(`/order/confirm-pricing/${order.autId}`);
  await advisor.post(`/order/${order.autId}/transition`, { to: 1 });
  const manager = await apiAs(request, 'manager', 'Manager123!', 'MANAGER');
  await manager.post(`/order/${order.autId}/transition`, { to: 2 });
  // the driver's order has no number yet: it is the order "z <the day it was reported>"
  expect(order.autNr).toBeNull();
  const { order: stored } = await driver.get(`/order/details/${order.autId}`);
  const orderName = `z ${dateText(new Date(stored.zgloData), 'Europe/Warsaw', 'DD.MM.YYYY')}`;

  // 1400 px: the user's entry names him by his login, and its link opens him (not the entry's details)
  await page.setViewportSize({ width: 1400, height: 900 });
  await signedIn(page, 'admin', '/app/dziennik-zmian');
  await tableLoaded(page);
  const created = page.locator('.ag-row').filter({ has: page.locator('[col-id="recordName"]', { hasText: login }) }).filter({ hasText: 'Dodanie' }).first();
  await expect(created.locator('[col-id="recordName"]')).toHaveText(login);
  await expect(created.locator('[col-id="recordName"]')).not.toContainText(String(user.id));
  await shot(page, 'audit-record-list-1400');
  await page.setViewportSize({ width: 900, height: 900 });
  await expect(created.locator('[col-id="recordName"]')).toBeVisible();
  await shot(page, 'audit-record-list-900');
  await page.setViewportSize({ width: 1400, height: 900 });
  await created.getByRole('link', { name: login }).click();
  await expect(page).toHaveURL(new RegExp(`/app/users\\?open=${user.id}$`));
  const preview = page.getByRole('dialog', { name: 'Podgląd użytkownika' });
  await expect(preview.getByLabel(/^Login/)).toHaveValue(login);
  await preview.getByRole('button', { name: 'Zamknij' }).last().click();
  await expect(preview).toBeHidden();

  // the order's status move: named by its day, opened from the entry's details
  await page.goto('/app/dziennik-zmian');
  await tableLoaded(page);
  const moved = page.locator('.ag-row').filter({ hasText: 'Zmiana statusu' }).filter({ has: page.locator('[col-id="recordName"]', { hasText: orderName }) }).first();
  await expect(moved.locator('[col-id="recordName"]')).toHaveText(orderName);
  await moved.locator('[col-id="action"]').click();
  const details = page.getByRole('dialog', { name: /^Zmiana nr \d+$/ });
  const record = details.locator('[data-field="recordName"]');
  await expect(record).toContainText(`Rekord${orderName}`);
  await expectAccessible(page);
  await shot(page, 'audit-record-details-1400');
  await record.getByRole('link', { name: orderName }).click();
  await expect(page).toHaveURL(new RegExp(`/app/order\\?open=${order.autId}$`));
  // the order's dialog is titled by what names it, never by its id
  const orderDialog = page.locator('.modal.details-dialog');
  await expect(orderDialog.getByRole('heading', { level: 2 })).toHaveText(`Zlecenie ${orderName}`);
  await orderDialog.getByRole('tab', { name: 'Historia zmian' }).click();
  await expect(orderDialog.locator('[data-list="changes"] tbody tr').filter({ hasText: 'Zaakceptowano przez Fleet Managera' })).not.toHaveCount(0);
  await shot(page, 'audit-record-order-1400');
  await orderDialog.getByRole('button', { name: 'Zamknij' }).last().click();

  // 390 px: each entry is its lines — when and who, what and which record (a link), the fields — and the record opens from there
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/app/dziennik-zmian');
  await tableLoaded(page);
  const narrow = page.locator('.ag-row').filter({ hasText: login }).filter({ hasText: 'Dodanie' }).first();
  await expect(narrow.locator('.narrow-row-first')).toContainText('admin');
  await expect(narrow.locator('.narrow-row-more').first().locator('.narrow-row-part')).toHaveText(['Dodanie', 'Użytkownicy', login]);
  await expect(narrow).toContainText('Zmienione pola:');
  await shot(page, 'audit-record-list-390');
  await narrow.getByRole('link', { name: login }).click();
  await expect(page).toHaveURL(new RegExp(`/app/users\\?open=${user.id}$`));
  await expect(page.getByRole('dialog', { name: 'Podgląd użytkownika' }).getByLabel(/^Login/)).toHaveValue(login);
  await page.getByRole('dialog', { name: 'Podgląd użytkownika' }).getByRole('button', { name: 'Zamknij' }).last().click();

  // 390 px, the order from its entry's details
  await page.goto('/app/dziennik-zmian');
  await tableLoaded(page);
  await page.locator('.ag-row').filter({ hasText: 'Zmiana statusu' }).filter({ hasText: orderName }).first().locator('.narrow-row-first').click();
  const phoneDetails = page.getByRole('dialog', { name: /^Zmiana nr \d+$/ });
  await expect(phoneDetails.locator('[data-field="recordName"]')).toContainText(orderName);
  await shot(page, 'audit-record-details-390');
  await phoneDetails.locator('[data-field="recordName"]').getByRole('link', { name: orderName }).click();
  await expect(page).toHaveURL(new RegExp(`/app/order\\?open=${order.autId}$`));
  await expect(page.locator('.modal.details-dialog').getByRole('heading', { level: 2 })).toHaveText(`Zlecenie ${orderName}`);
});

test('an authorised order is titled by its number, and one older than the trail says from which day its changes are kept', async ({ page, request }) => {
  const admin = await apiAs(request, 'admin', 'Admin123!', 'MANAGER');
  // the seed's authorised repair (status 4), approved before the trail began: no entry of its life
  const { rows } = await admin.post('/order/table2', { startRow: 0, endRow: 100, sortModel: [], filterModel: { status: { filterType: 'number', type: 'equals', filter: 4 } } });
  const seeded = (rows as { autId: number; autNr: string | null; zgloZakres: string | null }[]).find((o) => o.autNr && o.zgloZakres === 'Wymiana klocków hamulcowych przód');
  expect(seeded).toBeTruthy();
  await signedIn(page, 'admin', `/app/order?open=${seeded!.autId}`);
  const dialog = page.locator('.modal.details-dialog');
  await expect(dialog.getByRole('heading', { level: 2 })).toHaveText(`Zlecenie ${seeded!.autNr}`);
  await dialog.getByRole('tab', { name: 'Historia zmian' }).click();
  const list = dialog.locator('[data-list="changes"]');
  await expect(list.getByTestId('list-note')).toHaveText(/^Zmiany sprzed \d{2}\.\d{2}\.\d{4} nie są zapisane: dziennik zmian prowadzony jest od tego dnia\.$/);
  await expect(list).not.toContainText('Nie zapisano jeszcze żadnej zmiany');
  await shot(page, 'audit-record-untracked-1400');
});
