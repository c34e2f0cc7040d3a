/**
 * The cockpit (issue 24, screens/dashboard.json): the strip above the vehicles table, the Pulpit's
 * tiles, list, approval inbox and charts, a tile opening a filtered table, and a driver's to-do.
 * Each journey finds records of its own: the inbox decides the seed's showcase order of its client
 * (reminder-showcase.ts), the driver's reading is entered by the driver of the seed's stale vehicle.
 */
import { type Page } from '@playwright/test';
import { axeScan, expect, rowCount, signedIn, submitLogin, tableLoaded, test, toast } from './support.ts';

/** No serious or critical violation on the page as it is. */
async function expectAccessible(page: Page) {
  const serious = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(serious.map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** The vehicle of the seed's driver kierowca.licznik (server/seed/seed.ts). */
const STALE_PLATE = 'WA20016';

test('the strip above the vehicles table leads to the Pulpit: tiles, list on a tile\'s rule, details on the rule\'s tab', async ({ page }) => {
  await signedIn(page, 'manager');
  const strip = page.locator('[data-section="strip"]');
  await expect(strip).toContainText(/Przypomnienia: po terminie \d+ · pilne \d+ · wkrótce \d+/);
  await strip.getByRole('link').click();
  await expect(page).toHaveURL(/\/app\/pulpit$/);
  await expect(page.getByRole('heading', { name: 'Pulpit', level: 1 })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link').first()).toHaveText('Pulpit');

  // a tile says its urgency in words beside its colour
  const oc = page.locator('[data-rule="insuranceOc"] button');
  await expect(oc).toContainText(/Polisa OC/);
  await expect(oc.locator('.urgency-badge')).toHaveText(/Po terminie|Pilne|Wkrótce|Nic nie czeka/);

  // a tile without a table shows its rule's items in the list
  await oc.click();
  await expect(oc).toHaveAttribute('aria-pressed', 'true');
  const list = page.locator('[data-section="list"]');
  await expect(list.locator('.rule-chip')).toContainText('Polisa OC');
  await expect(list.locator('.reminder-rule').first()).toHaveText('Polisa OC');
  const rules = await list.locator('tbody .reminder-rule').allInnerTexts();
  expect(new Set(rules)).toEqual(new Set(['Polisa OC']));

  // a row opens its vehicle on the insurance tab
  await list.locator('.reminder-open').first().click();
  const details = page.getByRole('dialog');
  await expect(details.getByRole('tab', { name: 'Polisy' })).toHaveAttribute('aria-selected', 'true');
  await details.getByRole('button', { name: 'Zamknij' }).last().click();

  // the chips choose an urgency
  await list.getByRole('button', { name: 'Pokaż przypomnienia wszystkich rodzajów' }).click();
  await list.getByRole('button', { name: /^Pilne \(\d+\)$/ }).click();
  await expect(list.getByRole('button', { name: /^Pilne \(\d+\)$/ })).toHaveAttribute('aria-pressed', 'true');
  await expect(list.locator('tbody .urgency-badge').first()).toHaveText('Pilne');
});

test('a tile of a rule with a table opens the table filtered to the rule\'s rows', async ({ page }) => {
  await signedIn(page, 'manager', '/app/pulpit');
  const tile = page.locator('[data-rule="ordersAwaitingAcceptance"] a');
  const total = Number((await tile.locator('.reminder-tile-total').innerText()).replace(/\D/g, ''));
  await tile.click();
  await expect(page).toHaveURL(/\/app\/order\?filter=/);
  await tableLoaded(page);
  await expect.poll(() => rowCount(page)).toBeGreaterThanOrEqual(total);
  // a bad filter in the address is ignored, and the link's filter was not kept as the table's own
  await page.goto('/app/order?filter=%7Bstatus');
  await tableLoaded(page);
  await expect.poll(() => rowCount(page)).toBeGreaterThan(total);
});

test('a manager accepts an order from the approval inbox: Tak/Nie, the Polish toast, and the order leaves the inbox and its tile', async ({ page }) => {
  await signedIn(page, 'manager', '/app/pulpit');
  const inbox = page.locator('[data-section="inbox"]');
  await expect(inbox.getByRole('heading', { name: 'Zlecenia do akceptacji' })).toBeVisible();
  // its own order: the seed's showcase order of this client whose prices the manager sees
  // (cenaWidoczna T); no other journey decides it
  const row = inbox.locator('tbody tr').filter({ hasNotText: 'w ramach kontraktu' }).first();
  await expect(row).toBeVisible();
  // the order as the manager knows it: its number, else the day it was reported — never its id (issue 49)
  const number = (await row.locator('td').first().innerText()).trim();
  expect(number).toMatch(/^(AUT\/\d{4}\/\d+|z \d{2}\.\d{2}\.\d{4})$/);
  const autId = await row.getAttribute('data-key');
  const plate = (await row.locator('td').nth(1).innerText()).trim();
  const value = (await row.locator('td').nth(5).innerText()).trim();
  expect(value).toMatch(/zł$/);
  const tile = page.locator('[data-rule="ordersAwaitingAcceptance"] .reminder-tile-total');
  const before = Number((await tile.innerText()).replace(/\D/g, ''));

  // the question names the order: its number, vehicle, type and the value the manager may see
  await row.getByRole('button', { name: 'Akceptuj', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Potwierdzenie' });
  await expect(confirm).toContainText('Czy na pewno wybrać „Akceptuj” dla tego zlecenia?');
  const facts = confirm.locator('.confirm-facts');
  await expect(facts.locator('dt')).toHaveText(['Zlecenie', 'Pojazd', 'Rodzaj', 'Wartość netto']);
  await expect(facts.locator('dd').nth(0)).toHaveText(number);
  await expect(facts.locator('dd').nth(1)).toContainText(plate);
  await expect(facts.locator('dd').nth(3)).toHaveText(value);
  await expectAccessible(page);
  await confirm.getByRole('button', { name: 'Nie' }).click();
  await expect(confirm).toBeHidden();
  await expect(inbox.locator(`tbody tr[data-key="${autId}"]`)).toBeVisible();

  // where the manager may not see the price, the question says it is settled under the contract
  const hidden = inbox.locator('tbody tr').filter({ hasText: 'w ramach kontraktu' }).first();
  await hidden.getByRole('button', { name: 'Odrzuć', exact: true }).click();
  await expect(confirm.locator('.confirm-facts dd').nth(3)).toHaveText('rozliczana w ramach kontraktu');
  await expect(confirm).not.toContainText('zł');
  await confirm.getByRole('button', { name: 'Nie' }).click();
  await expect(confirm).toBeHidden();

  await row.getByRole('button', { name: 'Akceptuj', exact: true }).click();
  await confirm.getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, /Zmieniono status zlecenia/)).toBeVisible();
  await expect(inbox.locator(`tbody tr[data-key="${autId}"]`)).toHaveCount(0);
  await expect.poll(async () => Number((await tile.innerText()).replace(/\D/g, ''))).toBe(before - 1);

  // the order's details name who accepted it, as the status history does
  await page.goto(`/app/order?open=${autId}`);
  const details = page.locator('.modal.details-dialog');
  // titled by its number, or before it has one by the day it was reported, never by its id
  await expect(details.getByRole('heading', { level: 2 })).toHaveText(/^Zlecenie (AUT\/\d{4}\/\d+|z \d{2}\.\d{2}\.\d{4})$/);
  await expect(details.locator('[data-field="zatwierdzil"]')).toContainText('Nowak Anna');
  await expect(details.locator('[data-list="history"] tbody tr').last()).toContainText('manager');
});

test('the admin\'s inbox pages like the list, names each order\'s client, and keeps Odrzuć and Anuluj zlecenie apart', async ({ page }) => {
  await signedIn(page, 'admin', '/app/pulpit');
  const inbox = page.locator('[data-section="inbox"]');
  await expect(inbox.getByRole('columnheader', { name: 'Klient' })).toBeVisible();
  await expect(inbox.locator('tbody tr')).toHaveCount(10);
  // the clients differ from row to row: the admin decides for all of them
  const clients = await inbox.locator('tbody tr').evaluateAll((rows) => rows.map((r) => (r.children[3] as HTMLElement).innerText));
  expect(new Set(clients).size).toBeGreaterThan(1);
  const pager = inbox.getByRole('navigation', { name: 'Strony listy' });
  await expect(pager).toContainText(/^1–10 z \d+/);
  const firstPage = await inbox.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
  await pager.getByRole('button', { name: 'Następne' }).click();
  await expect(pager).toContainText(/^11–\d+ z \d+/);
  await expect(inbox.locator('tbody tr').first()).not.toHaveAttribute('data-key', firstPage[0]!);
  const secondPage = await inbox.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-key')));
  expect(secondPage.filter((k) => firstPage.includes(k))).toEqual([]);

  // destructive decisions: outlined, after the safe ones, and not side by side with each other
  const row = inbox.locator('tbody tr').first();
  const box = async (name: string) => (await row.getByRole('button', { name, exact: true }).boundingBox())!;
  const [accept, clarify, reject, cancel] = [await box('Akceptuj'), await box('Do wyjaśnienia'), await box('Odrzuć'), await box('Anuluj zlecenie')];
  await expect(row.locator('.action-buttons-destructive').getByRole('button')).toHaveText(['Odrzuć', 'Anuluj zlecenie']);
  expect(reject.y).toBeGreaterThan(accept.y + accept.height - 1); // a line of their own under the safe ones
  expect(reject.y).toBeGreaterThanOrEqual(clarify.y + clarify.height - 1);
  expect(cancel.x - (reject.x + reject.width)).toBeGreaterThanOrEqual(20);
});

test('charts draw with their data as a table, in Polish formats', async ({ page }) => {
  await signedIn(page, 'admin', '/app/pulpit');
  const costs = page.locator('[data-chart="costs-per-month"]');
  await expect(costs.locator('canvas')).toBeVisible();
  await costs.getByRole('button', { name: 'Pokaż dane w tabeli' }).click();
  const table = costs.getByRole('table');
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader')).toHaveText(['Miesiąc', 'Netto', 'Brutto']);
  await expect(table.locator('tbody th').first()).toHaveText(/^(sty|lut|mar|kwi|maj|cze|lip|sie|wrz|paź|lis|gru) \d{4}$/);
  await expect(table.locator('tbody td').first()).toHaveText(/zł$/);

  // the month not over yet is named so, and the chart says how it is drawn, instead of a fall
  const km = page.locator('[data-chart="km-per-month"]');
  await expect(km.locator('.chart-note')).toHaveText('Bieżący miesiąc jeszcze trwa: pokazano wartość do dziś (jaśniejszy słupek, linia przerywana).');
  await km.getByRole('button', { name: 'Pokaż dane w tabeli' }).click();
  const months = km.getByRole('table').locator('tbody th');
  await expect(months).toHaveCount(12);
  await expect(months.last()).toHaveText(/^(sty|lut|mar|kwi|maj|cze|lip|sie|wrz|paź|lis|gru) \d{4} \(do dziś\)$/);
  await expect(months.first()).not.toContainText('do dziś');
});

test('on a phone the tiles fold into one line of counts, so the inbox and the list come first; unfolded they wrap two a row', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signedIn(page, 'admin', '/app/pulpit');
  const fold = page.locator('[data-section="tiles"] .reminder-fold');
  await expect(fold).toContainText(/Przypomnienia: po terminie \d+ · pilne \d+ · wkrótce \d+/);
  await expect(page.locator('.reminder-tile')).toHaveCount(0);
  // the inbox starts within the first screen, the list follows it
  const inbox = page.locator('[data-section="inbox"]');
  await expect(inbox.locator('.inbox-card').first()).toBeVisible();
  expect((await inbox.boundingBox())!.y).toBeLessThan(400);
  await expect(page.locator('[data-section="list"] .reminder-card').first()).toBeVisible();
  await expect(page.locator('[data-section="list"] table')).toHaveCount(0);
  await expect(page.locator('[data-chart="km-per-month"] canvas')).toBeVisible();
  // the whole Pulpit of an admin was 14 300 px tall at 390 px before the fold and the paged inbox
  expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThan(7000);

  await expectAccessible(page);
  const toggle = fold.getByRole('button', { name: 'Pokaż według rodzaju' });
  await expect(toggle).toHaveAttribute('aria-expanded', 'false');
  await toggle.click();
  await expect(fold.getByRole('button', { name: 'Zwiń' })).toHaveAttribute('aria-expanded', 'true');
  const [a, b] = await page.locator('.reminder-tile').evaluateAll((els) => els.slice(0, 2).map((e) => e.getBoundingClientRect().top));
  expect(a).toBe(b);
});

test('a driver sees Do zrobienia above the vehicle\'s panels, and no Pulpit', async ({ page }) => {
  await signedIn(page, 'kierowca');
  const todo = page.locator('[data-section="todo"]');
  await expect(todo.getByRole('heading', { name: 'Do zrobienia' })).toBeVisible();
  // boundingBox() does not wait: the panels may still be on their way (a loaded machine)
  const panelsScreen = page.locator('[data-screen="vehicle-panels"]');
  await expect(panelsScreen).toBeVisible();
  const box = await todo.boundingBox();
  const panels = await panelsScreen.boundingBox();
  expect(box!.y).toBeLessThan(panels!.y);
  await page.goto('/app/pulpit');
  await expect(page.getByRole('alert')).toHaveText('Nie masz dostępu do tej strony.');
});

test('a driver is asked for the odometer, enters a reading from Do zrobienia, and the reminder is gone', async ({ page }) => {
  // the driver of a vehicle whose last reading is 100 days old (seed: kierowca.licznik)
  await submitLogin(page, { login: 'kierowca.licznik', password: 'Haslo123!', choice: 'Użytkownik pojazdu', plate: STALE_PLATE });
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  const todo = page.locator('[data-section="todo"]');
  const reminder = todo.locator('.reminder-card, tr').filter({ hasText: /Podaj stan licznika — ostatni odczyt \d+ dni temu/ });
  await expect(reminder).toBeVisible();
  await reminder.getByRole('button', { name: 'Podaj stan licznika', exact: true }).click();
  const modal = page.getByRole('dialog', { name: 'Nowy stan licznika' });
  await expect(modal.getByLabel(/^Pojazd/)).toHaveValue(STALE_PLATE);
  // the vehicle's last reading is shown above the form
  const last = Number((await modal.getByText(/^[\d\s\u00a0]+ km$/).first().innerText()).replace(/\D/g, ''));
  expect(last).toBeGreaterThan(0);
  await modal.getByLabel(/^Stan licznika/).fill(String(last + 250));
  await modal.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano stan licznika')).toBeVisible();
  await expect(modal).toBeHidden();
  await expect(todo.getByText(/Podaj stan licznika — ostatni odczyt/)).toHaveCount(0);
});
