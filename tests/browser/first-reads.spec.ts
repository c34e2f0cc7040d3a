/**
 * Issue 47, the returning driver's first screen on a phone: the vehicle page asks for its data as
 * soon as the configuration is in, beside the screen's code (runtime/src/routing/first-reads.ts),
 * not once that code has come and drawn the screen — and the screen's own calls take those
 * answers, so each is asked once. The terms' gate, whose status is one of those reads, passes on
 * it without loading its dialog (runtime/src/screens/terms-dialog/gate.ts).
 */
import type { Page } from '@playwright/test';
import { ACCOUNTS, expect, signedIn, submitLogin, test } from './support';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

/**
 * Holds the panels' code until the record has been asked for, 10 s at most (before, the record was
 * asked for only once that code had drawn the screen); gives what the page asked of the API, and
 * when the code was let go.
 */
async function holdPanelsUntilTheRecord(page: Page) {
  const asked: string[] = [];
  const files: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.pathname.startsWith('/assets/')) files.push(url.pathname);
  });
  let recordAsked!: () => void;
  const record = new Promise<void>((resolve) => (recordAsked = resolve));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!url.pathname.startsWith('/api/')) return;
    asked.push(url.pathname + url.search);
    if (url.pathname === '/api/car/single-car') recordAsked();
  });
  const held = { released: '' };
  await page.route(/\/assets\/PanelSet-[\w-]+\.js$/, async (route) => {
    held.released = await Promise.race([record.then(() => 'after the record was asked'), new Promise<string>((resolve) => setTimeout(() => resolve('after 10 s without the record'), 10_000))]);
    await route.continue();
  });
  return { asked, files, held };
}

/**
 * The panels drawn from the record, each first read asked once, the code let go only after the
 * record was asked; the terms' gate passed without its dialog's code.
 */
async function panelsFromOneAsk(page: Page, { asked, files, held }: Awaited<ReturnType<typeof holdPanelsUntilTheRecord>>) {
  await expect(page.locator('[data-screen="vehicle-panels"] [data-panel]').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-screen="vehicle-panels"]').getByText('WZ12345', { exact: true }).first()).toBeVisible();
  await expect(page.locator('[data-screen="todo"]')).toBeVisible();
  expect(held.released).toBe('after the record was asked');
  expect(asked.filter((p) => p === '/api/car/single-car')).toHaveLength(1);
  expect(asked.filter((p) => p.startsWith('/api/reminders/items'))).toEqual(['/api/reminders/items?limit=10']);
  expect(asked.filter((p) => p === '/api/terms/status')).toHaveLength(1);
  // his terms are accepted: the gate passed on that answer, without the terms' dialog's code
  expect(files.filter((f) => /\/TermsDialog-/.test(f))).toEqual([]);
}

test('the vehicle page of a driver with a session asks for its record while the panels’ code is still on the way, and asks once', async ({ page }) => {
  const seen = await holdPanelsUntilTheRecord(page);
  await signedIn(page, 'kierowca');
  await panelsFromOneAsk(page, seen);
  await page.screenshot({ path: test.info().outputPath('first-reads-390.png') });
});

test('a driver signing in on the phone: his landing page’s record is asked for as his configuration comes, and once', async ({ page }) => {
  const seen = await holdPanelsUntilTheRecord(page);
  await submitLogin(page, ACCOUNTS.kierowca);
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await panelsFromOneAsk(page, seen);
});

test('a driver signing in on the phone whose configuration comes before the module that asks ahead: each first read is still asked once', async ({ page }) => {
  const seen = await holdPanelsUntilTheRecord(page);
  // the module is asked for beside his role's bundle; here it comes only after the bundle has been
  // answered, as it did in a CI run where the terms' status was then asked twice
  const bundleAnswered = page.waitForResponse((r) => new URL(r.url()).pathname === '/api/ui/config');
  await page.route(/\/assets\/first-reads-[\w-]+\.js$/, async (route) => {
    await bundleAnswered;
    await new Promise((resolve) => setTimeout(resolve, 500));
    await route.continue();
  });
  await submitLogin(page, ACCOUNTS.kierowca);
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await panelsFromOneAsk(page, seen);
});
