/**
 * The signed-in session (spec §4 "Session"): authenticated while a token is held in session
 * storage under a fixed key. Login stores it; logout or any 401 clears it.
 */
import { atom } from 'jotai';
import type { Session } from '../config/bundle';
import { store } from './store';

// the same key as start-gate.ts `SESSION_STORAGE_KEY`, which the entry reads without this module (it
// would bring the framework into the entry; a stored session starts the runtime at once), as its test checks
export const SESSION_STORAGE_KEY = 'portal.session';

function readStoredSession(): Session | null {
  try {
    const raw = globalThis.sessionStorage?.getItem(SESSION_STORAGE_KEY);
    if (!raw) return null;
    const value = JSON.parse(raw) as Session;
    // a half-written or foreign value is no session at all (the user's fields are the configuration's: session-fields.ts)
    return typeof value?.token === 'string' && value.user ? value : null;
  } catch {
    return null;
  }
}

export const sessionAtom = atom<Session | null>(readStoredSession());

/**
 * Changes whenever the signed-in user's details change (another vehicle, a cleared first-login
 * flag): pages are keyed by it, so they load again for the new facts.
 */
export const sessionRevisionAtom = atom(0);

export function saveSession(session: Session): void {
  const previous = store.get(sessionAtom);
  saveSessionForNextStart(session);
  store.set(sessionAtom, session);
  if (previous && previous.token === session.token && JSON.stringify(previous.user) !== JSON.stringify(session.user)) {
    store.set(sessionRevisionAtom, (n) => n + 1);
  }
}

/**
 * Keeps a session for the portal's next start only (signing in, when the portal must start again
 * for the user: another variant, language or role bundle). The page in use is left as it is, so
 * nothing of the signed-in portal is drawn, and used, in the moment before it is replaced.
 */
export function saveSessionForNextStart(session: Session): void {
  sessionStorage.setItem(SESSION_STORAGE_KEY, JSON.stringify(session));
}

/** Updates the stored session (e.g. a new user after a vehicle switch); nothing happens when signed out. */
export function updateSession(change: (session: Session) => Session): void {
  const current = store.get(sessionAtom);
  if (current) saveSession(change(current));
}

export function clearSession(): void {
  sessionStorage.removeItem(SESSION_STORAGE_KEY);
  store.set(sessionAtom, null);
}

export const currentToken = (): string | null => store.get(sessionAtom)?.token ?? null;
