/**
 * The service worker's registration (issue 47; runtime/vite.config.ts `serviceWorker`): loaded
 * once the page is up (main.tsx), never in the first page's way. A newer worker found waiting is
 * announced (pwa/update.ts) and takes over only when the runtime tells it to; the check for one
 * rides on the bundle's check at navigations (config/bundle-refresh.ts), one mechanism for both.
 */
import { Workbox } from 'workbox-window';
import { store } from '../state/store';
import { dirtyFormsAtom } from '../state/dirty-forms';
import { pendingRequestsAtom } from '../state/ui';
import { runtimeUpdateAtom } from './update-state';

let workbox: Workbox | null = null;
let lastCheck = 0;
/** A new runtime is looked for at most this often (each look is one conditional request of sw.js). */
export const UPDATE_CHECK_INTERVAL_MS = 60_000;

export async function registerServiceWorker(): Promise<void> {
  if (workbox || !('serviceWorker' in navigator)) return;
  workbox = new Workbox('/sw.js', { scope: '/' });
  // a worker of a newer build installed and waiting for this page to let it take over
  workbox.addEventListener('waiting', () => store.set(runtimeUpdateAtom, (state) => state ?? 'available'));
  lastCheck = Date.now();
  await workbox.register().catch(() => undefined);
}

/** At a navigation: whether a newer runtime was published since (throttled). */
export function checkForRuntimeUpdate(now = Date.now()): void {
  if (!workbox || now - lastCheck < UPDATE_CHECK_INTERVAL_MS) return;
  lastCheck = now;
  void workbox.update().catch(() => undefined);
}

/** How long the page must have fetched nothing before the newer worker is told to take over, and the most it waits for that. */
export const AT_REST_MS = 500;
const AT_REST_MAX_MS = 5_000;
/** If the newer worker has not taken over by then, the page loads again anyway (on the older one, which announces it again). */
const TAKEOVER_MAX_MS = 10_000;

/**
 * Resolves once the page has fetched nothing for AT_REST_MS and has no API call pending (at most
 * AT_REST_MAX_MS). Chromium leaves a newer worker waiting for good when it is told to take over while
 * the page's requests pass through the older one — as when a half-filled form is left for another
 * screen, whose code and data are then on their way (issue 47's journey: still waiting a minute later).
 */
export function pageAtRest(now = () => performance.now()): Promise<void> {
  return new Promise((resolve) => {
    const start = now();
    let lastFetch = start;
    const observer = new PerformanceObserver(() => (lastFetch = now()));
    observer.observe({ type: 'resource' });
    const look = () => {
      const quiet = now() - lastFetch >= AT_REST_MS && store.get(pendingRequestsAtom) === 0;
      if (quiet || now() - start >= AT_REST_MAX_MS) {
        observer.disconnect();
        resolve();
      } else setTimeout(look, 100);
    };
    setTimeout(look, AT_REST_MS);
  });
}

/** The newer worker takes over once the page is at rest, and the page loads again on it. */
export async function applyRuntimeUpdate(): Promise<void> {
  if (!workbox) return location.reload();
  await pageAtRest();
  // a form opened meanwhile: it waits for that one too (PhoneStatus.tsx asks again once it is left)
  const formOpen = () => store.get(dirtyFormsAtom).size > 0;
  if (formOpen()) return;
  // the browser's own event, not Workbox's 'controlling': Workbox raises that only for the worker it
  // saw installing itself, and a newer worker found already waiting as the page loaded took over
  // without the page loading again (seen in the runtime-update journey under load)
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  workbox.messageSkipWaiting();
  setTimeout(() => formOpen() || location.reload(), TAKEOVER_MAX_MS);
}
