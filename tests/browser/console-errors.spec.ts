/**
 * The shared fixture of every journey (support.ts `test`): a console error of any page the journey
 * opened fails it (issue 38: ag-grid's "module not registered" errors went unnoticed), unless the
 * journey names it as expected. tools/browser-specs.test.ts checks that every spec uses the fixture.
 */
import { expect, test } from './support.ts';

test('a console error on the page fails the journey', async ({ page }) => {
  test.fail(true, 'the fixture must fail a journey whose page wrote an error');
  await page.goto('/');
  await page.evaluate(() => console.error('planted error'));
});

test('an uncaught exception in a context the journey opened itself fails it too', async ({ browser }) => {
  test.fail(true, 'pages of contexts the journey opens are watched as well');
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto('/');
  await page.evaluate(() => setTimeout(() => { throw new Error('planted exception'); }));
  await page.waitForTimeout(200);
  await context.close();
});

test('an error the journey expects, and a refusal the server answers by design, do not', async ({ page, consoleErrors }) => {
  consoleErrors.allow(/planted on purpose/);
  await page.goto('/');
  await page.evaluate(() => console.error('planted on purpose'));
  // a 4xx answer is a refusal the page handles (the browser's own line is not the page's error)
  expect((await page.request.get('/api/no-such-route')).status()).toBe(404);
  await page.evaluate(() => fetch('/api/users').catch(() => undefined));
});
