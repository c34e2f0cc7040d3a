/**
 * Issue 47, the driver's phone (390 px, a mobile context, Playwright's offline emulation): the
 * portal is installable (its manifest linked and valid), the vehicle page opens without a network
 * from what was last loaded and says from when, and a reading and a damage report with two photos
 * made offline wait in the outbox and arrive once when the network returns — a key sent twice
 * stays one record. Screenshots of the notices in pl, en, uk (test-results/driver-offline-*.png).
 */
import { type APIRequestContext, type Page } from '@playwright/test';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { apiAs, expect, signedIn, test, toast } from './support';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'allow' });

/** A tiny JPEG-named image (the attachment checks look at the extension and size). */
const photo = (name: string) => ({ name, mimeType: 'image/png', buffer: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64') });

/** The service worker active and the answers of the page kept (IndexedDB), so that an offline reload has both. */
async function readyOffline(page: Page, paths: string[]) {
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect.poll(() => page.evaluate(async (wanted) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open('portal-offline');
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    if (!db.objectStoreNames.contains('answers')) return false;
    const keys = await new Promise<IDBValidKey[]>((resolve) => {
      const request = db.transaction('answers').objectStore('answers').getAllKeys();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return wanted.every((p) => keys.some((k) => (k as string[])[1] === p));
  }, paths)).toBe(true);
}

test('the manifest is linked from the page and describes an installable portal', async ({ page, request }) => {
  await page.goto('/');
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  expect(href).toBe('/api/ui/manifest');
  const manifest = await (await request.get(href!)).json();
  expect(manifest).toMatchObject({ name: 'Partner CFM', short_name: 'Partner CFM', display: 'standalone', start_url: '/app/dane-pojazdu', scope: '/' });
  for (const icon of manifest.icons) {
    const res = await request.get(icon.src);
    expect(res.status(), icon.src).toBe(200);
    expect(res.headers()['content-type']).toBe('image/png');
  }
  expect(manifest.icons.map((i: { sizes: string; purpose: string }) => `${i.sizes} ${i.purpose}`)).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
  await expect(page.locator('meta[name="theme-color"]')).toHaveAttribute('content', '#0d6efd');
});

test('offline, the vehicle page opens from what was last loaded, and a reading and a damage with two photos arrive once when the network returns', async ({ page, context, request, consoleErrors }) => {
  // offline, the browser reports the calls it could not make
  consoleErrors.allow(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED|Failed to fetch/);
  await signedIn(page, 'kierowca');
  await expect(page.locator('main').getByText('WZ12345', { exact: true }).first()).toBeVisible();
  await readyOffline(page, ['/ui/config', '/init/pre-config', '/car/single-car']);

  await context.setOffline(true);
  await page.reload();
  await expect(page.locator('main').getByText('WZ12345', { exact: true }).first()).toBeVisible();
  const notice = page.getByTestId('offline-notice');
  await expect(notice).toContainText('Brak sieci');
  await expect(notice).toContainText(/Dane z \d{2}:\d{2}/);

  // a reading typed offline
  const manager = await apiAs(request, 'kierowca', 'Kierowca123!', 'USER', { rejestr: 'WZ12345' });
  const car = await manager.get('/car/single-car');
  // the same reading as the last one (accepted, as a reading may equal the last): the vehicle panel
  // the other journeys of this worker read (87 450 km) stays as it was; the outbox emptied and the
  // toast below say the server took it
  const reading = Number(car.aktStanLicz ?? 0);
  await page.goto('/app/counter');
  const counter = page.getByRole('dialog');
  await counter.getByLabel(/^Stan licznika/).fill(String(reading));
  await counter.getByRole('button', { name: 'Zapisz' }).click();
  await expect(toast(page, 'Brak sieci: zapisano w telefonie')).toBeVisible();
  await expect(page.getByTestId('outbox')).toContainText('Czeka na wysłanie: 1');
  await page.screenshot({ path: 'test-results/driver-offline-pl.png' });

  await context.setOffline(false);
  await expect(page.getByTestId('outbox')).toHaveCount(0);
  await expect(toast(page, 'Wysłano to, co czekało: 1')).toBeVisible();
  const after = await manager.get('/car/single-car');
  expect(Number(after.aktStanLicz)).toBe(reading);

  // a damage report with two photos typed offline: the save and both uploads wait together
  const sent: { key: string; body: string }[] = [];
  page.on('request', (r) => {
    if (r.method() === 'POST' && r.url().endsWith('/api/damage/add')) sent.push({ key: r.headers()['idempotency-key'], body: r.postData() ?? '' });
  });
  const kind = `Otarcie w garażu ${Date.now()}`;
  await context.setOffline(true);
  await page.goto('/app/service-order');
  await page.getByRole('dialog').getByRole('button', { name: 'Zgłoszenie szkody' }).click();
  const w = page.getByRole('dialog', { name: 'Zgłoszenie szkody' }).filter({ has: page.getByTestId('wizard-step-title') });
  const next = () => w.getByRole('button', { name: 'Następny' }).click();
  const step = w.getByTestId('wizard-step-title');
  await w.getByLabel(/^Rodzaj szkody/).fill(kind);
  await w.getByLabel('Poszkodowany').check();
  await w.getByLabel(/^Opis szkody/).fill('Zarysowany błotnik w garażu podziemnym.');
  // the reading sent above is the vehicle's last now (the session still has the one before it)
  await w.getByLabel(/^Stan licznika/).fill(String(reading));
  await next();
  await expect(step).toHaveText('Zgłaszający');
  await w.getByLabel(/^Telefon zgłaszającego/).fill('600123456');
  await w.getByLabel(/^E-mail zgłaszającego/).fill('kierowca@transbud.pl');
  await next();
  await expect(step).toHaveText('Uczestnik');
  await next();
  await expect(step).toHaveText('Uczestnik zewnętrzny');
  await w.getByLabel(/^Nazwisko i imię \/ nazwa/).fill('Nieznany');
  await w.getByLabel(/^Miejscowość/).fill('Warszawa');
  await w.getByLabel(/^Kod pocztowy/).fill('00-001');
  await w.getByLabel(/^Ulica/).fill('ul. Podziemna 1');
  await w.getByLabel(/^Nr rejestracyjny pojazdu/).fill('WX0000A');
  await w.getByLabel(/^Marka i model pojazdu/).fill('Nieznany');
  await w.getByLabel(/^Nr polisy OC/).fill('-');
  await w.getByLabel(/^Ubezpieczyciel/).fill('-');
  await next();
  await expect(step).toHaveText('Uwagi');
  await next();
  await expect(step).toHaveText('Załączniki');
  for (const name of ['zdjecie-1.png', 'zdjecie-2.png']) {
    await w.getByRole('button', { name: 'Dodaj załącznik' }).click();
    await w.getByLabel(/^Tytuł/).fill(name);
    await w.getByLabel(/^Opis/).fill('Zdjęcie z miejsca szkody');
    await w.getByLabel(/^Plik/).setInputFiles(photo(name));
    await w.getByRole('button', { name: 'Zatwierdź pozycję' }).click();
    await expect(w.getByRole('row', { name: new RegExp(name) })).toBeVisible();
  }
  await next();
  await expect(step).toHaveText('Notatki');
  await next();
  await expect(step).toHaveText('Podsumowanie');
  await w.getByRole('button', { name: 'Zapisz' }).click();
  await expect(w).toHaveCount(0);
  await expect(page.getByTestId('outbox')).toContainText('Czeka na wysłanie: 1');

  await context.setOffline(false);
  await expect(page.getByTestId('outbox')).toHaveCount(0);
  const office = await apiAs(request, 'manager', 'Manager123!', 'MANAGER');
  const reported = async () => ((await office.post('/damage/table2', { startRow: 0, endRow: 1000 })).rows as { sprawaId: number; rodzSzkod: string }[]).filter((r) => r.rodzSzkod === kind);
  await expect.poll(async () => (await reported()).length).toBe(1);
  const [damage] = await reported();
  await expect.poll(async () => ((await office.post('/damage/attachments', { id: damage.sprawaId })) as unknown[]).length).toBe(2);

  // the same submission sent once more under its key (an answer lost on the way): still one record
  const last = sent.at(-1)!;
  expect(last.key).toBeTruthy();
  const token = (await page.evaluate(() => JSON.parse(sessionStorage.getItem('portal.session')!).token)) as string;
  expect((await sendAgain(request, token, '/api/damage/add', last.body, last.key)).status()).toBe(200);
  expect(await reported()).toHaveLength(1);
});

/** A signed POST as the runtime makes it, under an Idempotency-Key. */
async function sendAgain(request: APIRequestContext, token: string, path: string, body: string, key: string) {
  const { name } = await (await request.get('/api/init/pre-config')).json();
  const nonce = makeNonce();
  return request.post(path, {
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'X-Nonce': nonce, 'X-Signature': signBody(name, nonce, body), 'Idempotency-Key': key },
    data: body,
  });
}

for (const [language, locale, waiting] of [['pl', 'pl-PL', 'Czeka na wysłanie: 1'], ['en', 'en-GB', 'Waiting to be sent: 1'], ['uk', 'uk-UA', 'Очікує на надсилання: 1']] as const) {
  test(`the offline notice and the outbox in ${language}`, async ({ browser, consoleErrors }) => {
    consoleErrors.allow(/Failed to load resource: net::ERR_INTERNET_DISCONNECTED|Failed to fetch/);
    const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await signedIn(page, 'kierowca');
    await expect(page.locator('html')).toHaveAttribute('lang', language);
    await expect(page.locator('main').getByText('WZ12345', { exact: true }).first()).toBeVisible();
    await page.goto('/app/counter');
    await expect(page.getByRole('dialog').getByText('WZ12345').first()).toBeVisible();
    await readyOffline(page, ['/car/single-car', '/car/1']);
    await context.setOffline(true);
    await page.reload();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('spinbutton').or(dialog.locator('input[inputmode="numeric"]')).first().fill('999999');
    await dialog.locator('button[type="submit"]').click();
    await expect(page.getByTestId('outbox')).toContainText(waiting);
    await expect(page.getByTestId('offline-notice')).toBeVisible();
    await page.getByTestId('outbox').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `test-results/driver-offline-outbox-${language}.png` });
    await context.close();
  });
}

test('signing out forgets the answers kept for the driver: nothing of his is left to show offline', async ({ page }) => {
  await signedIn(page, 'kierowca');
  await expect(page.locator('main').getByText('WZ12345', { exact: true }).first()).toBeVisible();
  await readyOffline(page, ['/car/single-car']);
  await page.goto('/sign-out');
  await expect(page).toHaveURL((url) => url.pathname === '/');
  await expect.poll(() => page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve) => {
      const open = indexedDB.open('portal-offline');
      open.onsuccess = () => resolve(open.result);
    });
    const count = await new Promise<number>((resolve) => {
      const request = db.transaction('answers').objectStore('answers').count();
      request.onsuccess = () => resolve(request.result);
    });
    db.close();
    return count;
  })).toBe(0);
});
