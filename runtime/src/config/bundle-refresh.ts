/**
 * A browser already open gets a newly published bundle at its next navigation (issue 26): at each
 * in-app route change GET /api/ui/config is asked again with the ETag of the bundle in use
 * (If-None-Match), at most once every ~2 s and never in the navigation's way; a 304 changes
 * nothing, a 200 replaces the bundle everywhere (texts, screens, menu, conditions, formats,
 * branding) so the screen being opened renders with it. Loaded lazily by routing/AppRoutes.tsx.
 *
 * The call is made with fetch itself, not through api/client.ts: that client has no way to send a
 * request header of the caller's and takes any answer that is not 2xx (a 304 too) for a failure
 * to report; this background check reports nothing and must not count for the loading bar.
 * A preview (config/preview.tsx) has no ETag and is never refreshed: the studio reloads it.
 */
import type { Bundle } from './bundle';
import { makeLoadedConfig, type LoadedConfig } from './ConfigContext';
import { applyBundle } from './startup';
import { currentToken } from '../state/session';

export const MIN_INTERVAL_MS = 2000;

export interface RefreshState {
  /** When the bundle was last asked for (start-up counts). */
  lastCheck: number;
  /** A check is on its way. */
  inFlight: boolean;
}

/** Whether this navigation asks the server again. */
export function shouldCheck(state: RefreshState, etag: string | null | undefined, now: number, minIntervalMs = MIN_INTERVAL_MS): boolean {
  return !!etag && !state.inFlight && now - state.lastCheck >= minIntervalMs;
}

/** A newer bundle and its ETag, or null when the one in use is current (304) or the check failed. */
export type FetchNewer = (etag: string) => Promise<{ bundle: Bundle; etag: string | null } | null>;

export const fetchNewerBundle: FetchNewer = async (etag) => {
  const headers = new Headers({ Accept: 'application/json', 'If-None-Match': etag });
  const token = currentToken(); // the bundle follows the variant of the user's client (docs/variants.md)
  if (token) headers.set('Authorization', `Bearer ${token}`);
  const response = await fetch('/api/ui/config', { headers, credentials: 'include', cache: 'no-store' });
  if (response.status !== 200) return null; // 304, or a failure: the bundle in use stays
  const fresh = response.headers.get('etag');
  if (fresh === etag) return null;
  return { bundle: (await response.json()) as Bundle, etag: fresh };
};

/**
 * The loaded configuration rebuilt on a newer bundle, its texts, formats and branding applied. The
 * new configuration re-renders the whole tree under routing/AppRoutes.tsx, so every text is
 * translated again from the new resources.
 */
export async function replaceBundle(current: LoadedConfig, bundle: Bundle, etag: string | null): Promise<LoadedConfig> {
  return makeLoadedConfig(current.preConfig, bundle, await applyBundle(bundle), { etag, preview: current.preview });
}

/**
 * When start-up's bundle came (its resource timing, on the clock of Date.now()): this module is
 * loaded only at the first route, which may come seconds later on a slow phone (issue 47: the first
 * page's data and code are asked beside it), and the interval counts from the bundle, not from that.
 */
export function bundleAnsweredAt(): number | undefined {
  // (an entry's name is its absolute address; the start-up asks the bundle without a query)
  const entry = (performance.getEntriesByType?.('resource') as PerformanceResourceTiming[] | undefined)?.find((e) => e.name.endsWith('/api/ui/config'));
  return entry ? performance.timeOrigin + entry.responseEnd : undefined;
}

/**
 * The check at navigations. The first call (the first route, after start-up loaded the bundle)
 * only starts the clock, from when that bundle came.
 */
export class BundleRefresher {
  private state: RefreshState | null = null;

  constructor(
    private readonly fetchNewer: FetchNewer = fetchNewerBundle,
    private readonly rebuild: typeof replaceBundle = replaceBundle,
    private readonly now: () => number = () => Date.now(),
    private readonly started: () => number | undefined = bundleAnsweredAt,
  ) {}

  /** Returns the check's promise (for tests); a navigation does not wait for it. */
  onNavigation(current: LoadedConfig, apply: (config: LoadedConfig) => void): Promise<void> {
    const now = this.now();
    if (!this.state) {
      this.state = { lastCheck: Math.min(now, this.started() ?? now), inFlight: false };
      return Promise.resolve();
    }
    const state = this.state;
    if (!shouldCheck(state, current.etag, now)) return Promise.resolve();
    state.lastCheck = now;
    state.inFlight = true;
    return this.fetchNewer(current.etag!)
      .then(async (newer) => {
        if (newer) apply(await this.rebuild(current, newer.bundle, newer.etag));
      })
      .catch(() => undefined) // no answer: the next navigation asks again
      .finally(() => {
        state.inFlight = false;
      });
  }
}

const refresher = new BundleRefresher();

export function onNavigation(current: LoadedConfig, apply: (config: LoadedConfig) => void): void {
  void refresher.onNavigation(current, apply);
  // the same check for the runtime itself (issue 47): a newer service worker is announced, not swapped in (pwa/register.ts)
  if (import.meta.env.PROD && 'serviceWorker' in navigator) void import('../pwa/register').then((m) => m.checkForRuntimeUpdate());
}
