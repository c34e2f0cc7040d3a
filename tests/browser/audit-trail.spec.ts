import { type Page } from '@playwright/test';
import { apiAs, axeScan, expect, openByDoubleClick, openColumnFilter, signedIn, test, toast } from './support';

const loginRow = (page: Page, login: string) => page.locator(`.ag-row [col-id="login"]`).filter({ hasText: new RegExp(`^${login}$`) });
const toolbar = (page: Page, name: string) => page.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name });

/** Changes manager3's client through the user form. */
async function changeClient(page: Page, search: string, option: RegExp) {
  await page.goto('/app/users');
  await loginRow(page, 'manager3').click();
  await toolbar(page, 'Edytuj').click();
  const edit = page.getByRole('dialog', { name: 'Edytuj użytkownika' });
  const client = edit.getByRole('combobox', { name: /^Klient/ });
  await client.fill(search);
  await edit.getByRole('option', { name: option }).click();
  await edit.getByRole('button', { name: 'Zapisz' }).click();
  await expect(edit).toBeHidden();
  await expect(toast(page, 'Zapisano zmiany użytkownika')).toBeVisible();
}

test('an administrator changes a user\'s client and sees the change in Dziennik zmian, field by field', async ({ page }) => {
  test.setTimeout(240_000);
  await signedIn(page, 'admin');
  await changeClient(page, 'Tra', /KL001 — Transbud/);

  await page.getByRole('link', { name: 'Dziennik zmian' }).click();
  await expect(page).toHaveURL(/\/app\/dziennik-zmian$/);
  await expect(page.getByRole('heading', { name: 'Dziennik zmian' })).toBeVisible();
  // "Zmienione pola" names the field by its label, never its code (issue 49)
  const first = page.locator('.ag-row').filter({ has: page.locator('[col-id="fields"]', { hasText: /^Klient$/ }) }).first();
  await expect(first).toContainText('Użytkownicy');
  await expect(first).toContainText('admin');
  await expect(first).toContainText('Zmiana');
  const tableAxe = await axeScan(page).analyze();
  expect(tableAxe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  await expect(page.locator('.ag-row [col-id="fields"]').filter({ hasText: 'klientSymbol' })).toHaveCount(0);
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (process.env.SHOTS) await page.screenshot({ path: `/tmp/audit-table-${width}.png` });
  }
  // at 390 px a row says more than when and who: what was done to what, and which fields (issue 49)
  const phoneRow = page.locator('.ag-row[row-index="0"]');
  await expect(phoneRow.locator('.narrow-row-first')).toContainText('admin');
  await expect(phoneRow).toContainText('Użytkownicy');
  await expect(phoneRow).toContainText('Zmiana');
  await expect(phoneRow.locator('.narrow-row-more').filter({ hasText: 'Zmienione pola: Klient' })).toBeVisible();
  await page.setViewportSize({ width: 1400, height: 900 });
  // the grid draws its rows again after the resize: a double-click meanwhile is tried again
  const dialog = page.getByRole('dialog', { name: /^Zmiana nr \d+$/ });
  await openByDoubleClick(first, dialog);
  const change = dialog.getByRole('row').filter({ hasText: 'Klient' });
  await expect(change).toContainText('KL003');
  await expect(change).toContainText('KL001');
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  const axe = await axeScan(page).include('.modal-dialog').analyze();
  expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id)).toEqual([]);
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    if (process.env.SHOTS) await page.screenshot({ path: `/tmp/audit-details-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  // "Kto" is a choice of the person (issue 49): the administrator is found by a part of his login
  // and the list shows his entries alone, though the manager's sign-in is in the trail too
  await apiAs(page.request, 'manager', 'Manager123!', 'MANAGER');
  await page.reload();
  const who = page.locator('.ag-row [col-id="actorLabel"]');
  await expect(who.filter({ hasText: /^manager$/ }).first()).toBeVisible();
  await openColumnFilter(page, 'actorLabel');
  const search = page.getByRole('searchbox', { name: 'Nazwisko, imię lub login' });
  // the list answers the typed part after it settles: a tick before that lands on the first list,
  // which the answer then redraws under the pointer (a CI run's "did not change its state")
  const answered = page.waitForResponse((r) => r.url().includes('/api/audit/actors?') && new URL(r.url()).searchParams.get('q') === 'admi');
  await search.fill('admi');
  await answered;
  const choices = page.getByRole('group', { name: 'Wybierz z listy' });
  // the list drawn from that answer: none of the first list's other people left in it
  await expect(choices.getByRole('checkbox', { name: /^(?![\s\S]*admi)/i })).toHaveCount(0);
  const filtered = page.waitForResponse((r) => r.url().endsWith('/api/audit/table2') && (r.request().postData() ?? '').includes('"actor"'));
  await choices.getByRole('checkbox', { name: /\(admin\)$/ }).check();
  await filtered;
  await page.keyboard.press('Escape');
  await expect(who.filter({ hasText: /^manager$/ })).toHaveCount(0);
  await expect(who.first()).toHaveText('admin');
  const shown = await who.allTextContents();
  expect(shown.length).toBeGreaterThan(0);
  expect(new Set(shown)).toEqual(new Set(['admin']));
  if (process.env.SHOTS) await page.screenshot({ path: '/tmp/audit-table-by-person.png' });

  // manager3 gets the client back (other journeys expect it)
  await changeClient(page, 'Agro', /KL003/);
});
