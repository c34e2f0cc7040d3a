import AxeBuilder from '@axe-core/playwright';
import { test as base, expect, type APIRequestContext, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from '@playwright/test';
import { JourneyLog, watchJourneyPages } from './journey-log';
import { journeyPage, KeptContexts, type Kept } from './kept-context';
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

let currentBaseURL: string | undefined;
const keptOf = new WeakMap<BrowserContext, Kept>();

const REFUSED_BY_DESIGN = /^Failed to load resource: the server responded with a status of 4\d\d\b/;

/**
 * Every spec's `test` (issue 38): the journey fails on any console error of any page it opened —
 * the context's pages and popups, and pages of contexts it opens itself (a second user beside the
 * first), whose `browser.newContext` is watched for the length of the test.
 */
export const test = base.extend<{ consoleErrors: ConsoleErrors; journeyBaseURL: void; journeyLog: void }, { keptContexts: KeptContexts }>({
  // one context per worker kept across journeys, clean for each (kept-context.ts)
  keptContexts: [
    async ({}, use) => {
      const kept = new KeptContexts();
      await use(kept);
      await kept.closeAll();
    },
    { scope: 'worker' },
  ],
  context: async (
    // _combinedContextOptions: the journey's context options as Playwright combines them from the
    // config and test.use (a fixture of its own, not in the public types; Playwright reads the names)
    { browser, keptContexts, _combinedContextOptions }: { browser: Browser; keptContexts: KeptContexts; _combinedContextOptions?: BrowserContextOptions },
    use,
    testInfo,
  ) => {
    // a Playwright that renamed it would otherwise give every journey the config's options alone
    if (!_combinedContextOptions) throw new Error('Playwright no longer has the _combinedContextOptions fixture: see tests/browser/kept-context.ts');
    const kept = await keptContexts.acquire(browser, _combinedContextOptions, testInfo.title);
    keptOf.set(kept.context, kept);
    await use(kept.context);
    await keptContexts.release(kept, testInfo);
  },
  page: async ({ context }, use) => {
    await use(await journeyPage(keptOf.get(context)!));
  },
  // the journey's baseURL (a describe block may change it), for `signedIn`'s calls to the API
  journeyBaseURL: [
    async ({ baseURL }, use) => {
      currentBaseURL = baseURL;
      await use();
    },
    { auto: true },
  ],
  // what the journey's pages did, written beside a failing journey's artifacts (journey-log.ts)
  journeyLog: [
    async ({ browser, context }, use, testInfo) => {
      const log = new JourneyLog();
      const unwatch = watchJourneyPages(browser, context, (page) => log.watch(page));
      try {
        await use();
      } finally {
        unwatch();
        log.stop();
      }
      if (testInfo.status !== testInfo.expectedStatus) await log.write(testInfo.outputPath('journey-log.txt'));
    },
    { auto: true },
  ],
  consoleErrors: [
    async ({ browser, context }, use) => {
      const errors: string[] = [];
      const allowed: RegExp[] = [];
      const unwatch = watchJourneyPages(browser, context, (page) => {
        page.on('console', (message) => {
          if (message.type() !== 'error' || REFUSED_BY_DESIGN.test(message.text())) return;
          errors.push(`${page.url()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => errors.push(`${page.url()}: uncaught ${error.message}`));
      });
      try {
        await use({ allow: (pattern) => void allowed.push(pattern) });
      } finally {
        unwatch();
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

/** The longest a page is given to settle: far beyond a fade's 150–300 ms, far below a journey's minutes. */
const SETTLE_LIMIT_MS = 3_000;

/**
 * The words broken across lines in the texts of `elements` (a word whose characters lie on more
 * than one line: "техобслуговуванн|я"), each with the text it is in. A text cut off is another
 * matter (languages.spec.ts cutOffTexts).
 */
export async function wordsBrokenIn(elements: Locator): Promise<{ text: string; word: string }[]> {
  return elements.evaluateAll((els) => {
    const broken: { text: string; word: string }[] = [];
    for (const el of els) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index!);
          range.setEnd(node, match.index! + match[0].length);
          const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
          if (tops.size > 1) broken.push({ text, word: match[0] });
        }
      }
    }
    return broken;
  });
}

/**
 * Waits two frames (a transition starts on the frame after its class is set), then for every
 * animation that ends. One that repeats for ever (a spinner) never finishes: waiting for it held
 * the manager's axe scan until its time-out (CI, 7 December 2026). Whatever the page does, the wait
 * ends after SETTLE_LIMIT_MS.
 */
export async function settled(page: Page): Promise<void> {
  await page.evaluate(async (limitMs) => {
    const limit = new Promise((resolve) => setTimeout(resolve, limitMs));
    await Promise.race([new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))), limit]);
    const ending = document.getAnimations().filter((a) => Number.isFinite(Number(a.effect?.getComputedTiming().endTime ?? Infinity)));
    await Promise.race([Promise.all(ending.map((a) => a.finished.catch(() => undefined))), limit]);
  }, SETTLE_LIMIT_MS);
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

/** Fills the login form at `at` (the portal's own by default) and submits it, as a person would. */
export async function submitLogin(page: Page, a: { login: string; password: string; choice: string; plate?: string; vin?: string }, at = '/') {
  await page.goto(at);
  // the visitor's first use (a field taking the focus) starts the runtime, which takes the served
  // form over (runtime/src/start-gate.ts). What is typed and pressed before that is taken over too,
  // and login-first-paint.spec.ts is about it; the journeys that sign in here are about what
  // follows, so they use the runtime's form (a press during a loaded CI machine's start was lost
  // once, 5 December)
  await page.getByLabel(/^Login\*?$/).focus();
  await expect(page.locator('#first-paint')).toHaveCount(0);
  await page.getByLabel(a.choice, { exact: true }).check();
  await page.getByLabel(/^Login\*?$/).fill(a.login);
  await page.getByLabel(/^Hasło\*?$/).fill(a.password);
  if (a.plate) await page.getByLabel(/^Numer rejestracyjny/).fill(a.plate);
  if (a.vin) await page.getByLabel(/^Ostatnie 6 znaków VIN/).fill(a.vin);
  await page.getByRole('button', { name: 'Zaloguj', exact: true }).click();
}

/**
 * Signs in through the login screen and waits for the landing page: for the journeys whose subject
 * is signing in (or what the form does on the way); every other journey uses `signedIn`.
 */
export async function signIn(page: Page, account: Account, password?: string) {
  const a = ACCOUNTS[account] as { login: string; password: string; choice: string; plate?: string; vin?: string };
  await submitLogin(page, { ...a, password: password ?? a.password });
  await expect(page).toHaveURL(/\/app\/dane-pojazdu$/);
}

/** The sign-in request's role for each of the login form's choices (schemas/api/auth-request). */
const ROLE_OF_CHOICE: Record<string, string> = { 'Fleet Manager': 'MANAGER', 'Użytkownik pojazdu': 'USER', 'Doradca serwisowy': 'ADVISOR' };
/** The runtime's session key in sessionStorage (runtime/src/state/session.ts SESSION_STORAGE_KEY). */
const SESSION_STORAGE_KEY = 'portal.session';
/**
 * Sessions of this worker (one module per Playwright worker process) by account, signed in through
 * the API. Only accounts without a vehicle are kept: a driver's or advisor's session carries the
 * vehicle it signed in to, which a journey may switch. A kept session is used again only while its
 * token still works (a journey may sign out or end its sessions) and while it is young: adding a
 * passkey asks for a sign-in of the last 15 minutes (security.session.recentSignInMinutes).
 */
const kept = new Map<string, { session: unknown; at: number }>();
const KEEP_MS = 10 * 60_000;

/** What the runtime's login screen stores after a sign-in (LoginScreen.tsx `signedIn`), from the API's own answer. */
async function apiSession(page: Page, account: Account): Promise<{ session: unknown; origin: string }> {
  const a = ACCOUNTS[account] as { login: string; password: string; choice: string; plate?: string; vin?: string };
  const origin = new URL(currentBaseURL ?? 'http://127.0.0.1').origin;
  // page.request: the browser's user agent, as the form's sign-in would record it. A variant's host
  // (marka.localhost) is the browser's loopback, not a name Node resolves: asked at 127.0.0.1 by its Host.
  const host = new URL(origin).host;
  const viaLoopback = new URL(origin).hostname.endsWith('.localhost');
  const api = (path: string) => (viaLoopback ? `http://127.0.0.1:${new URL(origin).port || 80}${path}` : `${origin}${path}`);
  const hostHeader: Record<string, string> = viaLoopback ? { Host: host } : {};
  const key = `${origin} ${account}`;
  const cached = kept.get(key);
  if (cached && Date.now() - cached.at < KEEP_MS) {
    const token = (cached.session as { token: string }).token;
    const check = await page.request.get(api('/api/notifications/unread-count'), { headers: { ...hostHeader, Accept: 'application/json', Authorization: `Bearer ${token}` } });
    if (check.ok()) return { session: cached.session, origin };
  }
  kept.delete(key);
  const { name } = await (await page.request.get(api('/api/init/pre-config'), { headers: hostHeader })).json();
  const data = JSON.stringify({
    username: a.login, password: a.password, role: ROLE_OF_CHOICE[a.choice],
    ...(a.plate ? { rejestr: a.plate } : {}), ...(a.vin ? { vin: a.vin } : {}),
  });
  const nonce = makeNonce();
  const response = await page.request.post(api('/api/user/auth'), {
    headers: { ...hostHeader, Accept: 'application/json', 'Content-Type': 'application/json', 'X-Nonce': nonce, 'X-Signature': signBody(name, nonce, data) },
    data,
  });
  const text = await response.text();
  // the answer's text names why a sign-in failed; a successful one holds the session's token, which
  // a step's title would put in a failing journey's log (journey-log.ts)
  expect(response.status(), `sign-in of ${a.login} through the API${response.ok() ? '' : `: ${text}`}`).toBe(200);
  const answer = JSON.parse(text) as { id_token: string; body: { userDetails: unknown; postConfig?: unknown }; secondFactor?: unknown };
  expect(answer.secondFactor, `${a.login} signs in with the password alone`).toBeUndefined();
  const session = { token: answer.id_token, user: answer.body.userDetails, postConfig: answer.body.postConfig };
  if (!a.plate) kept.set(key, { session, at: Date.now() });
  return { session, origin };
}

/**
 * For the journeys that set up a second factor for a shared account (a passkey, the authenticator
 * app) and take it away again in their last steps: when such a journey fails on the way, an
 * administrator resets the accounts' second factors, as the portal's Użytkownicy screen does. The
 * worker's later journeys sign the same accounts in with the password alone; a passkey left behind
 * by one failed journey failed every later journey of the manager in its worker (CI, 6 December
 * 2026). The administrator's session and the accounts' ids are taken before the journey, while the
 * password alone still signs them in.
 */
export function resetSecondFactorsIfFailed(accounts: Account[]) {
  let before: { token: string; origin: string; ids: number[] } | undefined;
  test.beforeEach(async ({ page }) => {
    const admin = await apiSession(page, 'admin');
    const ids: number[] = [];
    for (const account of accounts) ids.push((((await apiSession(page, account)).session as { user: { id: number } }).user.id));
    before = { token: (admin.session as { token: string }).token, origin: admin.origin, ids };
  });
  test.afterEach(async ({ page }, testInfo) => {
    if (!before || testInfo.status === testInfo.expectedStatus) return;
    const { name } = await (await page.request.get(`${before.origin}/api/init/pre-config`)).json();
    for (const id of before.ids) {
      const nonce = makeNonce();
      const response = await page.request.post(`${before.origin}/api/users/${id}/second-factor/reset`, {
        headers: { Accept: 'application/json', 'Content-Type': 'application/json', Authorization: `Bearer ${before.token}`, 'X-Nonce': nonce, 'X-Signature': signBody(name, nonce, '{}') },
        data: '{}',
      });
      expect(response.status(), `second factors of user ${id} reset after the failed journey: ${await response.text()}`).toBe(204);
    }
  });
}

/**
 * The page signed in as `account` and open at `path` (issue 44): the session comes from the API
 * (once per worker and office account, see `kept`) and goes into the tab's sessionStorage, where
 * the runtime's login screen would have put it, before the first page loads; then the screen the
 * journey is about opens directly — no login page, no landing page, no menu on the way. The landing
 * page is the default, as after the form.
 */
export async function signedIn(page: Page, account: Account, path = '/app/dane-pojazdu') {
  const { session, origin } = await apiSession(page, account);
  // only for this one navigation: a later one (after the journey signs out) must not bring the session back
  const script = await page.addInitScript(({ origin, key, value }) => {
    // only on the portal's own origin (a frame may load another)
    if (location.origin === origin) sessionStorage.setItem(key, value);
  }, { origin, key: SESSION_STORAGE_KEY, value: JSON.stringify(session) });
  try {
    await page.goto(path);
  } finally {
    await script.dispose();
  }
  // signed in: the screen asked for, not the login screen (a screen may change its query, as a deep link's ?open does)
  await expect(page).toHaveURL((url) => url.pathname === new URL(path, url).pathname);
}

/**
 * Double-clicks `target` until `opened` shows. A table draws its rows again when its answer lands
 * (after a resize, an action's reload, the first block): a double-click whose two clicks meet two
 * drawings of the row is lost, as it would be for anyone, who then double-clicks again (CI on loaded
 * machines, 4 and 5 December: users-admin, audit-history, personal-data).
 */
export async function openByDoubleClick(target: Locator, opened: Locator): Promise<void> {
  await expect(async () => {
    // A dialog on its way (its code and its data: 3.7 s on a busy CI machine) is waited for, not
    // asked for again; a second double-click then found the row under the dialog's backdrop and
    // waited for it until the journey's time-out (CI, 7 December 2026). So each try waits longer,
    // and a double-click the dialog has come to cover gives up, for the next try to find the dialog.
    if (!(await opened.isVisible())) await target.dblclick({ timeout: 5_000 });
    await expect(opened).toBeVisible({ timeout: 10_000 });
  }).toPass();
}

/** The toast with this text (toasts are the portal's status messages). */
export const toast = (page: Page, text: string | RegExp) => page.locator('.toast').filter({ hasText: text });

/**
 * Closes every toast, as a person would before using what they cover. A success toast hides
 * itself after 6 s: one that goes between the count and the click is not waited for (a click on a
 * locator that no longer matches would wait for the journey's whole time-out).
 */
export async function closeToasts(page: Page): Promise<void> {
  const closers = page.locator('.app-toasts .btn-close');
  while (await closers.count()) await closers.first().click({ timeout: 2_000 }).catch(() => undefined);
  await expect(page.locator('.app-toasts .toast')).toHaveCount(0);
}

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
