import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { store } from '../state/store';
import { pendingRequestsAtom } from '../state/ui';
import { AT_REST_MS, pageAtRest } from './register';

/** The browser's resource timeline, as the page's fetches end (PerformanceObserver's callback). */
let fetchEnded: () => void = () => undefined;
class FakeObserver {
  constructor(callback: () => void) {
    fetchEnded = callback;
  }
  observe() {}
  disconnect() {
    fetchEnded = () => undefined;
  }
}

describe('a newer worker is told to take over only once the page is at rest', () => {
  let now = 0;
  const clock = () => now;
  const advance = async (ms: number) => {
    now += ms;
    await vi.advanceTimersByTimeAsync(ms);
  };
  beforeEach(() => {
    vi.useFakeTimers();
    vi.stubGlobal('PerformanceObserver', FakeObserver);
    now = 0;
    store.set(pendingRequestsAtom, 0);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.unstubAllGlobals();
    store.set(pendingRequestsAtom, 0);
  });

  it('waits while the next screen is still fetching its code, then goes once nothing was fetched for a while', async () => {
    let atRest = false;
    void pageAtRest(clock).then(() => (atRest = true));
    await advance(300);
    fetchEnded();
    await advance(AT_REST_MS - 100);
    expect(atRest).toBe(false);
    await advance(200);
    expect(atRest).toBe(true);
  });

  it('waits for the API calls still pending', async () => {
    let atRest = false;
    store.set(pendingRequestsAtom, 1);
    void pageAtRest(clock).then(() => (atRest = true));
    await advance(AT_REST_MS * 3);
    expect(atRest).toBe(false);
    store.set(pendingRequestsAtom, 0);
    await advance(200);
    expect(atRest).toBe(true);
  });

  it('does not wait for ever on a page that keeps fetching', async () => {
    let atRest = false;
    store.set(pendingRequestsAtom, 1);
    void pageAtRest(clock).then(() => (atRest = true));
    await advance(4_900);
    expect(atRest).toBe(false);
    await advance(200);
    expect(atRest).toBe(true);
  });
});
