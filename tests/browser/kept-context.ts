/**
 * One browser context per worker, kept from journey to journey (issue 44).
 *
 * Playwright opens a new context for every journey: a new profile with an empty HTTP cache, so each
 * journey's first page compiled the portal's scripts from nothing, and Debian's Chromium (the new
 * headless mode) opened and drew a window for it. Here a worker keeps its context while the next
 * journey asks for the same options, and gives each journey a clean one the way a new context is
 * clean — no cookies, no storage of any origin it visited (local and session storage, IndexedDB,
 * Cache Storage, service workers), no permissions, online, no routes — and a new page (its own
 * sessionStorage, init scripts, listeners, viewport and emulated media). What is kept is the HTTP
 * cache, with the compiled code Chromium stores beside it: a page load's script compiling is its
 * largest native cost (docs/decisions.md, "A page load's own cost"), and the assets are
 * content-hashed, so a cached file is the file the server would send.
 *
 * A journey that changes the context in a way that cannot be undone (an init script or binding on
 * the context, headers, credentials, a clock, a geolocation) gets its context closed when it ends,
 * as does a journey that failed, or one whose options say a storage state; the next journey starts
 * a new one. So does a journey whose context could not be made clean within CLEAN_MS (a tab the
 * last journey left mid-reload that would not close): it gets a new context, and the log says which
 * step hung. Playwright's own `reuseContext` was tried (docs/decisions.md): it empties the HTTP
 * cache between tests, which is what this keeps.
 *
 * `E2E_FRESH_CONTEXTS=1` gives every journey a new context as before: to compare, or to rule out
 * that a failure comes from what an earlier journey left.
 *
 * Each journey still gets its own trace chunk and failure screenshot: Playwright's artifacts
 * recorder starts a chunk on every open context when a test starts and stops it when it ends.
 */
import type { Browser, BrowserContext, BrowserContextOptions, Page, TestInfo } from '@playwright/test';

export interface Kept {
  key: string;
  context: BrowserContext;
  options: BrowserContextOptions;
  /** origins the journeys loaded anything from: their storage is what a journey leaves behind */
  origins: Set<string>;
  /** a change `reset` cannot undo was made: close after this journey */
  tainted: boolean;
  closed: boolean;
  /** the journey's page, opened while the context was made clean: the `page` fixture takes it */
  page: Page | undefined;
}

/** What a journey can do to its context that `reset` cannot take back. */
const IRREVERSIBLE = ['addInitScript', 'exposeBinding', 'exposeFunction', 'setExtraHTTPHeaders', 'setHTTPCredentials', 'setGeolocation'] as const;

/** The storages of an origin a new context would not have (the HTTP cache is not one of them). */
const ORIGIN_STORAGES = 'cookies,local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,shared_storage,storage_buckets';

export class KeptContexts {
  #kept: Kept | undefined;

  /** The context for a journey with these options: the kept one made clean, or a new one. */
  async acquire(browser: Browser, options: BrowserContextOptions, testTitle: string): Promise<Kept> {
    const key = JSON.stringify(options);
    const kept = this.#kept;
    if (kept && !kept.closed && kept.key === key && !options.storageState) {
      const step = { name: 'starting' };
      const outcome = await withinMs(CLEAN_MS, makeClean(kept, step));
      if (outcome === 'done') return kept;
      // A tab the last journey left in the middle of a reload it did not wait for did not close:
      // page.close() waited until the context was closed, 90 s later, when the next journey had
      // timed out (CI, 6 December 2026). The journey gets a new context, and the log says what hung.
      const how = outcome === 'late' ? `still ${step.name} after ${CLEAN_MS / 1000} s` : `${step.name} failed: ${outcome.message}`;
      console.error(`kept-context: ${how}; "${testTitle}" gets a new context`);
    }
    // one kept context at a time: an idle window still costs the browser
    if (kept && !kept.closed) await withinMs(CLEAN_MS, kept.context.close());
    // newContext() without options: Playwright gives it the journey's options (and starts its trace)
    const context = await browser.newContext();
    const fresh: Kept = { key, context, options, origins: new Set(), tainted: false, closed: false, page: undefined };
    context.on('close', () => { fresh.closed = true; });
    context.on('request', (request) => {
      const url = request.url();
      if (url.startsWith('http')) fresh.origins.add(new URL(url).origin);
    });
    for (const method of IRREVERSIBLE) {
      const original = (context[method] as (...args: unknown[]) => Promise<unknown>).bind(context);
      (context as unknown as Record<string, unknown>)[method] = (...args: unknown[]) => {
        fresh.tainted = true;
        return original(...args);
      };
    }
    const install = context.clock.install.bind(context.clock);
    context.clock.install = (...args) => {
      fresh.tainted = true;
      return install(...args);
    };
    this.#kept = fresh;
    return fresh;
  }

  /** After the journey: kept for the next one, unless it cannot be made clean again. */
  async release(kept: Kept, testInfo: TestInfo): Promise<void> {
    // a failed journey (also one expected to fail) may have left anything behind
    const failed = testInfo.status !== 'passed';
    const keep = !process.env.E2E_FRESH_CONTEXTS && !kept.tainted && !failed && !kept.options.storageState;
    if (kept.closed || keep) return;
    const reason = testInfo.status === 'timedOut' ? `Test timeout of ${testInfo.timeout}ms exceeded.` : 'Test ended.';
    await kept.context.close({ reason }).catch(() => undefined);
    if (this.#kept === kept) this.#kept = undefined;
  }

  async closeAll(): Promise<void> {
    if (this.#kept && !this.#kept.closed) await this.#kept.context.close().catch(() => undefined);
    this.#kept = undefined;
  }
}

/** How long making the kept context clean may take before the journey gets a new one (it takes well under a second). */
const CLEAN_MS = 15_000;

/**
 * Undoes what the last journey left in the context, short of its HTTP cache, and opens the
 * journey's page: a new tab, opened before the last journey's tabs close (the window stays), then
 * every storage of the origins visited emptied while no page of theirs is open to write to it
 * again. `step` names the step under way, for the log when one does not end.
 */
async function makeClean(kept: Kept, step: { name: string }): Promise<void> {
  const { context, options } = kept;
  step.name = 'undoing routes, cookies, permissions and the network setting';
  await context.unrouteAll({ behavior: 'ignoreErrors' });
  await context.clearCookies();
  await context.clearPermissions();
  if (options.permissions?.length) await context.grantPermissions(options.permissions);
  await context.setOffline(Boolean(options.offline));
  const stale = context.pages();
  step.name = 'opening the journey\'s tab';
  const page = await context.newPage();
  step.name = `closing the last journey's tabs (${stale.map((p) => p.url()).join(', ')})`;
  await Promise.all(stale.map((p) => p.close()));
  if (kept.origins.size > 0) {
    step.name = `emptying the storages of ${[...kept.origins].join(', ')}`;
    const cdp = await context.newCDPSession(page);
    try {
      for (const origin of kept.origins) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: ORIGIN_STORAGES });
    } finally {
      await cdp.detach();
    }
    kept.origins.clear();
  }
  kept.page = page;
}

/** How `work` went within `ms`: 'done', its error, or 'late' (it is left to fail on its own once the context it waits on closes). */
async function withinMs(ms: number, work: Promise<unknown>): Promise<'done' | 'late' | Error> {
  let timer: NodeJS.Timeout | undefined;
  const ended = work.then(
    () => 'done' as const,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), ms)));
  try {
    return await Promise.race([ended, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** The journey's page: the one opened as the kept context was made clean, or a new context's first. */
export async function journeyPage(kept: Kept): Promise<Page> {
  const page = kept.page;
  kept.page = undefined;
  return page && !page.isClosed() ? page : kept.context.newPage();
}
