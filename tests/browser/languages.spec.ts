/**
 * The main screens in each language (issue 48): Pulpit, the vehicles table, an order's details and
 * the damage wizard's first step, at 1400 and at 390 px, in Polish, English and Ukrainian (the
 * browser's language chooses: Accept-Language), each with axe and with no text cut off; then once
 * more with pseudo-localised texts (tests/support/pseudo-locale.ts: longer, accented, made from the
 * Polish ones as the bundle comes to the page), which shows what a longer language would not fit.
 *
 * Cheap on purpose: one journey per language, the session from the API, each screen opened once
 * and looked at in both widths (the window resized in between, as accessibility.spec.ts does).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from '@playwright/test';
import { pseudoTexts } from '../support/pseudo-locale.ts';
import { apiAs, axeScan, expect, settled, signedIn, tableLoaded, test, wordsBrokenIn } from './support.ts';

const WIDTHS = [1400, 390];
const root = join(import.meta.dirname, '../..');
const menuText = (language: string, item: string): string => JSON.parse(readFileSync(join(root, `locales/${language}/menu.json`), 'utf8')).items[item];
/** An order's statuses as the language names them (order:statuses). */
const statusTexts = (language: string): string[] => Object.values(JSON.parse(readFileSync(join(root, `locales/${language}/order.json`), 'utf8')).statuses);

/**
 * The texts of the page that do not fit their box: a button, a heading, a label, a tab, a menu
 * entry or a column's heading whose text is wider than its box — cut off (overflow hidden, an
 * ellipsis) or running out over what is beside it. Texts for screen readers only
 * (`.visually-hidden`) are clipped by design.
 */
async function cutOffTexts(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = [
      'button', '.btn', 'label', 'legend', 'th', 'h1', 'h2', 'h3', 'h4', 'h5', '.modal-title', '[role="tab"]',
      '.nav-link', '.dropdown-item', '.ag-header-cell-text', '.badge', '.form-check-label', 'dt',
    ].join(', ');
    const placed = (node: Element, box: Element) => {
      for (let p: Element | null = node; p && p !== box; p = p.parentElement) if (['absolute', 'fixed'].includes(getComputedStyle(p).position)) return true;
      return false;
    };
    /**
     * The overflow is only what is placed over the box's edge on purpose (the bell's count, a
     * badge on a corner: absolutely positioned): the box's own texts fit it.
     */
    const onlyPlacedOutside = (box: HTMLElement) => {
      if (![...box.querySelectorAll('*')].some((d) => placed(d, box))) return false;
      const walker = document.createTreeWalker(box, NodeFilter.SHOW_TEXT);
      let left = Infinity;
      let right = -Infinity;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.trim() || !node.parentElement || placed(node.parentElement, box)) continue;
        const range = document.createRange();
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        left = Math.min(left, r.left);
        right = Math.max(right, r.right);
      }
      return right - left <= box.clientWidth + 1;
    };
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(selector)) {
      if (!el.checkVisibility() || el.closest('.visually-hidden, [aria-hidden="true"]') || !el.innerText.trim()) continue;
      // wider than its box: clipped (overflow hidden, an ellipsis) or running out over what is beside it
      if (el.scrollWidth > el.clientWidth + 1 && !onlyPlacedOutside(el)) {
        out.push(`${el.tagName.toLowerCase()}${el.className && typeof el.className === 'string' ? `.${el.className.trim().split(/\s+/).join('.')}` : ''} "${el.innerText.trim().slice(0, 60)}" (${el.scrollWidth} > ${el.clientWidth})`);
      }
    }
    return out;
  });
}

/** The page as it is now, at each width: texts cut off, words broken across lines (and, unless `axe` is false, axe's serious and critical findings). */
async function lookAt(page: Page, what: string, ready: () => Promise<void>, found: string[], axe = true) {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    await ready();
    // the resize's layout done (the grid re-lays itself out from a ResizeObserver), then measured
    await settled(page);
    await expect(page.locator('.loading-text')).toHaveCount(0, { timeout: 30_000 });
    await expect(page.locator('.modal.fade:not(.show)')).toHaveCount(0);
    found.push(...(await cutOffTexts(page)).map((text) => `${what} at ${width} px: cut off ${text}`));
    // the Pulpit's cards: a word broken mid-way across two lines ("техобслуговуванн|я")
    found.push(...(await wordsBrokenIn(page.locator('.inbox-card dd'))).map((b) => `${what} at ${width} px: a word broken across lines "${b.word}"`));
    if (process.env.SHOTS) await page.screenshot({ path: `${process.env.SHOTS}/languages-${what.replace(/\W+/g, '-')}-${width}.png` });
    if (axe) {
      const violations = (await axeScan(page).analyze()).violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      found.push(...violations.map((v) => `${what} at ${width} px: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`));
    }
  }
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
}

/** Pulpit, vehicles, an order's details and the damage wizard's first step, as a fleet manager; what does not fit or fails axe. */
async function mainScreens(page: Page, axe: boolean, tag: string, language?: string): Promise<string[]> {
  const found: string[] = [];
  await page.setViewportSize({ width: WIDTHS[0], height: 900 });
  await signedIn(page, 'manager', '/app/pulpit');
  await lookAt(page, `${tag} Pulpit`, () => expect(page.locator('[data-section="inbox"]').getByRole('button').first()).toBeVisible(), found, axe);

  await page.goto('/app/dane-pojazdu');
  await lookAt(page, `${tag} vehicles`, async () => {
    await tableLoaded(page);
    await expect(page.locator('.ag-row[row-index="0"]').first()).toBeVisible();
  }, found, axe);

  await page.goto('/app/order');
  await tableLoaded(page);
  if (language) {
    // the status by the language's word, not the Polish name the database's dictionary holds
    const shown = await page.locator('.ag-cell[col-id="statusZnaczenie"]').allInnerTexts();
    expect(shown.length).toBeGreaterThan(0);
    found.push(...shown.filter((text) => !statusTexts(language).includes(text.trim())).map((text) => `${tag} orders: status "${text}" is not a ${language} text`));
  }
  await page.locator('.ag-row[row-index="0"] .ag-cell').first().click();
  const details: Locator = page.locator('.modal.details-dialog');
  await lookAt(page, `${tag} order details`, () => expect(details.getByRole('tablist')).toBeVisible(), found, axe);
  await page.keyboard.press('Escape');
  await expect(details).toHaveCount(0);

  await page.locator('[data-action="damage"]').click();
  const wizard = page.getByTestId('wizard-step-title');
  await lookAt(page, `${tag} damage wizard`, () => expect(wizard).toBeVisible(), found, axe);
  return found;
}

for (const [language, locale] of [['pl', 'pl-PL'], ['en', 'en-GB'], ['uk', 'uk-UA']]) {
  test.describe(`in ${language}`, () => {
    test.use({ locale });
    test(`the main screens in ${language} at 1400 and 390 px: axe finds nothing serious and no text is cut off`, async ({ page }) => {
      test.setTimeout(180_000);
      const found = await mainScreens(page, true, language, language);
      // the page is in the browser's language: its texts and the page's lang
      await expect(page.locator('html')).toHaveAttribute('lang', language);
      await page.keyboard.press('Escape');
      await expect(page.getByRole('navigation').first().getByRole('link', { name: menuText(language, 'vehicles'), exact: true }).first()).toBeAttached();
      expect(found).toEqual([]);
    });
  });
}

test('pseudo-localised texts (longer, accented) still fit the main screens at 1400 and 390 px', async ({ page }) => {
  test.setTimeout(180_000);
  // the bundle's texts pseudo-localised on their way to the page (a later ask with the same ETag is a 304, passed on)
  await page.route('**/api/ui/config', async (route) => {
    const response = await route.fetch();
    if (response.status() !== 200) return route.fulfill({ response });
    const bundle = await response.json();
    bundle.locales = Object.fromEntries(Object.entries(bundle.locales).map(([id, texts]) => [id, pseudoTexts(texts)]));
    // the body is sent as it is now: not compressed, of its new length
    const headers = Object.fromEntries(Object.entries(response.headers()).filter(([name]) => !['content-encoding', 'content-length'].includes(name)));
    return route.fulfill({ status: 200, headers, json: bundle });
  });
  // the check sees a text that does not fit (planted, then taken away)
  await page.goto('/');
  await page.evaluate(() => document.body.insertAdjacentHTML('beforeend', '<button id="planted" style="width:3rem;overflow:hidden;white-space:nowrap">Zbyt długi tekst</button>'));
  expect(await cutOffTexts(page)).toEqual([expect.stringContaining('"Zbyt długi tekst"')]);
  const found = await mainScreens(page, false, 'pseudo');
  await page.keyboard.press('Escape');
  await expect(page.getByRole('navigation').first().getByRole('link').first()).toHaveText(/^\[.*\]$/);
  expect(found).toEqual([]);
});

test('Ustawienia → Język shows the language to choose and nothing else, and keeps the one chosen on the account', async ({ page, request }) => {
  await signedIn(page, 'kierowca', '/app/account/language');
  const form = page.locator('form').filter({ has: page.getByLabel('Język portalu') });
  // (rjsf's select has its options' positions as values: the option chosen is read by its text)
  await expect(form.getByLabel('Język portalu').locator('option:checked')).toHaveText('Polski');
  // what the form loaded for itself (the languages offered, the choice behind the one shown) is not drawn
  await expect(form.locator('input:not([type=hidden]), select, textarea')).toHaveCount(1);
  await expect(form).not.toContainText('Unsupported');
  await expect(form).not.toContainText('chosen');
  try {
    await form.getByLabel('Język portalu').selectOption({ label: 'English' });
    await form.getByRole('button', { name: 'Zapisz' }).click();
    // the portal starts again in his language
    await expect(page.getByRole('heading', { name: 'Language' })).toBeVisible();
    await expect(page.locator('html')).toHaveAttribute('lang', 'en');
    await expect(page.getByLabel('Portal language').locator('option:checked')).toHaveText('English');
  } finally {
    // the worker's next journeys read Polish
    await (await apiAs(request, 'kierowca', 'Kierowca123!', 'USER', { rejestr: 'WZ12345' })).put('/account/language', { language: 'pl' });
  }
});
