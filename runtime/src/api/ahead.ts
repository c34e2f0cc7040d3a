/**
 * GETs asked ahead of the screens that read them (issue 47, routing/first-reads.ts: a returning
 * driver's vehicle page asked for its record only after ~10 code chunks and the session's gates
 * had come in one after another). The first `api.get` of the same path by the same session within
 * AHEAD_MS takes the answer instead of asking again (api/client.ts); a write drops them all. Kept
 * out of the client itself: the login page, which never asks ahead, does not load it.
 */
import { aheadTaker, answerAheadWith, request, type RequestOptions } from './client';
import { currentToken } from '../state/session';

export const AHEAD_MS = 15_000;

const asked = new Map<string, { token: string | null; answer: Promise<unknown> }>();

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

/** The answer asked ahead for this GET, once; none for another session, or for a body read otherwise than as JSON. */
function take<T>(path: string, options: RequestOptions = {}): Promise<T> | undefined {
  const entry = asked.get(path);
  if (!entry) return undefined;
  asked.delete(path);
  if (entry.token !== currentToken() || options.responseType || options.raw || options.token) return undefined;
  return answeredAhead<T>(entry.answer, path, options);
}

export function askAhead(path: string): void {
  // a write since the last ask dropped the client's hook: what was asked before it is not taken
  if (aheadTaker() !== take) asked.clear();
  if (asked.has(path)) return;
  // quiet, and a refusal leaves no trace (no gate reopened): the screen's own call meets it as ever
  const answer = request('GET', path, { quiet: true, ahead: true });
  answer.catch(() => undefined);
  asked.set(path, { token: currentToken(), answer });
  answerAheadWith(take);
  setTimeout(() => {
    if (asked.get(path)?.answer === answer) asked.delete(path);
  }, AHEAD_MS);
}
