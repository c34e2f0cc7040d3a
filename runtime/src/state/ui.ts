/**
 * Shared UI state that plain modules may set: pending requests (loading bar and spinner), toasts,
 * the blocking error modal and the informational statement modal.
 */
import { atom } from 'jotai';
import { store } from './store';

/** Number of API requests in flight. */
export const pendingRequestsAtom = atom(0);

/**
 * The user's own writes: every signed request (POST, PUT) of the user that succeeded bumps it (the
 * API client), short of the POSTs that only read (`reads`: a table's rows, a report). What follows
 * the server's state without reloading (the bell's unread count) asks again right after the user
 * changed something.
 */
export const userWritesAtom = atom(0);

/** The machine code of the last refused call (e.g. TERMS_NOT_ACCEPTED), for whoever must react to it. */
export const lastErrorCodeAtom = atom<{ code: string; at: number } | null>(null);

export type ToastKind = 'success' | 'error' | 'warning';
export interface ToastMessage {
  id: number;
  kind: ToastKind;
  /** Already translated text (server details are shown as they come). */
  text: string;
  /** The action the toast reports on (e.g. a form's endpoint): a later toast of the same action replaces it. */
  key?: string;
  /** The server's id of the failed request, shown under the text (app:requestId) so that a screenshot leads to its log line. */
  reference?: string;
}

export const toastsAtom = atom<ToastMessage[]>([]);
let nextToastId = 1;

/**
 * Shows a toast. With a `key` (one per action), the action's earlier toast gives way: a success
 * after a failed attempt replaces the error instead of standing beside it.
 */
export function showToast(kind: ToastKind, text: string, key?: string, reference?: string): void {
  const id = nextToastId++;
  store.set(toastsAtom, (list) => [...(key ? list.filter((t) => t.key !== key) : list), { id, kind, text, key, ...(reference ? { reference } : {}) }]);
}

export function dismissToast(id: number): void {
  store.set(toastsAtom, (list) => list.filter((t) => t.id !== id));
}

/** Dismisses every toast: what they report belongs to the session that has just ended. */
export function clearToasts(): void {
  store.set(toastsAtom, []);
}

export interface ErrorModalState {
  /** Already translated text. */
  text: string;
  /** A blocking error cannot be closed: the application cannot continue. */
  blocking: boolean;
}

export const errorModalAtom = atom<ErrorModalState | null>(null);

export function showErrorModal(text: string, blocking = true): void {
  store.set(errorModalAtom, { text, blocking });
}

export interface StatementState {
  title?: string;
  text: string;
  onOk?: () => void;
}

/** The informational statement modal (spec §2 "Other shared screens"), one at a time. */
export const statementAtom = atom<StatementState | null>(null);

export function showStatement(statement: StatementState): void {
  store.set(statementAtom, statement);
}
