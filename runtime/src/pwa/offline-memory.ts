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
import type { KeptAnswer, OfflineMemory, OfflineStorage } from './offline-types';

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

/** The longest piece of work done in one idle moment: a slow phone's processor makes it four times longer, still under the 50 ms of a long task. */
const SLICE_MS = 8;

/**
 * A moment the page has nothing better to do, as a function giving the milliseconds left of it: at most
 * SLICE_MS (an idle period may be 50 ms long), and a slice after a pause where there is no requestIdleCallback (Safari).
 */
const idleMoment = (): Promise<() => number> =>
  new Promise((resolve) => {
    const slice = (deadline?: IdleDeadline) => {
      const end = performance.now() + Math.min(SLICE_MS, deadline ? deadline.timeRemaining() : SLICE_MS);
      resolve(() => end - performance.now());
    };
    if (typeof requestIdleCallback === 'function') requestIdleCallback(slice, { timeout: 10_000 });
    else setTimeout(slice, 100);
  });

/** Below this depth an answer's objects and arrays are written member by member; deeper ones whole (one screen, one namespace of texts). */
const SPLIT_DEPTH = 3;

/**
 * The JSON text of an answer, written in pieces while the page is idle, a few at a time, and joined
 * in an idle moment of its own: no piece of work is long, whatever the answer's size (the
 * configuration bundle is ~0.5 MB of JSON, which JSON.stringify wrote in one 0.1 s task of a
 * throttled phone). The answers are JSON as parsed, so JSON.stringify of a member is its text.
 */
export async function jsonText(value: unknown, moment: () => Promise<() => number> = idleMoment): Promise<string> {
  const pieces: string[] = [];
  let left = await moment();
  const write = async (item: unknown, depth: number): Promise<void> => {
    if (left() <= 0) left = await moment();
    if (depth >= SPLIT_DEPTH || item === null || typeof item !== 'object') {
      pieces.push(JSON.stringify(item) ?? 'null');
      return;
    }
    if (Array.isArray(item)) {
      pieces.push('[');
      for (let i = 0; i < item.length; i++) {
        if (i > 0) pieces.push(',');
        await write(item[i], depth + 1);
      }
      pieces.push(']');
      return;
    }
    pieces.push('{');
    let first = true;
    for (const [key, member] of Object.entries(item)) {
      if (member === undefined) continue;
      pieces.push(`${first ? '' : ','}${JSON.stringify(key)}:`);
      first = false;
      await write(member, depth + 1);
    }
    pieces.push('}');
  };
  await write(value, 0);
  await moment();
  return pieces.join('');
}

/**
 * Keeps an answer as its JSON text (issue 47): storing the object made IndexedDB clone every object
 * of it on the main thread, at every load — for the configuration bundle 0.3 s of a throttled
 * phone's main thread in one task; a text is copied in one piece, in an idle moment of its own.
 * Kept only while its user is still the one signed in (a sign-out in between forgets it, as it
 * forgets the rest), and only if no later answer of the same call came meanwhile.
 */
const keeping = new Map<string, unknown>();
async function keep(user: string, path: string, body: unknown, at: number): Promise<void> {
  keeping.set(path, body);
  const json = await jsonText(body);
  await idleMoment();
  if (keeping.get(path) !== body) return;
  keeping.delete(path);
  if (userKey() !== user) return;
  await storage.putAnswer({ user, path, json, at }).catch(() => undefined);
}

/** A kept answer's body (answers kept before issue 47's change carry the object itself). */
const keptBody = (kept: KeptAnswer): unknown => (kept.json !== undefined ? JSON.parse(kept.json) : kept.body);

/** A GET's answer kept (with a body) or given back (without one): api/client.ts's offline memory. */
export const memory: OfflineMemory = async (path, body) => {
  const user = userKey();
  if (body !== undefined) {
    noteBundle(path, body);
    // JSON answers only (a downloaded file is a Blob, and never declared)
    if (!user || !paths().reads(path) || body instanceof Blob) return undefined;
    store.set(offlineSinceAtom, null);
    await keep(user, path, body, Date.now());
    return undefined;
  }
  if (!user || !paths().reads(path)) return undefined;
  // a user whose data this browser does not keep (another one's are forgotten at his sign-in) gets nothing
  if (localStorage.getItem(LAST_USER_KEY) !== user) return undefined;
  const kept = await storage.getAnswer(user, path).catch(() => undefined);
  if (!kept) return undefined;
  let keptAnswer: unknown;
  try {
    keptAnswer = keptBody(kept);
  } catch {
    return undefined;
  }
  store.set(offlineSinceAtom, (since) => (since === null ? kept.at : Math.min(since, kept.at)));
  noteBundle(path, keptAnswer);
  return { body: keptAnswer };
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
