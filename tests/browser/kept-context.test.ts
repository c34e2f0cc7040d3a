/**
 * The journeys' kept browser context (kept-context.ts), against a stand-in for Playwright's
 * context: what happens when the last journey's tab will not close is not something a real
 * Chromium does on demand (CI saw it once in some 200 journeys, after a journey that did not wait
 * for the reload it started).
 */
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { journeyPage, KeptContexts } from './kept-context';

interface FakePage {
  url: () => string;
  isClosed: () => boolean;
  close: () => Promise<void>;
}

/** A context with the calls kept-context.ts makes; `stuck` makes its tabs' close() never end. */
function fakeContext(name: string) {
  const pages: FakePage[] = [];
  const listeners = new Map<string, Array<() => void>>();
  const state = { stuck: false, closed: false, name };
  const newPage = async () => {
    let closed = false;
    const url = `http://127.0.0.1/${name}/${pages.length}`;
    const page: FakePage = {
      url: () => url,
      isClosed: () => closed,
      close: () => (state.stuck ? new Promise<void>(() => undefined) : Promise.resolve().then(() => void ((closed = true), pages.splice(pages.indexOf(page), 1)))),
    };
    pages.push(page);
    return page;
  };
  const context = {
    state,
    pages: () => [...pages],
    newPage,
    on: (event: string, listener: () => void) => void listeners.set(event, [...(listeners.get(event) ?? []), listener]),
    close: async () => {
      state.closed = true;
      (listeners.get('close') ?? []).forEach((listener) => listener());
    },
    unrouteAll: async () => undefined,
    clearCookies: async () => undefined,
    clearPermissions: async () => undefined,
    grantPermissions: async () => undefined,
    setOffline: async () => undefined,
    newCDPSession: async () => ({ send: async () => undefined, detach: async () => undefined }),
    clock: { install: async () => undefined },
    addInitScript: async () => undefined,
    exposeBinding: async () => undefined,
    exposeFunction: async () => undefined,
    setExtraHTTPHeaders: async () => undefined,
    setHTTPCredentials: async () => undefined,
    setGeolocation: async () => undefined,
  };
  return context;
}

function fakeBrowser() {
  const made: Array<ReturnType<typeof fakeContext>> = [];
  const browser = { newContext: async () => made[made.push(fakeContext(`c${made.length + 1}`)) - 1] };
  return { browser: browser as unknown as Browser, made };
}

const passed = { status: 'passed' } as Parameters<KeptContexts['release']>[1];
const options = { locale: 'pl-PL' };

describe('the kept browser context', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('is kept for the next journey with the same options, which gets a new tab while the last journey\'s tabs close', async () => {
    const kept = new KeptContexts();
    const { browser, made } = fakeBrowser();
    const first = await kept.acquire(browser, options, 'first');
    const firstPage = await journeyPage(first);
    await kept.release(first, passed);

    const second = await kept.acquire(browser, options, 'second');
    expect(second.context).toBe(first.context);
    const secondPage = await journeyPage(second);
    expect(secondPage).not.toBe(firstPage);
    expect(firstPage.isClosed()).toBe(true);
    expect(second.context.pages()).toEqual([secondPage]);
    expect(made).toHaveLength(1);
  });

  it('gives the next journey a new context when the last journey\'s tab does not close, and says so in the log', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const kept = new KeptContexts();
    const { browser, made } = fakeBrowser();
    const first = await kept.acquire(browser, options, 'first');
    await journeyPage(first);
    await kept.release(first, passed);
    made[0].state.stuck = true;

    const acquiring = kept.acquire(browser, options, 'second');
    await vi.advanceTimersByTimeAsync(15_000);
    const second = await acquiring;

    expect(second.context).not.toBe(first.context);
    expect(made[0].state.closed).toBe(true);
    expect((await journeyPage(second)) as unknown as Page).toBe(made[1].pages()[0]);
    expect(log).toHaveBeenCalledWith(expect.stringMatching(/^kept-context: still closing the last journey's tabs \(http:\/\/127\.0\.0\.1\/c1\/0\) after 15 s; "second" gets a new context$/));
    log.mockRestore();
  });

  it('is not kept after a failed journey', async () => {
    const kept = new KeptContexts();
    const { browser } = fakeBrowser();
    const first = await kept.acquire(browser, options, 'first');
    await kept.release(first, { status: 'failed' } as typeof passed);
    const second = await kept.acquire(browser, options, 'second');
    expect(second.context).not.toBe(first.context as BrowserContext);
  });
});
