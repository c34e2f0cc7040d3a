/**
 * Invoices' files (spec §2 "Invoices"): the attachment column shows 'Pobierz' for one file, 'Pokaż
 * listę' for two (a dialog to choose Faktura or Załącznik do faktury) and a disabled 'Brak' for
 * none; a file opens in a new window through a one-time download token; the help text about the
 * floppy disk is above the table. Screenshots: /tmp/invoices-table.png, /tmp/invoices-dialog.png.
 */
import { type Page, type Response } from '@playwright/test';
import { axeScan, expect, signedIn, test } from './support.ts';

interface InvoiceRow {
  faktNrCaly: string;
  iloscZal: number;
}

/** Opens the invoices and answers the first block of rows as the server sent it. */
async function openInvoices(page: Page): Promise<InvoiceRow[]> {
  const block = page.waitForResponse((r) => r.url().endsWith('/api/invoice/table2'));
  await signedIn(page, 'manager', '/app/invoice');
  const rows = ((await (await block).json()) as { rows: InvoiceRow[] }).rows;
  await expect(page.locator('.ag-row[row-index="0"] .ag-cell[col-id="faktNrCaly"]')).toHaveText(/\S/);
  return rows;
}

/** The row-index of the row showing this invoice number. */
async function rowIndexOf(page: Page, faktNrCaly: string) {
  const row = page.locator('.ag-row').filter({ has: page.locator('.ag-cell[col-id="faktNrCaly"]', { hasText: faktNrCaly }) });
  return row.first().getAttribute('row-index');
}

/** The attachment cell of the row showing this invoice number (the column is pinned right). */
async function filesCell(page: Page, faktNrCaly: string) {
  return page.locator(`.ag-row[row-index="${await rowIndexOf(page, faktNrCaly)}"] .ag-cell[col-id="iloscZal"]`);
}

/**
 * The bytes of every invoice file the browser receives. Chromium hands a PDF to its viewer, and the
 * response then reads as the viewer's placeholder page, so the file is fetched through the route
 * (once: the token is single-use) and passed on to the window unchanged.
 */
async function captureFiles(page: Page): Promise<Map<string, Buffer>> {
  const bodies = new Map<string, Buffer>();
  await page.context().route(/\/api\/invoice\/[fa]\?/, async (route) => {
    const response = await route.fetch();
    bodies.set(route.request().url(), await response.body());
    await route.fulfill({ response });
  });
  return bodies;
}

/** Waits for the popup and for the file it loads; answers both. */
async function popupWithFile(page: Page, path: 'f' | 'a', click: () => Promise<void>) {
  const file = page.context().waitForEvent('response', (r) => r.url().includes(`/api/invoice/${path}?id=`));
  const popup = page.waitForEvent('popup');
  await click();
  return { popup: await popup, response: (await file) as Response };
}

async function expectPdf(response: Response, bodies: Map<string, Buffer>) {
  expect(response.status()).toBe(200);
  expect(response.headers()['content-type']).toBe('application/pdf');
  expect(response.headers()['content-disposition']).toMatch(/^inline;/);
  expect(bodies.get(response.url())?.subarray(0, 5).toString('latin1')).toBe('%PDF-');
}

test('a manager sees Pobierz, Pokaż listę and a disabled Brak on the right rows, and the help text about the floppy disk', async ({ page }) => {
  const rows = await openInvoices(page);
  await expect(page.getByText('Kliknij ikonę dyskietki, aby pobrać załącznik faktury.', { exact: false })).toBeVisible();

  const seen = new Set<number>();
  // the rows the grid has rendered (those in view), each checked against what the server sent
  for (const row of rows.slice(0, 8)) {
    const cell = await filesCell(page, row.faktNrCaly);
    const button = cell.getByRole('button');
    if (row.iloscZal === 1) {
      await expect(button).toHaveText('Pobierz');
      await expect(button).toHaveAccessibleName(`Pobierz fakturę ${row.faktNrCaly}`);
      await expect(button.locator('.bi-floppy')).toHaveCount(1);
      await expect(button).toBeEnabled();
    } else if (row.iloscZal === 2) {
      await expect(button).toHaveText('Pokaż listę');
      await expect(button).toHaveAccessibleName(`Pokaż listę plików faktury ${row.faktNrCaly}`);
      await expect(button).toBeEnabled();
    } else {
      await expect(button).toHaveText('Brak');
      await expect(button).toBeDisabled();
    }
    seen.add(row.iloscZal);
  }
  expect([...seen].sort()).toEqual([0, 1, 2]);
  await page.screenshot({ path: '/tmp/invoices-table.png' });

  const serious = (await axeScan(page).include('.table-screen').analyze()).violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});

test('Pobierz opens the invoice PDF in a new window, without opening anything else', async ({ page }) => {
  const bodies = await captureFiles(page);
  const rows = await openInvoices(page);
  const single = rows.find((r) => r.iloscZal === 1)!;
  const cell = await filesCell(page, single.faktNrCaly);
  const { popup, response } = await popupWithFile(page, 'f', () => cell.getByRole('button', { name: /^Pobierz/ }).click());
  await expectPdf(response, bodies);
  expect(decodeURIComponent(response.headers()['content-disposition'])).toContain(`Faktura ${single.faktNrCaly.replaceAll('/', '_')}.pdf`);
  await expect(popup).toHaveURL(/\/api\/invoice\/f\?id=\d+&token=[\w-]{43}$/);
  // the click stayed the button's: no dialog on the page
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await popup.close();
});

test('Pokaż listę asks for Faktura or Załącznik do faktury, and each opens its PDF', async ({ page }) => {
  const bodies = await captureFiles(page);
  const rows = await openInvoices(page);
  const double = rows.find((r) => r.iloscZal === 2)!;
  const cell = await filesCell(page, double.faktNrCaly);

  await cell.getByRole('button', { name: /^Pokaż listę/ }).click();
  const dialog = page.getByRole('dialog', { name: `Pliki faktury ${double.faktNrCaly}` });
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Faktura', exact: true })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Załącznik do faktury' })).toBeVisible();
  // the dialog has faded in (checked and screenshot at full opacity)
  await expect(page.locator('.modal')).toHaveCSS('opacity', '1');
  await page.screenshot({ path: '/tmp/invoices-dialog.png', animations: 'disabled' });
  const serious = (await axeScan(page).include('.modal').analyze()).violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);

  const invoice = await popupWithFile(page, 'f', () => dialog.getByRole('button', { name: 'Faktura', exact: true }).click());
  await expectPdf(invoice.response, bodies);
  await expect(dialog).toBeHidden();
  await invoice.popup.close();

  await cell.getByRole('button', { name: /^Pokaż listę/ }).click();
  const attachment = await popupWithFile(page, 'a', () => dialog.getByRole('button', { name: 'Załącznik do faktury' }).click());
  await expectPdf(attachment.response, bodies);
  expect(decodeURIComponent(attachment.response.headers()['content-disposition'])).toContain(`Załącznik do faktury ${double.faktNrCaly.replaceAll('/', '_')}.pdf`);
  await attachment.popup.close();
});

test('a keyboard user presses Enter on the focused attachment cell to download', async ({ page }) => {
  const bodies = await captureFiles(page);
  const rows = await openInvoices(page);
  const single = rows.find((r) => r.iloscZal === 1)!;
  const index = await rowIndexOf(page, single.faktNrCaly);
  // focus the row's number cell, then walk right to the attachment column as a keyboard user does
  await page.locator(`.ag-row[row-index="${index}"] .ag-cell[col-id="faktNrCaly"]`).click();
  const focusedColumn = () => page.evaluate(() => document.activeElement?.getAttribute('col-id'));
  for (let step = 0; step < 15 && (await focusedColumn()) !== 'iloscZal'; step++) await page.keyboard.press('ArrowRight');
  expect(await focusedColumn()).toBe('iloscZal');
  const { popup, response } = await popupWithFile(page, 'f', () => page.keyboard.press('Enter'));
  await expectPdf(response, bodies);
  await popup.close();
});

test('on a phone an invoice is its number and amount, its dates by name and its Pobierz, which opens the PDF (390 px)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const bodies = await captureFiles(page);
  const block = page.waitForResponse((r) => r.url().endsWith('/api/invoice/table2'));
  await signedIn(page, 'manager', '/app/invoice');
  const rows = ((await (await block).json()) as { rows: (InvoiceRow & { faktDataWyst: string })[] }).rows;
  const single = rows.find((r) => r.iloscZal === 1)!;
  const row = page.locator('.ag-row').filter({ has: page.locator('.narrow-row-first', { hasText: single.faktNrCaly }) }).first();
  // the number and the gross amount in bold, then the issue date by its name; no column of the grid
  await expect(row.locator('.narrow-row-first .narrow-row-part')).toHaveText([single.faktNrCaly, /^[\d\s\u00a0\u202f]+,\d{2}\s?zł$/]);
  await expect(row.locator('.narrow-row-more').filter({ hasText: /^Data wystawienia: \d{2}\.\d{2}\.\d{4}$/ })).toBeVisible();
  await expect(page.locator('.ag-header-cell[col-id="iloscZal"]')).toHaveCount(0);
  const download = row.getByRole('button', { name: `Pobierz fakturę ${single.faktNrCaly}` });
  await expect(download).toBeVisible();
  // a finger's target: the button is not squeezed into a line of text
  expect((await download.boundingBox())!.height).toBeGreaterThanOrEqual(24);
  const { popup, response } = await popupWithFile(page, 'f', () => download.click());
  await expectPdf(response, bodies);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await popup.close();
  // a disabled Brak on an invoice without files, as on a computer
  const none = rows.find((r) => r.iloscZal === 0);
  if (none) await expect(page.locator('.ag-row').filter({ hasText: none.faktNrCaly }).first().getByRole('button', { name: 'Brak' }).or(page.locator('.ag-row').filter({ hasText: none.faktNrCaly }).first().locator('.cell-files-disabled button'))).toBeDisabled();
  const serious = (await axeScan(page).include('.table-screen').analyze()).violations.filter((v) => v.impact === 'critical' || v.impact === 'serious');
  expect(serious.map((v) => `${v.id}: ${v.help}`)).toEqual([]);
});
