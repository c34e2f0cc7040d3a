/**
 * Vehicle inspections on the phone (issue 47), at 390 px: the driver's weekly inspection is due on
 * his Do zrobienia (the seed's last one is eight days old); he walks the checklist with big
 * toggles, fails the front left tyre (1 mm of tread) and photographs it with the camera input; the
 * photo leaves the phone scaled to at most 1600 px and without its EXIF (a JPEG with a GPS position
 * goes in, none comes out); the inspection opens a damage, and the fleet manager sees the
 * inspection in Kontrole pojazdów, its answers and the photo, and the damage it opened.
 * Screenshots: test-results/inspection-*.png (390 px and 1400 px).
 */
import type { Page } from '@playwright/test';
import { expect, settled, signedIn, test, toast } from './support';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

const shot = async (page: Page, name: string) => {
  await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
  await page.screenshot({ path: `test-results/inspection-${name}.png` });
};

/** A TIFF/EXIF APP1 segment holding a GPS position (52°13' N): what a phone's camera writes into a photo. */
function gpsExif(): Buffer {
  const le = (n: number, bytes: number) => { const b = Buffer.alloc(bytes); if (bytes === 2) b.writeUInt16LE(n); else b.writeUInt32LE(n); return b; };
  const entry = (tag: number, type: number, count: number, value: Buffer) => Buffer.concat([le(tag, 2), le(type, 2), le(count, 4), Buffer.concat([value, Buffer.alloc(4 - value.length)])]);
  // TIFF header (8) · IFD0 at 8: 1 entry GPSInfo → 26 · GPS IFD at 26: 2 entries → rationals at 56
  const ifd0 = Buffer.concat([le(1, 2), entry(0x8825, 4, 1, le(26, 4)), le(0, 4)]);
  const gps = Buffer.concat([le(2, 2), entry(0x0001, 2, 2, Buffer.from('N\0')), entry(0x0002, 5, 3, le(56, 4)), le(0, 4)]);
  const rationals = Buffer.concat([le(52, 4), le(1, 4), le(13, 4), le(1, 4), le(0, 4), le(1, 4)]);
  const tiff = Buffer.concat([Buffer.from('II*\0'), le(8, 4), ifd0, gps, rationals]);
  const body = Buffer.concat([Buffer.from('Exif\0\0'), tiff]);
  const length = Buffer.alloc(2);
  length.writeUInt16BE(body.length + 2);
  return Buffer.concat([Buffer.from([0xff, 0xe1]), length, body]);
}

/** The width and height of a JPEG (its SOF marker). */
function jpegSize(jpeg: Buffer): { width: number; height: number } {
  let i = 2;
  while (i < jpeg.length) {
    const marker = jpeg[i + 1];
    const length = jpeg.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xc3) return { height: jpeg.readUInt16BE(i + 5), width: jpeg.readUInt16BE(i + 7) };
    i += 2 + length;
  }
  throw new Error('no SOF marker');
}

/** The file part of a multipart body. */
function filePart(body: Buffer): Buffer {
  const start = body.indexOf('\r\n\r\n', body.indexOf('name="file"')) + 4;
  const boundary = body.subarray(0, body.indexOf('\r\n'));
  return body.subarray(start, body.indexOf(Buffer.concat([Buffer.from('\r\n'), boundary]), start));
}

test('the driver walks the weekly checklist with a failed tyre and its photo; the manager sees the inspection and the damage', async ({ page, browser }) => {
  test.setTimeout(120_000);
  await signedIn(page, 'kierowca');
  // the photo, as the camera gives it: a 2400 × 1800 JPEG with the position where it was taken
  const drawn = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 2400;
    canvas.height = 1800;
    const ctx = canvas.getContext('2d')!;
    const image = ctx.createImageData(2400, 1800);
    for (let i = 0; i < image.data.length; i += 4) {
      image.data[i] = (i * 7) % 251; image.data[i + 1] = (i * 13) % 241; image.data[i + 2] = (i * 3) % 239; image.data[i + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
    return canvas.toDataURL('image/jpeg', 0.95).split(',')[1];
  });
  const plain = Buffer.from(drawn, 'base64');
  const photo = Buffer.concat([plain.subarray(0, 2), gpsExif(), plain.subarray(2)]);
  expect(photo.includes(Buffer.from('Exif\0\0'))).toBe(true);
  expect(photo.length).toBeGreaterThan(500 * 1024);

  // the upload as it leaves the phone
  const uploads: Buffer[] = [];
  await page.route('**/api/inspections/photos', async (route) => {
    uploads.push(route.request().postDataBuffer()!);
    await route.continue();
  });

  // Do zrobienia: the weekly inspection is due
  const todo = page.locator('[data-section-kind="todo"], section').filter({ hasText: 'Kontrola pojazdu co tydzień' }).first();
  await expect(todo).toBeVisible();
  await shot(page, 'todo-390');
  await todo.getByRole('button', { name: 'Wykonaj kontrolę' }).click();

  const w = page.getByRole('dialog', { name: 'Kontrola pojazdu' });
  await expect(w.locator('[data-checklist="walkaround"]')).toBeVisible();
  await expect(w.getByText('Sprawdzone: 0 z 19')).toBeVisible();
  await shot(page, 'checklist-390');
  // the same reading as the vehicle's last one, as its page shows it: other journeys on this
  // worker's database (the offline reading) may have moved it, and a lower one is refused
  const last = (await page.locator('dt:text-is("Stan licznika") + dd').first().textContent() ?? '').replace(/\D/g, '');
  expect(Number(last)).toBeGreaterThan(0);
  await w.getByLabel('Stan licznika (km)').fill(last);
  // everything passes …
  for (const item of await w.locator('.checklist-item').all()) {
    await item.locator('[data-verdict="pass"]').click();
  }
  // … but the front left tyre: 1 mm of tread makes it a defect
  const tyre = w.locator('[data-item="tyreFrontLeft"]');
  await tyre.getByLabel(/Głębokość bieżnika/).fill('1');
  await expect(tyre).toHaveAttribute('data-answer', 'fail');
  await expect(tyre.getByText('Poniżej 1,6 mm: pozycja jest usterką')).toBeVisible();
  await expect(tyre.getByText('Usterka otworzy zgłoszenie szkody')).toBeVisible();
  for (const id of ['tyreFrontRight', 'tyreRearLeft', 'tyreRearRight']) await w.locator(`[data-item="${id}"]`).getByLabel(/Głębokość bieżnika/).fill('6');
  await tyre.getByLabel('Uwaga').fill('Przecięty bok opony');
  // sending without the photo is stopped on the phone
  await w.getByRole('button', { name: 'Wyślij kontrolę' }).click();
  await expect(tyre.getByText('Dołącz zdjęcie usterki: „Opona przednia lewa”')).toBeVisible();
  // the camera input (capture=environment) takes the photo
  const camera = tyre.locator('input[type="file"]');
  await expect(camera).toHaveAttribute('capture', 'environment');
  await camera.setInputFiles({ name: 'IMG_20260105_0742.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(tyre.getByText('IMG_20260105_0742.jpg')).toBeVisible();
  await expect(w.getByText('Usterki: 1')).toBeVisible();
  await tyre.scrollIntoViewIfNeeded();
  await shot(page, 'tyre-390');
  await w.getByRole('button', { name: 'Wyślij kontrolę' }).click();
  await expect(toast(page, 'Kontrola została zapisana — z usterkami')).toBeVisible();
  await expect(toast(page, /Otwarto zgłoszenie szkody SZK\//)).toBeVisible();
  await expect(w).toBeHidden();
  // done: the weekly inspection is no longer due
  await expect(page.getByText('Kontrola pojazdu co tydzień')).toHaveCount(0);

  // the photo left the phone scaled and without its EXIF
  expect(uploads).toHaveLength(1);
  const sent = filePart(uploads[0]);
  expect(sent.subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
  expect(sent.includes(Buffer.from('Exif\0\0'))).toBe(false);
  expect(sent.includes(Buffer.from('II*\0'))).toBe(false);
  const size = jpegSize(sent);
  expect(Math.max(size.width, size.height)).toBeLessThanOrEqual(1600);
  expect(sent.length).toBeLessThanOrEqual(550 * 1024);

  // the fleet manager, at his desk
  const desk = await browser.newContext({ viewport: { width: 1400, height: 900 }, locale: 'pl-PL' });
  const manager = await desk.newPage();
  await signedIn(manager, 'manager', '/app/kontrole');
  await settled(manager);
  const row = manager.getByRole('row').filter({ hasText: 'WZ12345' }).filter({ hasText: 'Usterki' }).first();
  await expect(row).toBeVisible();
  await expect(row).toContainText('SZK/');
  await manager.screenshot({ path: 'test-results/inspection-table-1400.png' });
  await row.getByRole('gridcell', { name: 'WZ12345' }).click();
  const details = manager.getByRole('dialog', { name: /^Kontrola WZ12345/ });
  await expect(details).toBeVisible();
  const answer = details.getByRole('row').filter({ hasText: 'Opona przednia lewa' });
  await expect(answer).toContainText('Usterka');
  await expect(answer).toContainText('Przecięty bok opony');
  await manager.screenshot({ path: 'test-results/inspection-details-1400.png' });
  await details.getByRole('tab', { name: 'Zdjęcia' }).click();
  const photos = details.locator('.ag-root');
  await expect(photos.getByRole('gridcell', { name: 'Opona przednia lewa', exact: true })).toBeVisible();
  await expect(photos.getByRole('gridcell', { name: /IMG_20260105_0742\.jpg/ })).toBeVisible();
  await manager.screenshot({ path: 'test-results/inspection-photos-1400.png' });
  // the damage it opened, with the photo attached
  await details.getByRole('button', { name: 'Otwórz szkodę' }).click();
  const damage = manager.getByRole('dialog', { name: /^Szkoda SZK\// });
  await expect(damage).toBeVisible();
  await expect(damage).toContainText('Opona przednia lewa');
  await damage.getByRole('tab', { name: 'Załączniki' }).click();
  await expect(damage.getByText('IMG_20260105_0742.jpg')).toBeVisible();
  await manager.screenshot({ path: 'test-results/inspection-damage-1400.png' });
  await desk.close();
});
