/**
 * Issue 47, a new version of the portal on the driver's phone: once the service worker of a newer
 * build waits, the page says so ("Dostępna nowa wersja portalu — odśwież"); "Odśwież" loads the page
 * again on it at once — but never under a half-filled form: then it says it will refresh when the
 * form is saved or closed, keeps what was typed, and refreshes as the form is left (the newer worker
 * told to take over once the next screen's requests are done: pwa/register.ts `pageAtRest`).
 *
 * A newer build is the portal's own worker script, byte-different: the journey serves the first
 * copy the browser fetches with one more line (Playwright's route), so the script the browser finds
 * when the page is loaded again is a new worker to it, as a new build's precache list makes it.
 */
import type { BrowserContext, Page } from '@playwright/test';
import { expect, signedIn, test } from './support';

// A browser context of its own for each journey (an empty storage state: the kept context of
// kept-context.ts is not reused): which worker is installed, waiting or controlling is the subject,
// and a registration being removed from the journey before must not be in the way.
test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, serviceWorkers: 'allow', storageState: { cookies: [], origins: [] } });

const notice = (page: Page) => page.getByTestId('update-notice');

/** The driver's page open on the worker of the build before, a newer one waiting. */
async function newerBuildWaiting(page: Page, context: BrowserContext, path?: string) {
  let first = true;
  await context.route('**/sw.js', async (route) => {
    const response = await route.fetch();
    const script = await response.text();
    await route.fulfill({ response, body: first ? `${script}\n// the build the page was first loaded with\n` : script });
    first = false;
  });
  await signedIn(page, 'kierowca', path);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await expect(notice(page)).toHaveCount(0);
  // the browser looks for a newer worker as the page is loaded again
  await page.reload();
  await expect(notice(page)).toContainText('Dostępna nowa wersja portalu — odśwież');
  // a mark of this page's life: gone once the page is loaded again
  await page.evaluate(() => Object.assign(window, { loadedBefore: true }));
}

/** Waits until the page has been loaded again (while it is being loaded, it cannot be asked: asked again). */
const loadedAgain = (page: Page) => expect.poll(() => page.evaluate(() => (window as { loadedBefore?: boolean }).loadedBefore ?? false).catch(() => true)).toBe(false);

test('a newer version is announced, and Odśwież loads the page again on it', async ({ page, context }) => {
  await newerBuildWaiting(page, context);
  await page.screenshot({ path: 'test-results/runtime-update-390.png' });
  await notice(page).getByRole('button', { name: 'Odśwież' }).click();
  await loadedAgain(page);
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await expect(page.locator('main').getByText('WZ12345', { exact: true }).first()).toBeVisible();
  // the new worker took over: nothing waits any more
  await expect(notice(page)).toHaveCount(0);
});

test('never under a half-filled form: Odśwież waits until the form is left, and what was typed stays till then', async ({ page, context }) => {
  await newerBuildWaiting(page, context, '/app/account/password');
  const current = page.getByLabel(/^Obecne hasło/);
  await current.fill('Haslo123!');
  await notice(page).getByRole('button', { name: 'Odśwież' }).click();
  await expect(notice(page)).toContainText('Odświeżymy, gdy zapiszesz lub zamkniesz formularz.');
  await expect(notice(page).getByRole('button', { name: 'Odśwież' })).toHaveCount(0);
  // not loaded again: the typed password is still in its field
  await page.waitForTimeout(1_000);
  expect(await page.evaluate(() => (window as { loadedBefore?: boolean }).loadedBefore)).toBe(true);
  await expect(current).toHaveValue('Haslo123!');
  await page.screenshot({ path: 'test-results/runtime-update-after-form-390.png' });
  // the form is left through the menu: the page loads again on the new version
  await page.getByRole('button', { name: 'Pokaż lub ukryj menu' }).click();
  await page.getByRole('navigation', { name: 'Menu główne' }).getByRole('link', { name: 'Dane pojazdu' }).click();
  await loadedAgain(page);
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
  await expect(page.locator('main').getByText('WZ12345', { exact: true }).first()).toBeVisible();
  await expect(notice(page)).toHaveCount(0);
});
