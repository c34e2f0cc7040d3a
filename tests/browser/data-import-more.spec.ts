/**
 * Import danych offers every importable resource the configuration declares (issue 34: clients,
 * units, employees, contracts, fuel cards, tyres, assignments, invoices and their files), with no change
 * to the screen; an invoice's files are chosen as a zip and dry-run like any file (a PDF naming no
 * invoice is an error beside its file). Scanned by axe; SHOTS=1 photographs the choice at 1400,
 * 900 and 390 px (test-results/data-import-more/).
 */
import { mkdirSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { type Page } from '@playwright/test';
import { axeScan, expect, signedIn, test } from './support.ts';

const SHOTS = 'test-results/data-import-more';

async function lookAt(page: Page, name: string) {
  if (process.env.SHOTS) mkdirSync(SHOTS, { recursive: true });
  for (const width of [1400, 900, 390]) {
    await page.setViewportSize({ width, height: 900 });
    const serious = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious.map((v) => v.id)).toEqual([]);
    if (process.env.SHOTS) await page.screenshot({ path: `${SHOTS}/${name}-${width}.png`, fullPage: true });
  }
  await page.setViewportSize({ width: 1400, height: 900 });
}

/** A zip of one stored file (what a back office's export of invoice PDFs is, smaller). */
function zipOfOne(name: string, content: Buffer): Buffer {
  const file = Buffer.from(name, 'utf8');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt32LE(crc32(content), 14);
  local.writeUInt32LE(content.length, 18);
  local.writeUInt32LE(content.length, 22);
  local.writeUInt16LE(file.length, 26);
  const dir = Buffer.alloc(46);
  dir.writeUInt32LE(0x02014b50, 0);
  dir.writeUInt16LE(20, 4);
  dir.writeUInt16LE(20, 6);
  dir.writeUInt32LE(crc32(content), 16);
  dir.writeUInt32LE(content.length, 20);
  dir.writeUInt32LE(content.length, 24);
  dir.writeUInt16LE(file.length, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(dir.length + file.length, 12);
  end.writeUInt32LE(local.length + file.length + content.length, 16);
  return Buffer.concat([local, file, content, dir, file, end]);
}

test('an administrator finds every importable resource, and dry-runs a zip of invoice PDFs', async ({ page }) => {
  await signedIn(page, 'admin');
  await page.getByRole('button', { name: 'Rozumiem' }).click();
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Import danych' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Import danych' })).toBeVisible();
  const step = page.getByTestId('import-step');
  for (const label of ['Pojazdy (z polisami)', 'Odczyty licznika', 'Klienci', 'Jednostki organizacyjne', 'Pracownicy (kierowcy)', 'Umowy (z pozycjami)', 'Karty paliwowe', 'Opony',
    'Wydania i zdania pojazdów', 'Faktury', 'Pliki faktur (PDF, ZIP)']) {
    await expect(step.getByRole('radio', { name: label, exact: true })).toBeVisible();
  }
  await step.getByRole('radio', { name: 'Pliki faktur (PDF, ZIP)' }).check();
  await lookAt(page, '1-resources');
  await step.getByRole('button', { name: 'Dalej' }).click();

  const input = step.getByLabel('albo wybierz plik z dysku');
  await expect(input).toHaveAttribute('accept', '.zip,.pdf');
  const pdf = Buffer.from('%PDF-1.4\n% faktura\n%%EOF\n', 'latin1');
  await input.setInputFiles({ name: 'faktury.zip', mimeType: 'application/zip', buffer: zipOfOne('FV_NIE_MA_1.pdf', pdf) });
  await expect(page.getByTestId('import-file-name')).toContainText('faktury.zip');
  await step.getByRole('button', { name: 'Dalej' }).click();
  await step.getByRole('button', { name: 'Sprawdź plik (przebieg próbny)' }).click();
  const errors = step.getByRole('table', { name: 'Wiersze z błędami' });
  await expect(errors.locator('tbody tr')).toHaveCount(1);
  await expect(errors.locator('tbody tr').first()).toContainText('Nie ma faktury o numerze FV_NIE_MA_1');
  await page.mouse.move(0, 0);
  await lookAt(page, '2-files-dry-run');
});
