/**
 * Screenshots of every screen of every role at 1400 and 900 px (issue 16: "looked at before this
 * is called done"), written as PNGs to /tmp/shots (SHOTS_DIR). Against a running portal with the
 * demo data: `npm start`, then `npx tsx tools/screenshots.ts` (SHOTS_URL, default
 * http://127.0.0.1:3000). Signs in through the login screen as a person would; the login page
 * itself is taken too, empty and after a refused attempt.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { ACCOUNTS, submitLogin, type Account } from '../tests/browser/support.ts';
import { chromiumLaunchOptions } from './chromium.ts';

const BASE = process.env.SHOTS_URL || 'http://127.0.0.1:3000';
const OUT = process.env.SHOTS_DIR || '/tmp/shots';
const WIDTHS = [1400, 900];
const ROLES: Account[] = ['admin', 'manager', 'kierowca', 'doradca'];

const slug = (href: string) => href.replace(/^\/app\/?/, '').replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'home';

/** Waits until the screen shows its content: no spinner, no table still counting. */
async function settled(page: Page) {
  await page.locator('main').waitFor();
  await page.locator('.loading-text').first().waitFor({ state: 'detached', timeout: 15_000 }).catch(() => {});
  // a table has loaded once its count is shown and not busy (a new query's count is on its way)
  if (await page.locator('.ag-root').count()) {
    await page
      .waitForFunction(() => {
        const count = document.querySelector('[data-testid="row-count"]');
        return count !== null && count.getAttribute('aria-busy') !== 'true' && /\d/.test(count.textContent ?? '');
      }, null, { timeout: 15_000 })
      .catch(() => {});
  }
  await page.waitForTimeout(400);
}

async function menuLinks(page: Page, width: number): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Menu główne' });
  if (width < 992) await page.getByRole('button', { name: 'Pokaż lub ukryj menu' }).click();
  await nav.getByRole('link').first().waitFor();
  const links = await nav.getByRole('link').evaluateAll((els) => els.map((e) => e.getAttribute('href')!).filter((h) => !h.includes('sign-out')));
  if (width < 992) await page.keyboard.press('Escape');
  return links;
}

const browser = await chromium.launch(chromiumLaunchOptions);
mkdirSync(OUT, { recursive: true });
const written: string[] = [];
try {
  for (const width of WIDTHS) {
    const context = await browser.newContext({ baseURL: BASE, viewport: { width, height: 900 }, locale: 'pl-PL' });
    const page = await context.newPage();
    await page.goto('/');
    await page.getByRole('button', { name: 'Zaloguj' }).waitFor();
    await page.screenshot({ path: join(OUT, `login-${width}.png`) });
    await page.getByRole('button', { name: 'Zaloguj' }).click();
    await page.screenshot({ path: join(OUT, `login-${width}-refused.png`) });
    written.push(`login-${width}.png`, `login-${width}-refused.png`);
    await context.close();

    for (const role of ROLES) {
      const ctx = await browser.newContext({ baseURL: BASE, viewport: { width, height: 900 }, locale: 'pl-PL' });
      const p = await ctx.newPage();
      await submitLogin(p, ACCOUNTS[role]);
      await p.waitForURL(/\/app\//);
      for (const href of await menuLinks(p, width)) {
        await p.goto(href);
        await settled(p);
        const file = `${role}-${width}-${slug(href)}.png`;
        await p.screenshot({ path: join(OUT, file) });
        written.push(file);
      }
      await ctx.close();
    }
  }
} finally {
  await browser.close();
}
console.log(`${written.length} screenshots in ${OUT}`);
