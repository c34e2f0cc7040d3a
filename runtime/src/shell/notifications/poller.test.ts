import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FRESH_MS, pollIntervalMs, startPolling, type PollerHost } from './poller';

/** A page whose visibility the test switches. */
function fakePage() {
  const doc = Object.assign(new EventTarget(), { visibilityState: 'visible' as DocumentVisibilityState });
  const win = new EventTarget();
  const host: PollerHost = {
    document: doc,
    window: win,
    setInterval: (run, ms) => setInterval(run, ms),
    clearInterval: (h) => clearInterval(h as ReturnType<typeof setInterval>),
    now: () => Date.now(),
  };
  const setVisible = (visible: boolean) => {
    doc.visibilityState = visible ? 'visible' : 'hidden';
    doc.dispatchEvent(new Event('visibilitychange'));
  };
  return { host, setVisible, focus: () => win.dispatchEvent(new Event('focus')) };
}

describe('startPolling', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks at once, then once per interval', async () => {
    const run = vi.fn(() => Promise.resolve());
    const poller = startPolling(run, 60_000, fakePage().host);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(59_000);
    expect(run).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(run).toHaveBeenCalledTimes(4);
    poller.stop();
  });

  it('does not ask while the tab is hidden, and asks at once when it comes back', async () => {
    const run = vi.fn(() => Promise.resolve());
    const page = fakePage();
    const poller = startPolling(run, 60_000, page.host);
    await vi.advanceTimersByTimeAsync(0);
    page.setVisible(false);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(run).toHaveBeenCalledTimes(1);
    page.setVisible(true);
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(run).toHaveBeenCalledTimes(3);
    poller.stop();
  });

  it('starts paused in a hidden tab', async () => {
    const run = vi.fn(() => Promise.resolve());
    const page = fakePage();
    page.setVisible(false);
    const poller = startPolling(run, 60_000, page.host);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(run).not.toHaveBeenCalled();
    poller.stop();
  });

  it('asks again when the window regains focus or the user changed something, one question at a time', async () => {
    let answer: () => void = () => undefined;
    const run = vi.fn(() => new Promise<void>((resolve) => (answer = resolve)));
    const page = fakePage();
    const poller = startPolling(run, 60_000, page.host);
    page.focus();
    poller.poke();
    // the first question is still on its way
    expect(run).toHaveBeenCalledTimes(1);
    answer();
    await vi.advanceTimersByTimeAsync(FRESH_MS);
    page.focus();
    expect(run).toHaveBeenCalledTimes(2);
    answer();
    await vi.advanceTimersByTimeAsync(0);
    poller.poke();
    expect(run).toHaveBeenCalledTimes(3);
    poller.stop();
  });

  it('does not ask again when the window regains focus or the tab comes back within seconds of the last answer (as a page\'s load gives its window focus)', async () => {
    const run = vi.fn(() => Promise.resolve());
    const page = fakePage();
    const poller = startPolling(run, 60_000, page.host);
    await vi.advanceTimersByTimeAsync(100);
    page.focus();
    page.setVisible(false);
    page.setVisible(true);
    expect(run).toHaveBeenCalledTimes(1);
    // the user's own change is asked about at once, however fresh the count
    poller.poke();
    expect(run).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(FRESH_MS);
    page.focus();
    expect(run).toHaveBeenCalledTimes(3);
    poller.stop();
  });

  it('asks again on focus after a failed question, however recent', async () => {
    const run = vi.fn(() => Promise.reject(new Error('offline')));
    const page = fakePage();
    const poller = startPolling(run, 60_000, page.host);
    await vi.advanceTimersByTimeAsync(100);
    page.focus();
    expect(run).toHaveBeenCalledTimes(2);
    poller.stop();
  });

  it('a failed question does not stop the polling', async () => {
    const run = vi.fn(() => Promise.reject(new Error('offline')));
    const poller = startPolling(run, 30_000, fakePage().host);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(run).toHaveBeenCalledTimes(2);
    poller.stop();
  });

  it('asks nothing once stopped', async () => {
    const run = vi.fn(() => Promise.resolve());
    const page = fakePage();
    const poller = startPolling(run, 60_000, page.host);
    poller.stop();
    page.focus();
    page.setVisible(false);
    page.setVisible(true);
    await vi.advanceTimersByTimeAsync(5 * 60_000);
    expect(run).toHaveBeenCalledTimes(1);
  });
});

describe('pollIntervalMs', () => {
  it('takes the configured seconds, a default without them, and never less than 5 s', () => {
    expect(pollIntervalMs(45)).toBe(45_000);
    expect(pollIntervalMs(undefined)).toBe(60_000);
    expect(pollIntervalMs('30')).toBe(60_000);
    expect(pollIntervalMs(1)).toBe(5_000);
  });
});
