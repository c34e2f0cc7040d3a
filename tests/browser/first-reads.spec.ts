/**
 * Issue 47, the returning driver's first screen on a phone: the vehicle page asks for its data as
 * soon as the configuration is in, beside the screen's code (runtime/src/routing/first-reads.ts),
 * not once that code has come and drawn the screen — and the screen's own calls take those
 * answers, so each is asked once.
 */
import { expect, signedIn, test } from './support';

test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

test('the vehicle page asks for its record while the panels’ code is still on the way, and asks once', async ({ page }) => {
  const asked: string[] = [];
  let recordAsked!: () => void;
  const record = new Promise<void>((resolve) => (recordAsked = resolve));
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (!url.pathname.startsWith('/api/')) return;
    asked.push(url.pathname + url.search);
    if (url.pathname === '/api/car/single-car') recordAsked();
  });
  // the panels' code is held until the record has been asked for, 10 s at most: before, the
  // record was asked for only once that code had drawn the screen
  let released = '';
  await page.route(/\/assets\/PanelSet-[\w-]+\.js$/, async (route) => {
    released = await Promise.race([record.then(() => 'after the record was asked'), new Promise<string>((resolve) => setTimeout(() => resolve('after 10 s without the record'), 10_000))]);
    await route.continue();
  });

  await signedIn(page, 'kierowca');
  // the panels, drawn from the record (their code held as above)
  await expect(page.locator('[data-screen="vehicle-panels"] [data-panel]').first()).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('[data-screen="vehicle-panels"]').getByText('WZ12345', { exact: true }).first()).toBeVisible();
  await expect(page.locator('[data-screen="todo"]')).toBeVisible();
  expect(released).toBe('after the record was asked');
  expect(asked.filter((p) => p === '/api/car/single-car')).toHaveLength(1);
  expect(asked.filter((p) => p.startsWith('/api/reminders/items'))).toEqual(['/api/reminders/items?limit=10']);
  expect(asked.filter((p) => p === '/api/terms/status')).toHaveLength(1);
  await page.screenshot({ path: test.info().outputPath('first-reads-390.png') });
});
