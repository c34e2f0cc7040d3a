/**
 * The service worker's registration (issue 47; runtime/vite.config.ts `serviceWorker`): loaded
 * once the page is up (main.tsx), never in the first page's way. A newer worker found waiting is
 * announced (pwa/update.ts) and takes over only when the runtime tells it to; the check for one
 * rides on the bundle's check at navigations (config/bundle-refresh.ts), one mechanism for both.
 */
import { Workbox } from 'workbox-window';
import { store } from '../state/store';
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

/** The newer worker takes over and the page loads again on it. */
export function applyRuntimeUpdate(): void {
  if (!workbox) return location.reload();
  // the browser's own event, not Workbox's 'controlling': Workbox raises that only for the worker it
  // saw installing itself, and a newer worker found already waiting as the page loaded took over
  // without the page loading again (seen in the runtime-update journey under load)
  navigator.serviceWorker.addEventListener('controllerchange', () => location.reload(), { once: true });
  workbox.messageSkipWaiting();
}
