/**
 * When the bell asks the server for the unread count (docs/decisions.md, "Notifications in the
 * browser"): at once, then every `intervalMs` while the tab is visible; not at all while it is
 * hidden (a tab left open in the background costs the server nothing); at once again when the tab
 * comes back or the window regains focus, so a returning user sees a fresh number — unless the
 * last answer is younger than FRESH_MS (a glance at another window and back needs no new number).
 * One question at a time: a poll while the last one is still on its way is skipped. No React, no
 * globals: the page's document, window, timers and clock are handed in, so the schedule is
 * unit-tested.
 */

export interface PollerHost {
  /** The page's document: its visibilityState and its `visibilitychange` event. */
  document: Pick<Document, 'visibilityState'> & Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  /** The window: its `focus` event. */
  window: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>;
  setInterval: (run: () => void, ms: number) => unknown;
  clearInterval: (handle: unknown) => void;
  /** Milliseconds on a clock that only goes forward. */
  now: () => number;
}

/** An answer this young is fresh enough for a user coming back to the tab. */
export const FRESH_MS = 5_000;

export interface Poller {
  /** Asks now (after the user's own change), unless a question is on its way. */
  poke(): void;
  stop(): void;
}

/** The browser's own document, window and timers. */
export const browserHost = (): PollerHost => ({
  document,
  window,
  setInterval: (run, ms) => window.setInterval(run, ms),
  clearInterval: (handle) => window.clearInterval(handle as number),
  now: () => performance.now(),
});

export function startPolling(run: () => Promise<unknown>, intervalMs: number, host: PollerHost): Poller {
  let timer: unknown = null;
  let inFlight = false;
  let stopped = false;
  let answeredAt = -Infinity;

  const poke = () => {
    if (stopped || inFlight || host.document.visibilityState === 'hidden') return;
    inFlight = true;
    // a failed poll is forgotten: the next one tries again
    void run()
      .then(() => (answeredAt = host.now()), () => undefined)
      .finally(() => (inFlight = false));
  };
  const comeBack = () => {
    if (host.now() - answeredAt >= FRESH_MS) poke();
  };
  const pause = () => {
    if (timer !== null) host.clearInterval(timer);
    timer = null;
  };
  const resume = () => {
    comeBack();
    if (timer === null) timer = host.setInterval(poke, intervalMs);
  };
  const onVisibility = () => (host.document.visibilityState === 'hidden' ? pause() : resume());

  host.document.addEventListener('visibilitychange', onVisibility);
  host.window.addEventListener('focus', comeBack);
  onVisibility();
  return {
    poke,
    stop() {
      stopped = true;
      pause();
      host.document.removeEventListener('visibilitychange', onVisibility);
      host.window.removeEventListener('focus', comeBack);
    },
  };
}

/** The interval of the configuration (screens/app.json `bell.pollSeconds`), never below 5 s. */
export function pollIntervalMs(pollSeconds: unknown, fallbackSeconds = 60): number {
  const seconds = typeof pollSeconds === 'number' && Number.isFinite(pollSeconds) ? pollSeconds : fallbackSeconds;
  return Math.max(5, seconds) * 1000;
}
