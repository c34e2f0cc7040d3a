import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type BrowserContext, type Page } from '@playwright/test';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';

export { expect };

/**
 * What a journey's console said that no one should see: errors the page wrote (ag-grid's "module
 * not registered", React's warnings raised as errors, a failed import), uncaught exceptions, and
 * requests the server failed (5xx). Refusals the portal answers by design (a wrong password is a
 * 401, a bad form a 400) reach the console as the browser's own "Failed to load resource" line;
 * their handling is what the journeys check, so they are not counted. A journey that expects an
 * error names it with `consoleErrors.allow(/…/)`.
 */
export interface ConsoleErrors {
  allow(pattern: RegExp): void;
}

const REFUSED_BY_DESIGN = /^Failed to load resource: the server responded with a status of 4\d\d\b/;

/**
 * Every spec's `test` (issue 38): the journey fails on any console error of any page it opened —
 * the context's pages and popups, and pages of contexts it opens itself (a second user beside the
 * first), whose `browser.newContext` is watched for the length of the test.
 */
export const test = base.extend<{ consoleErrors: ConsoleErrors }>({
  consoleErrors: [
    async ({ browser, context }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      const watchPage = (page: Page) => {
        page.on('console', (message) => {
          if (message.type() !== 'error' || REFUSED_BY_DESIGN.test(message.text())) return;
          errors.push(`${page.url()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
      };
      const watchContext = (ctx: BrowserContext) => {
        ctx.pages().forEach(watchPage);
        ctx.on('page', watchPage);
      };
      watchContext(context);
      const newContext = browser.newContext;
      browser.newContext = async (...args: Parameters<typeof newContext>) => {
        const ctx = await newContext.apply(browser, args);
        watchContext(ctx);
        return ctx;
      };
      try {
        await use({ allow: (pattern) => void allowed.push(pattern) });
      } finally {
        browser.newContext = newContext;
      }
      expect(errors.filter((e) => !allowed.some((pattern) => pattern.test(e))), 'errors in the browser console').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * An axe scan of the page, asking for its violations only. By default @axe-core/playwright runs
 * axe per frame and returns every rule's passing nodes too (some 4 MB of HTML snippets on a table
 * screen), then finishes in a new blank page: ~7 s a scan, 1 s this way (measured on /app/tire).
 * Legacy mode still scans same-origin frames (the studio's preview), by axe's own frame messaging.
 */
export function axeScan(page: Page): AxeBuilder {
  return new SettledAxeBuilder({ page }).options({ resultTypes: ['violations'] }).setLegacyMode(true);
}

/**
 * Scans once the page's transitions have ended. A dialog fading in is half transparent for 150 ms,
 * and axe measured its buttons' contrast against what shone through (CI, webhooks journey): a
 * person reads the dialog once it is there, so that is what is checked.
 */
class SettledAxeBuilder extends AxeBuilder {
  readonly #page: Page;
  constructor(options: { page: Page }) {
    super(options);
    this.#page = options.page;
  }
  override async analyze() {
    await settled(this.#page);
    return super.analyze();
  }
}

/** Waits two frames (a transition starts on the frame after its class is set), then for every running animation. */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async () => {
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    await Promise.all(document.getAnimations().map((a) => a.finished.catch(() => undefined)));
  });
}

export const ACCOUNTS = {
  admin: { login: 'admin', password: 'Admin123!', choice: 'Fleet Manager' },
  manager: { login: 'manager', password: 'Manager123!', choice: 'Fleet Manager' },
  kierowca: { login: 'kierowca', password: 'Kierowca123!', choice: 'Użytkownik pojazdu', plate: 'WZ12345' },
  doradca: { login: 'doradca', password: 'Doradca123!', choice: 'Doradca serwisowy', plate: 'WZ12345', vin: '000123' },
  nowyKierowca: { login: 'nowy.kierowca', password: 'Start123!', choice: 'Użytkownik pojazdu', plate: 'WZ67890' },
  nowyManager: { login: 'nowy.manager', password: 'Start123!', choice: 'Fleet Manager' },
} as const;
export type Account = keyof typeof ACCOUNTS;

/** Fills the login form and submits it, as a person would. */
export async function submitLogin(page: Page, a: { login: string; password: string; choice: string; plate?: string; vin?: string }) {
  await page.goto('/');
  await page.getByLabel(a.choice, { exact: true }).check();
  await page.getByLabel(/^Login\*?$/).fill(a.login);
  await page.getByLabel(/^Hasło\*?$/).fill(a.password);
  if (a.plate) await page.getByLabel(/^Numer rejestracyjny/).fill(a.plate);
  if (a.vin) await page.getByLabel(/^Ostatnie 6 znaków VIN/).fill(a.vin);
  await page.getByRole('button', { name: 'Zaloguj', exact: true }).click();
}

/** Signs in through the login screen and waits for the landing page. */
export async function signIn(page: Page, account: Account, password?: string) {
  const a = ACCOUNTS[account] as { login: string; password: string; choice: string; plate?: string; vin?: string };
  await submitLogin(page, { ...a, password: password ?? a.password });
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
}

/** The toast with this text (toasts are the portal's status messages). */
export const toast = (page: Page, text: string | RegExp) => page.locator('.toast').filter({ hasText: text });

/** The menu as the user sees it: group headings and entries, in order. */
export async function menuEntries(page: Page): Promise<string[]> {
  const nav = page.getByRole('navigation', { name: 'Menu główne' });
  await expect(nav).toBeVisible();
  return (await nav.getByRole('link').allInnerTexts()).map((s) => s.trim());
}

/**
 * The table's row count as a number, or NaN while it is blank or busy (a new query's count is on its way),
 * so that `expect.poll(() => rowCount(page))` waits for the count instead of reading 0.
 */
export async function rowCount(page: Page): Promise<number> {
  const count = page.getByTestId('row-count');
  // while a new query loads, the last count stays on screen marked busy: not the answer yet
  if ((await count.getAttribute('aria-busy')) === 'true') return NaN;
  const digits = (await count.innerText()).replace(/\D/g, '');
  return digits ? Number(digits) : NaN;
}

/** Waits until the first block of the table has arrived. */
export async function tableLoaded(page: Page) {
  await expect.poll(() => rowCount(page)).toBeGreaterThanOrEqual(0);
}

/** Opens the filter of a table column from its header, as a user does. */
export async function openColumnFilter(page: Page, colId: string) {
  const header = page.locator(`.ag-header-cell[col-id="${colId}"]`);
  // the grid renders only the columns in view: scroll right until this one's header exists
  for (let step = 0; step < 20 && (await header.count()) === 0; step++) {
    await page.locator('.ag-body-horizontal-scroll-viewport').first().evaluate((el) => { el.scrollLeft += 400; });
    await page.waitForTimeout(100);
  }
  await header.scrollIntoViewIfNeeded();
  await header.hover();
  await header.locator('.ag-header-cell-filter-button, .ag-header-icon.ag-header-cell-menu-button').first().click();
}

/** The portal's API as one account: its token, every write signed as the runtime signs it (spec §7). */
export async function apiAs(request: APIRequestContext, login: string, password: string, role: string, extra: Record<string, string> = {}) {
  const { name } = await (await request.get('/api/init/pre-config')).json();
  const send = async (method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = { Accept: 'application/json', ...(token ? { Authorization: `Bearer ${token}` } : {}) };
    let data: string | undefined;
    if (method !== 'GET') {
      data = JSON.stringify(body ?? {});
      const nonce = makeNonce();
      Object.assign(headers, { 'Content-Type': 'application/json', 'X-Nonce': nonce, 'X-Signature': signBody(name, nonce, data) });
    }
    const response = await request.fetch(`/api${path}`, { method, headers, data });
    const text = await response.text();
    expect(response.status(), `${method} ${path}: ${text}`).toBeLessThan(300);
    return text ? JSON.parse(text) : undefined;
  };
  const { id_token: token } = await send('POST', '/user/auth', { username: login, password, role, ...extra });
  return { get: (path: string) => send('GET', path, undefined, token), post: (path: string, body?: unknown) => send('POST', path, body, token), put: (path: string, body?: unknown) => send('PUT', path, body, token) };
}
