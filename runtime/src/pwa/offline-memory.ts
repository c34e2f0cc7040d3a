/**
 * The phone's memory of answers (issue 47; docs/architecture.md "Offline"), loaded by the API
 * client with a signed-in user's first call, never on the login page: the declared GET calls'
 * answers (screens/app.json `offline.reads`, and the start-up's own) are kept per user in
 * IndexedDB as they arrive; without a network the client answers them from there, and the page
 * says from when ("Dane z 12:04": pwa/PhoneStatus.tsx). Signing out forgets them; so does another
 * user signing in on this browser. It imports nothing of the API client (which loads it).
 */
import { atom } from 'jotai';
import type { Bundle } from '../config/bundle';
import { sessionAtom } from '../state/session';
import { store } from '../state/store';
import { indexedDbStorage } from './offline-db';
import { offlinePaths, type OfflineDecl, type OfflinePaths } from './offline-paths';
import type { OfflineMemory, OfflineStorage } from './offline-types';

/** When the oldest answer shown from the phone's memory came (null: what is shown came from the server). */
export const offlineSinceAtom = atom<number | null>(null);

/** The last user whose answers this browser keeps (localStorage: it outlives the tab's session). */
export const LAST_USER_KEY = 'portal.offline.user';

/**
 * The bundle of this user's pages, as its start-up's call brought it (from the server or, offline,
 * from what was kept): it declares what is kept and sent, and the wizards whose follow-ups the
 * outbox makes. (A bundle published since and picked up at a navigation, config/bundle-refresh.ts,
 * counts from the next start-up.)
 */
let bundle: Bundle | null = null;
export const offlineBundle = () => bundle;
const noteBundle = (path: string, body: unknown) => {
  if (path === '/ui/config' && body && typeof body === 'object') bundle = body as Bundle;
};

const pathsOf = new WeakMap<Bundle, OfflinePaths>();
/** What the bundle in use declares kept and sent. */
export function paths(): OfflinePaths {
  if (!bundle) return offlinePaths(undefined);
  let known = pathsOf.get(bundle);
  if (!known) pathsOf.set(bundle, (known = offlinePaths((bundle.app as { offline?: OfflineDecl }).offline)));
  return known;
}

/** Whose the data is: the signed-in user (his id and login), or nobody. */
export const userKey = (): string | null => {
  const user = store.get(sessionAtom)?.user;
  return user ? `${user.id}:${user.login}` : null;
};

const storage: OfflineStorage = indexedDbStorage;

/** A GET's answer kept (with a body) or given back (without one): api/client.ts's offline memory. */
export const memory: OfflineMemory = async (path, body) => {
  const user = userKey();
  if (body !== undefined) {
    noteBundle(path, body);
    // JSON answers only (a downloaded file is a Blob, and never declared)
    if (!user || !paths().reads(path) || body instanceof Blob) return undefined;
    store.set(offlineSinceAtom, null);
    await storage.putAnswer({ user, path, body, at: Date.now() }).catch(() => undefined);
    return undefined;
  }
  if (!user || !paths().reads(path)) return undefined;
  // a user whose data this browser does not keep (another one's are forgotten at his sign-in) gets nothing
  if (localStorage.getItem(LAST_USER_KEY) !== user) return undefined;
  const kept = await storage.getAnswer(user, path).catch(() => undefined);
  if (!kept) return undefined;
  store.set(offlineSinceAtom, (since) => (since === null ? kept.at : Math.min(since, kept.at)));
  noteBundle(path, kept.body);
  return { body: kept.body };
};

/** The user changed (or signed out): nothing of the previous one is shown. */
async function onSessionChange(): Promise<void> {
  const user = userKey();
  store.set(offlineSinceAtom, null);
  if (user && localStorage.getItem(LAST_USER_KEY) === user) return;
  await storage.deleteAnswers().catch(() => undefined);
  if (user) localStorage.setItem(LAST_USER_KEY, user);
}

let started = false;

/** Starts keeping answers for the signed-in pages (once), and registers the service worker. */
export function startMemory(): OfflineMemory {
  if (started) return memory;
  started = true;
  let last = userKey();
  store.sub(sessionAtom, () => {
    const now = userKey();
    if (now === last) return;
    last = now;
    void onSessionChange();
  });
  void onSessionChange();
  // the service worker (the runtime precached for these pages, the portal installable), once the page is in: never in its way
  if (import.meta.env.PROD && 'serviceWorker' in navigator) {
    const register = () => setTimeout(() => void import('./register').then((m) => m.registerServiceWorker()), 1000);
    if (document.readyState === 'complete') register();
    else window.addEventListener('load', register, { once: true });
  }
  return memory;
}
