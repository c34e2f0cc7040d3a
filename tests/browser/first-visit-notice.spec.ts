/**
 * A signed-in page's first visit on a phone (issue 47): the server does not draw the driver's
 * vehicle page, but it draws the cookie notice, the largest text of that first screen, into the
 * served HTML beside the loading modal (server/init/first-paint.ts noticeOnlyHtml). The runtime's
 * notice takes its place in the same frame once the page is drawn, and a press on the served one
 * meanwhile acknowledges it.
 */
import type { Page } from '@playwright/test';
import { expect, signedIn, test } from './support';

const SHOTS = 'test-results/first-visit-notice';
const WIDTH = 390;
const HEIGHT = 844;

test.use({ viewport: { width: WIDTH, height: HEIGHT }, isMobile: true, hasTouch: true });

/** The start-up's configuration held back, as on a slow network: the served page is all there is until `release()`. */
async function holdConfiguration(page: Page): Promise<() => void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/ui\/config$/, async (route) => {
    await held;
    await route.continue();
  });
  return release;
}

/** What the page's layout shifts so far moved, by element (the notice changing hands may move nothing). */
const shiftedElements = (page: Page) => page.evaluate(() => new Promise<string[]>((resolve) => {
  const moved: string[] = [];
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & { hadRecentInput: boolean; sources: { node?: Node | null }[] })[]) {
      if (entry.hadRecentInput) continue;
      for (const { node } of entry.sources) moved.push(node instanceof Element ? `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}.${[...node.classList].join('.')}` : String(node?.nodeName));
    }
  }).observe({ type: 'layout-shift', buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => resolve(moved)));
}));

/** The driver's page opened again in the same tab (his session is kept there) with the configuration held. */
async function openHeld(page: Page): Promise<() => void> {
  await signedIn(page, 'kierowca');
  const release = await holdConfiguration(page);
  await page.reload({ waitUntil: 'domcontentloaded' });
  return release;
}

test('the served page shows a first visitor the cookie notice at the foot of the screen, and the runtime’s takes its place without a shift', async ({ page }) => {
  const release = await openHeld(page);
  const served = page.locator('#first-paint > .cookie-notice');
  await expect(served).toBeVisible();
  await expect(served).toContainText('Portal używa plików cookie');
  // beside the loading modal, which it hides nothing of
  await expect(page.getByTestId('loading-modal')).toBeVisible();
  const box = (await served.boundingBox())!;
  expect(Math.round(box.y + box.height)).toBe(HEIGHT);
  await page.screenshot({ path: `${SHOTS}/served-${WIDTH}.png` });

  release();
  await expect(page.getByRole('heading', { name: 'Do zrobienia' })).toBeVisible();
  await expect(page.locator('#first-paint')).toHaveCount(0);
  // one notice, the runtime's, with its button working
  await expect(page.getByTestId('cookie-notice')).toHaveCount(1);
  await expect(page.locator('#root > .cookie-notice')).toBeVisible();
  expect((await shiftedElements(page)).filter((moved) => /cookie-notice|first-paint/.test(moved))).toEqual([]);
  await page.screenshot({ path: `${SHOTS}/runtime-${WIDTH}.png` });
  await page.locator('#root > .cookie-notice').getByRole('button', { name: 'Rozumiem' }).click();
  await expect(page.getByTestId('cookie-notice')).toHaveCount(0);
});

test('a press on the served notice before the runtime is in acknowledges it: neither notice is shown, and the next page has none', async ({ page, context }) => {
  const release = await openHeld(page);
  await page.locator('#first-paint > .cookie-notice').getByRole('button', { name: 'Rozumiem' }).click();
  release();
  await expect(page.getByRole('heading', { name: 'Do zrobienia' })).toBeVisible();
  await expect(page.locator('#first-paint')).toHaveCount(0);
  await expect(page.getByTestId('cookie-notice')).toHaveCount(0);
  expect((await context.cookies()).find((c) => c.name === 'portal.cookies')?.value).toBe('1');
  // acknowledged: the server leaves it out of the next page it serves
  await page.unrouteAll();
  await page.reload({ waitUntil: 'domcontentloaded' });
  await expect(page.locator('#first-paint')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Do zrobienia' })).toBeVisible();
  await expect(page.getByTestId('cookie-notice')).toHaveCount(0);
});

/** Whether what lies at the centre of the loading modal's box is the modal's own (not a backdrop drawn over it). */
const loadingModalOnTop = (page: Page) => page.evaluate(() => {
  const content = document.querySelector('[data-testid="loading-modal"] .modal-content');
  if (!content) return 'no loading modal';
  const box = content.getBoundingClientRect();
  const top = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2);
  return content.contains(top) ? 'on top' : `under ${top?.className}`;
});

test('the loading modal stands above its backdrop, in the served page and once the runtime draws it', async ({ page }) => {
  await signedIn(page, 'kierowca');
  const releaseConfiguration = await holdConfiguration(page);
  // the runtime's code held back too: the served page is all there is
  let releaseCode!: () => void;
  const code = new Promise<void>((resolve) => (releaseCode = resolve));
  await page.route(/\/assets\/.*\.js$/, async (route) => {
    await code;
    await route.continue();
  });
  // (a module script held holds DOMContentLoaded too: the page is there once its HTML is parsed)
  await page.reload({ waitUntil: 'commit' });
  await expect(page.getByTestId('loading-modal')).toBeVisible();
  await expect(page.locator('#root > .loading-bar')).toHaveCount(0);
  expect(await loadingModalOnTop(page)).toBe('on top');
  await page.screenshot({ path: `${SHOTS}/loading-served-${WIDTH}.png` });

  releaseCode();
  // the runtime's own loading modal (its loading bar beside it) while the configuration is held
  await expect(page.locator('#root > .loading-bar')).toHaveCount(1);
  await expect(page.getByTestId('loading-modal')).toBeVisible();
  expect(await loadingModalOnTop(page)).toBe('on top');

  releaseConfiguration();
  await expect(page.getByRole('heading', { name: 'Do zrobienia' })).toBeVisible();
  await expect(page.getByTestId('loading-modal')).toHaveCount(0);
});
