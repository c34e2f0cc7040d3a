/**
 * Administracja → Konta integracyjne (issue 34): an administrator makes an account for one client,
 * makes it a key, sees the key once, the key reads that client's vehicles through the API (and no
 * other client's), and once the administrator revokes it the key gets 401. Issue 49: clients are
 * listed by name with the code after, sorted by name; the key gets a name and a validity when it
 * is made; the keys' table keeps "Unieważnij" within reach at 900 and 390 px; the screen has its
 * Pomoc; the account can be deleted.
 */
import { type Page } from '@playwright/test';
import { axeScan, expect, signedIn, test, toast } from './support';

/** Outside test-results/, which Playwright empties at every run: the screenshots are looked at afterwards. */
const SHOTS = '/tmp/integration-accounts-shots';
const toolbar = (page: Page, name: string) => page.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name });

async function noSeriousViolations(page: Page) {
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  const result = await axeScan(page).analyze();
  expect(result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

test('an administrator makes an account for one client and a key shown once; the key reads that client\'s vehicles until it is revoked', async ({ page, request }) => {
  test.setTimeout(180_000);
  await signedIn(page, 'admin', '/app/konta-integracyjne');
  await expect(page.getByRole('heading', { level: 1, name: 'Konta integracyjne' })).toBeVisible();

  // Dodaj konto: one client, vehicles to read
  await toolbar(page, 'Dodaj konto').click();
  const form = page.getByRole('dialog', { name: 'Nowe konto integracyjne' });
  await expect(form).toBeVisible();
  // nothing chosen: the server's messages under their fields
  await form.getByLabel(/^Nazwa/).fill('System ERP klienta');
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(form.getByText('Wybierz co najmniej jednego klienta albo zaznacz „Wszyscy klienci”')).toBeVisible();
  await expect(form.getByText('Zaznacz co najmniej jedno uprawnienie')).toBeVisible();
  const clients = form.getByRole('group', { name: /^Klienci/ });
  const firstClient = clients.getByRole('checkbox').first();
  await expect(firstClient).toBeVisible();
  // "Transbud Sp. z o.o. (KL001)": the name first, by which the list is sorted, the code after
  const labels = (await clients.locator('label').allInnerTexts()).map((l) => l.trim());
  expect(labels.every((l) => /^.+ \([A-Z0-9]+\)$/.test(l)), labels.join(' | ')).toBe(true);
  expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b, 'pl')));
  const clientLabel = labels[0];
  const client = /\(([A-Z0-9]+)\)$/.exec(clientLabel)![1];
  await firstClient.check();
  const scopes = form.getByRole('group', { name: /^Uprawnienia/ });
  await scopes.getByRole('checkbox', { name: 'Odczyt: Dane pojazdu' }).check();
  await expect(scopes.getByRole('checkbox', { name: 'Odczyt: Zlecenia' })).not.toBeChecked();
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/form-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await noSeriousViolations(page);
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(form).toBeHidden();
  await expect(toast(page, 'Zapisano konto integracyjne.')).toBeVisible();
  const accountRow = page.locator('.ag-row').filter({ hasText: 'System ERP klienta' });
  await expect(accountRow).toBeVisible();
  await expect(accountRow).toContainText(clientLabel);
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: `${SHOTS}/table-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });

  // Klucze API → Nowy klucz: shown once, with a copy button and the warning
  await accountRow.click();
  await toolbar(page, 'Klucze API').click();
  const panel = page.getByRole('dialog', { name: /^Klucze API: System ERP klienta/ });
  await expect(panel).toBeVisible();
  await expect(panel.getByText('Konto nie ma jeszcze kluczy.')).toBeVisible();
  await panel.getByRole('button', { name: 'Nowy klucz' }).click();
  // the key's name and validity first: a year from today unless changed
  const keyForm = page.getByRole('dialog', { name: 'Utwórz klucz API' });
  await expect(keyForm).toBeVisible();
  await expect(keyForm.getByLabel(/^Ważny do/)).not.toHaveValue('');
  await keyForm.getByRole('button', { name: 'Utwórz klucz' }).click();
  await expect(keyForm.getByText('Pole nie może być puste')).toBeVisible();
  await keyForm.getByLabel(/^Nazwa klucza/).fill('ERP — produkcja');
  for (const width of [1400, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/key-form-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await keyForm.getByRole('button', { name: 'Utwórz klucz' }).click();
  const reveal = page.getByRole('dialog', { name: 'Nowy klucz API' });
  await expect(reveal).toBeVisible();
  await expect(reveal).toContainText('nie pokaże go ponownie');
  const key = await reveal.getByLabel('Klucz').inputValue();
  expect(key).toMatch(/^flp_[0-9A-Za-z]{36}$/);
  await expect(reveal.getByRole('button', { name: 'Kopiuj' })).toBeVisible();
  await reveal.getByRole('button', { name: 'Kopiuj' }).click();
  await expect(reveal.getByRole('status')).toHaveText(/Skopiowano|Ctrl\+C/);
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
    await page.screenshot({ path: `${SHOTS}/reveal-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await noSeriousViolations(page);
  await reveal.getByRole('button', { name: 'Zamknij' }).last().click();
  await expect(reveal).toBeHidden();
  // the panel lists the key by its first characters, never the key itself
  await expect(panel.getByText(key.slice(0, 12))).toBeVisible();
  await expect(panel).not.toContainText(key);
  await expect(panel.getByText('aktywny')).toBeVisible();
  await expect(panel.getByText('ERP — produkcja')).toBeVisible();
  await expect(toast(page, 'Klucz utworzony.')).toBeVisible();
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 900 });
    await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
    // the keys' table fits: "Unieważnij" is within reach without scrolling sideways
    const revoke = panel.getByRole('button', { name: 'Unieważnij' });
    await revoke.scrollIntoViewIfNeeded();
    await expect(revoke).toBeInViewport();
    const box = (await revoke.boundingBox())!;
    expect(box.x + box.width, `Unieważnij at ${width}px`).toBeLessThanOrEqual(width);
    await page.screenshot({ path: `${SHOTS}/keys-${width}.png` });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
  await noSeriousViolations(page);

  // the key reads the vehicles of its client through the API, no other client's
  const read = () => request.post('/api/car/table2', { headers: { authorization: `Bearer ${key}` }, data: { startRow: 0, endRow: 100 } });
  const answer = await read();
  expect(answer.status()).toBe(200);
  const rows = (await answer.json()).rows as { klientSymbol: string }[];
  expect(rows.length).toBeGreaterThan(0);
  expect(new Set(rows.map((r) => r.klientSymbol))).toEqual(new Set([client]));
  expect((await request.post('/api/order/table', { headers: { authorization: `Bearer ${key}` }, data: { startRow: 0, endRow: 10 } })).status()).toBe(403);

  // Unieważnij, after Tak: the key gets 401 at once
  await panel.getByRole('button', { name: 'Unieważnij' }).click();
  await page.getByRole('dialog').filter({ hasText: 'Unieważnić klucz' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Klucz unieważniony.')).toBeVisible();
  await expect(panel.getByText('unieważniony', { exact: true })).toBeVisible();
  await expect(panel.getByRole('button', { name: 'Unieważnij' })).toHaveCount(0);
  const refused = await read();
  expect(refused.status()).toBe(401);
  expect((await refused.json()).detail).toBe('Klucz API jest nieprawidłowy, wygasł lub został unieważniony.');

  // Pomoc says what the screen is for; Edytuj → Usuń konto removes the account
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();
  await page.getByTestId('help-button').click();
  await expect(page.getByTestId('help-dialog')).toContainText('Konto integracyjne to dostęp dla innego systemu');
  await page.getByTestId('help-dialog').getByRole('button', { name: 'Zamknij' }).last().click();
  await accountRow.click();
  await toolbar(page, 'Edytuj').click();
  const edit = page.getByRole('dialog', { name: 'Edycja konta integracyjnego' });
  await edit.getByRole('button', { name: 'Usuń konto' }).click();
  await page.getByRole('dialog').filter({ hasText: 'Historia konta zostaje w Dzienniku zmian' }).getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Konto integracyjne usunięte.')).toBeVisible();
  await expect(accountRow).toHaveCount(0);
});
