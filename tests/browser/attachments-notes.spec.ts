import { type Page, type Response } from '@playwright/test';
import { tinyPdf } from '../../server/seed/pdf.ts';
import { expect, openByDoubleClick, openColumnFilter, signedIn, test, toast } from './support';

/**
 * Attachments and notes in the browser (spec §2 "Other dialogs", §5 Attachment, §6 ADMIN, §8):
 * a fleet manager attaches a PDF to a vehicle and opens it in a new window; the form refuses what
 * it must before sending and shows the server's refusal; only an admin deletes; the actions panel
 * opens the vehicle's attachments; a note is added to an order and listed.
 */

const PDF = tinyPdf(['Protokol zdawczo-odbiorczy']);
const shot = async (page: Page, name: string) => {
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  await page.screenshot({ path: `/tmp/recordsui-${name}.png` });
};
const toolbar = (scope: ReturnType<Page['getByRole']>, name: string) =>
  scope.getByRole('toolbar', { name: 'Działania na tabeli' }).getByRole('button', { name, exact: true });

/** The vehicle's details dialog on its Załączniki tab, opened from the vehicles table. */
async function vehicleAttachments(page: Page, plate: string) {
  // the plate through the column's filter (an administrator sees every client's vehicles)
  await openColumnFilter(page, 'rejestr');
  await page.locator('.ag-filter input[type="text"]').first().fill(plate);
  await expect(page.locator('.ag-row[row-index="1"]')).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.locator('.ag-cell[col-id="rejestr"]').filter({ hasText: plate }).click();
  const details = page.getByRole('dialog', { name: `Pojazd ${plate}` });
  await expect(details).toBeVisible();
  await details.getByRole('tab', { name: 'Załączniki' }).click();
  await expect(details.getByTestId('row-count')).not.toHaveText(/^\s*$/);
  return details;
}

test('a fleet manager attaches a PDF to a vehicle and opens it in a new window; wrong files are refused with their messages; no delete for a manager', async ({ page }) => {
  test.setTimeout(120_000);
  await signedIn(page, 'manager');
  const details = await vehicleAttachments(page, 'WZ12345');
  // deleting is the administrator's (spec §6)
  await expect(toolbar(details, 'Usuń')).toHaveCount(0);

  await toolbar(details, 'Dodaj załącznik').click();
  const form = page.getByRole('dialog', { name: 'Dodaj załącznik' });
  await expect(form).toBeVisible();
  await expect(form).toContainText('Dozwolone rozszerzenia: pdf, jpg, jpeg, png, doc, docx, xls, xlsx, txt. Maksymalny rozmiar pliku: 10 MB.');
  await shot(page, 'upload-empty');

  // nothing chosen: each required field says so, nothing is sent
  await form.getByRole('button', { name: 'Dodaj', exact: true }).click();
  await expect(form.getByText('Tytuł nie może być pusty')).toBeVisible();
  await expect(form.getByText('Opis nie może być pusty')).toBeVisible();
  await expect(form.getByText('Wybierz plik')).toBeVisible();
  await shot(page, 'upload-required');

  await form.getByLabel(/^Tytuł/).fill('Protokół wydania');
  await form.getByLabel(/^Opis/).fill('Protokół zdawczo-odbiorczy podpisany przez kierowcę');
  // a wrong extension is refused before sending
  let uploads = 0;
  page.on('request', (r) => r.url().endsWith('/api/attachment/upload') && uploads++);
  await form.getByLabel(/^Plik/).setInputFiles({ name: 'skrypt.exe', mimeType: 'application/octet-stream', buffer: Buffer.from('MZ') });
  await form.getByRole('button', { name: 'Dodaj', exact: true }).click();
  await expect(form.getByText('Niedozwolone rozszerzenie pliku. Dozwolone rozszerzenia: pdf, jpg, jpeg, png, doc, docx, xls, xlsx, txt')).toBeVisible();
  await shot(page, 'upload-wrong-extension');
  expect(uploads).toBe(0);

  // a PDF that is not one: the server refuses it, under the field and in a toast
  await form.getByLabel(/^Plik/).setInputFiles({ name: 'udawany.pdf', mimeType: 'application/pdf', buffer: Buffer.from('to nie jest PDF') });
  await form.getByRole('button', { name: 'Dodaj', exact: true }).click();
  await expect(toast(page, 'Zawartość pliku nie odpowiada jego rozszerzeniu')).toBeVisible();
  await expect(form.getByText('Zawartość pliku nie odpowiada jego rozszerzeniu')).toBeVisible();
  expect(uploads).toBe(1);

  // the real PDF, with a Polish name: added, the list shows it
  await form.getByLabel(/^Plik/).setInputFiles({ name: 'Protokół wydania.pdf', mimeType: 'application/pdf', buffer: PDF });
  await form.getByRole('button', { name: 'Dodaj', exact: true }).click();
  await expect(toast(page, 'Dodano załącznik')).toBeVisible();
  await expect(form).toHaveCount(0);
  const row = details.locator('.ag-row').filter({ hasText: 'Protokół wydania' });
  await expect(row).toContainText('Protokół zdawczo-odbiorczy podpisany przez kierowcę');
  await shot(page, 'vehicle-attachments');

  // the file opens in a new window, inline, through a one-time link. Chromium hands a PDF to its
  // viewer and the response then reads as the viewer's page, so the bytes are taken on the way
  const bodies = new Map<string, Buffer>();
  await page.context().route(/\/api\/attachment\/download\?/, async (route) => {
    const fetched = await route.fetch();
    bodies.set(route.request().url(), await fetched.body());
    await route.fulfill({ response: fetched });
  });
  const file = page.context().waitForEvent('response', (r) => r.url().includes('/api/attachment/download?'));
  const popup = page.waitForEvent('popup');
  await row.getByRole('button', { name: 'Otwórz plik Protokół wydania.pdf' }).click();
  const response = (await file) as Response;
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toContain('application/pdf');
  expect(response.headers()['content-disposition']).toMatch(/^inline/);
  expect(decodeURIComponent(response.headers()['content-disposition'])).toContain('Protokół wydania.pdf');
  expect(Buffer.compare(bodies.get(response.url())!, PDF)).toBe(0);
  const win = await popup;
  await expect(win).toHaveURL(/\/api\/attachment\/download\?preview=true&id=\d+&token=[\w-]+$/);
  await win.close();

  // a file that is not previewed (text) is saved under its name, without a window
  const download = page.waitForEvent('download');
  await details.getByRole('button', { name: 'Otwórz plik dowod-rejestracyjny.txt' }).click();
  expect((await download).suggestedFilename()).toBe('dowod-rejestracyjny.txt');
  expect(page.context().pages()).toHaveLength(1);

  // title and description can be changed
  await row.locator('[col-id="tytul"]').click();
  await toolbar(details, 'Edytuj').click();
  const edit = page.getByRole('dialog', { name: 'Edycja załącznika' });
  await expect(edit.getByLabel(/^Tytuł/)).toHaveValue('Protokół wydania');
  await shot(page, 'attachment-edit');
  await edit.getByLabel(/^Tytuł/).fill('Protokół wydania WZ12345');
  await edit.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Zapisano zmiany załącznika')).toBeVisible();
  await expect(details.locator('.ag-row').filter({ hasText: 'Protokół wydania WZ12345' })).toBeVisible();
});

test('an administrator deletes an attachment after Tak', async ({ page }) => {
  await signedIn(page, 'admin');
  const details = await vehicleAttachments(page, 'WZ12345');
  const rows = details.locator('.ag-row');
  await expect(rows.first()).toBeVisible();
  const before = await rows.count();
  await rows.first().locator('[col-id="tytul"]').click();
  await toolbar(details, 'Usuń').click();
  const confirm = page.getByRole('dialog', { name: 'Potwierdzenie' });
  await expect(confirm).toContainText('Czy na pewno usunąć ten załącznik?');
  await shot(page, 'attachment-delete-confirm');
  await confirm.getByRole('button', { name: 'Tak' }).click();
  await expect(toast(page, 'Usunięto załącznik')).toBeVisible();
  await expect(rows).toHaveCount(before - 1);
});

test('the vehicle actions panel opens the vehicle’s attachments for its driver', async ({ page }) => {
  await signedIn(page, 'kierowca');
  await page.locator('[data-panel="actions"]').getByText('Załączniki').click();
  const dialog = page.getByRole('dialog', { name: 'Załączniki pojazdu WZ12345' });
  await expect(dialog).toBeVisible();
  await expect(toolbar(dialog, 'Dodaj załącznik')).toBeVisible();
  await expect(toolbar(dialog, 'Usuń')).toHaveCount(0);
  await expect(dialog.locator('.ag-row').first()).toBeVisible();
  await shot(page, 'panel-attachments');
});

test('a service advisor is not offered the vehicle’s attachments in the actions panel', async ({ page }) => {
  await signedIn(page, 'doradca');
  const actions = page.locator('[data-panel="actions"]');
  await expect(actions.getByText('Zamów usługę')).toBeVisible();
  await expect(actions.getByText('Załączniki')).toHaveCount(0);
});

// The order details modal (screens/order-details.json, tab 'Notatki' embedding order-notes-table)
// comes from another branch; the lead enables this journey after merging it.
test('a fleet manager adds a note to an order and sees it listed; a double-click shows it', async ({ page }) => {
  await signedIn(page, 'manager', '/app/order');
  await page.locator('.ag-row').first().click();
  const details = page.getByRole('dialog').filter({ has: page.getByRole('tab', { name: 'Notatki' }) });
  await details.getByRole('tab', { name: 'Notatki' }).click();
  await toolbar(details, 'Dodaj notatkę').click();
  const form = page.getByRole('dialog', { name: 'Nowa notatka' });
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(form.getByText('Pole nie może być puste')).toBeVisible();
  await form.getByLabel(/^Treść notatki/).fill('Klient prosi o kontakt przed odbiorem auta');
  await form.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Dodano notatkę')).toBeVisible();
  const row = details.locator('.ag-row').filter({ hasText: 'Klient prosi o kontakt przed odbiorem auta' });
  await expect(row).toBeVisible();
  const preview = page.getByRole('dialog', { name: 'Notatka' });
  await openByDoubleClick(row, preview);
  await expect(preview.getByLabel(/^Treść notatki/)).toHaveValue('Klient prosi o kontakt przed odbiorem auta');
  await expect(preview.getByLabel(/^Autor/)).toBeDisabled();
  await expect(preview.getByLabel(/^Data utworzenia/)).toBeDisabled();
});
