/**
 * GETs asked ahead of the screens that read them (issue 47, routing/first-reads.ts: a returning
 * driver's vehicle page asked for its record only after ~10 code chunks and the session's gates
 * had come in one after another). The first `api.get` of the same path by the same session within
 * AHEAD_MS takes the answer instead of asking again (api/client.ts); after a write of the user's (POST
 * or PUT, counted by the client in state/ui.ts userWritesAtom), none is taken. Kept out of the client itself:
 * the login page, which never asks ahead, does not load it.
 */
import { answerAheadWith, request, type RequestOptions } from './client';
import { currentToken } from '../state/session';
import { store } from '../state/store';
import { userWritesAtom } from '../state/ui';

export const AHEAD_MS = 15_000;

/** What was asked, for which session, after how many of the user's writes. */
const asked = new Map<string, { token: string | null; writes: number; answer: Promise<unknown> }>();

/** A GET answered by what was asked ahead; if that failed, asked now, so that its error is the caller's as ever. */
async function answeredAhead<T>(early: Promise<unknown>, path: string, options: RequestOptions = {}): Promise<T> {
  const { signal } = options;
  const aborted = signal && new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  try {
    return (await (aborted ? Promise.race([early, aborted]) : early)) as T;
  } catch (e) {
    if (signal?.aborted) throw e;
    return request<T>('GET', path, options);
  }
}

/** The answer asked ahead for this GET, once; none for another session, after a write of the user's, or for a body read otherwise than as JSON. */
function take<T>(path: string, options: RequestOptions = {}): Promise<T> | undefined {
  const entry = asked.get(path);
  if (!entry) return undefined;
  asked.delete(path);
  if (entry.token !== currentToken() || entry.writes !== store.get(userWritesAtom) || options.responseType || options.raw || options.token) return undefined;
  return answeredAhead<T>(entry.answer, path, options);
}

export function askAhead(path: string): void {
  if (asked.has(path)) return;
  // quiet, and a refusal leaves no trace (no gate reopened): the screen's own call meets it as ever
  const answer = request('GET', path, { quiet: true, ahead: true });
  answer.catch(() => undefined);
  asked.set(path, { token: currentToken(), writes: store.get(userWritesAtom), answer });
  answerAheadWith(take);
  setTimeout(() => {
    if (asked.get(path)?.answer === answer) asked.delete(path);
  }, AHEAD_MS);
}
