/**
 * The outbox of the driver's phone (issue 47; docs/architecture.md "Offline"): a declared submission
 * (screens/app.json `offline.sends`) that finds no network waits in IndexedDB (pwa/outbox.ts) with
 * its Idempotency-Key and goes when the network returns, in order, once; the driver sees what waits
 * and what the server refused (pwa/PhoneStatus.tsx, which loads this module with the signed-in
 * shell). Only the signed-in user's are shown or sent; another user signing in on this browser
 * makes the previous user's go (docs/decisions.md).
 */
import { atom } from 'jotai';
import { ApiError } from '../api/client';
import { i18n } from '../config/i18n';
import { sessionAtom } from '../state/session';
import { store } from '../state/store';
import { showToast, userWritesAtom } from '../state/ui';
import { indexedDbStorage } from './offline-db';
import { offlineBundle, paths, userKey } from './offline-memory';
import type { OfflineStorage, Submission, SubmissionPlan } from './offline-types';
import { Outbox, type AttemptFailure } from './outbox';

/** The signed-in user's submissions in the outbox, waiting or refused. */
export const outboxItemsAtom = atom<Submission[]>([]);

/** A round of sending is tried this often while something waits (besides the network's return). */
export const RETRY_INTERVAL_MS = 30_000;

/** What a failed attempt means for the outbox. */
export function classifyFailure(error: unknown): AttemptFailure {
  if (!(error instanceof ApiError)) return { kind: 'refused', reason: error instanceof Error ? error.message : String(error) };
  // no answer, the server busy or failing, the session lapsed: the same submission later
  if (error.status === 0 || error.status === 401 || error.status === 408 || error.status === 429 || error.status >= 500) return { kind: 'retry' };
  const fields = error.fieldErrors.map((f) => f.message).join('; ');
  return { kind: 'refused', reason: error.detail ?? (fields || `HTTP ${error.status}`) };
}

/** One attempt at a submission (pwa/send-submission.ts, loaded with the first one: the forms' code it needs is not the pages'). */
const sendSubmission = async (submission: Submission) => (await import('./send-submission')).sendSubmission(submission, offlineBundle(), classifyFailure);

const exclusive = <T,>(run: () => Promise<T>): Promise<T> =>
  typeof navigator !== 'undefined' && navigator.locks ? (navigator.locks.request('portal-outbox', run) as Promise<T>) : run();

const storage: OfflineStorage = indexedDbStorage;
const outbox = new Outbox({ storage, send: sendSubmission, classify: classifyFailure, now: Date.now, exclusive });

async function refreshItems(): Promise<void> {
  const user = userKey();
  store.set(outboxItemsAtom, user ? await outbox.of(user) : []);
}

/** Sends what waits, if anything, and tells the driver what went. */
export async function sendWaiting(): Promise<void> {
  const user = userKey();
  if (!user) return;
  const result = await outbox.flush(user).catch(() => null);
  await refreshItems();
  if (result?.sent) {
    showToast('success', i18n.t('app:outbox.sent', { count: result.sent }), 'outbox');
    // what follows the server's state (the vehicle's reading, the bell) asks again
    store.set(userWritesAtom, (n) => n + 1);
  }
}

/**
 * A submission that found no network: kept in the outbox when its screen's call is declared
 * (`offline.sends`) and someone is signed in. True when it was kept (the form then closes and says so).
 */
export async function queueIfOffline(error: unknown, submission: { key: string; title: string; plan: SubmissionPlan }): Promise<boolean> {
  const user = userKey();
  if (!(error instanceof ApiError) || error.status !== 0 || !user || !paths().sends(submission.plan.path)) return false;
  await outbox.add({ ...submission, user, at: Date.now() });
  await refreshItems();
  showToast('warning', i18n.t('app:outbox.queued'), 'outbox');
  return true;
}

export async function removeSubmission(id: number): Promise<void> {
  await outbox.remove(id);
  await refreshItems();
}

/** Another user signed in: the previous user's submissions go, unsent and unseen (docs/decisions.md); his own are sent. */
async function onSessionChange(): Promise<void> {
  const user = userKey();
  if (!user) return store.set(outboxItemsAtom, []);
  await outbox.forgetOthers(user).catch(() => 0);
  await refreshItems();
  if (navigator.onLine) void sendWaiting();
}

let started = false;

/** Starts the outbox for the signed-in pages (once). */
export function startOutbox(): void {
  if (started) return;
  started = true;
  let last = userKey();
  store.sub(sessionAtom, () => {
    const now = userKey();
    if (now === last) return;
    last = now;
    void onSessionChange();
  });
  void onSessionChange();
  window.addEventListener('online', () => void sendWaiting());
  setInterval(() => {
    if (navigator.onLine && store.get(outboxItemsAtom).some((s) => !s.failed)) void sendWaiting();
  }, RETRY_INTERVAL_MS);
}

