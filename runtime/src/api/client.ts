/**
 * The one API module (DESIGN.md §4, spec §7–§8). Every call of the runtime goes through it, so that
 * - every POST and PUT is signed (X-Nonce, X-Signature over the exact body string sent),
 * - every call of a signed-in user carries the bearer token,
 * - pending requests are counted for the loading bar and the spinner,
 * - a 401 signs the user out (except on the sign-in call itself),
 * - a 500 with a detail, and a missing response, become an error toast (a 500's with the request's
 *   id, "Identyfikator zgłoszenia", which finds its line in the server's log),
 * - a GET refused by a busy server (503 with Retry-After: load shed, the database away for a
 *   moment) is asked once more after the server's delay (at most RETRY_AFTER_CAP_MS) before it
 *   fails: a page's start-up calls no longer leave it on "Ładowanie..." (issue 33).
 * Other failures reject with an ApiError carrying the server's body for the caller to show.
 * The signing code (core/signing.ts, core/multipart.ts and their hash library) is loaded with the
 * first write: the login page shows its form before anyone writes (issue 33).
 */
import type { MultipartPart } from '../../core/multipart';
import { i18n } from '../config/i18n';
import type { OfflineMemory } from '../pwa/offline-types';
import { clearSession, currentToken } from '../state/session';
import { store } from '../state/store';
import { lastErrorCodeAtom, pendingRequestsAtom, showToast, userWritesAtom } from '../state/ui';

export interface FieldError {
  field: string;
  message: string;
}

/** The body of every error response (schemas/api/error.schema.json). */
export interface ErrorBody {
  statusCode?: number;
  code?: string;
  detail?: string;
  errors?: FieldError[];
  /** The server's id of the request (its log line): shown under an error so that a screenshot leads to it. */
  requestId?: string;
}

export class ApiError extends Error {
  constructor(
    /** HTTP status, or 0 when no response came. */
    readonly status: number,
    readonly body: ErrorBody | null,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }

  get detail(): string | undefined {
    return this.body?.detail;
  }

  get fieldErrors(): FieldError[] {
    return this.body?.errors ?? [];
  }

  get requestId(): string | undefined {
    return this.body?.requestId;
  }
}

export interface RequestOptions {
  body?: unknown;
  /** false on the sign-in call: there a 401 means wrong credentials, not an expired session. */
  signOutOn401?: boolean;
  /** Leave every error to the caller (no toast), e.g. at start-up where a blocking modal shows it. */
  quiet?: boolean;
  signal?: AbortSignal;
  responseType?: 'json' | 'text' | 'blob';
  /** Receives the response headers of a successful call (e.g. the id of a served document). */
  onHeaders?: (headers: Headers) => void;
  /** The action's toast key: an error toast of this call is replaced by the action's next toast. */
  toastKey?: string;
  /** A body already built and signed (a multipart upload): sent as these bytes with these headers. */
  raw?: { body: Uint8Array; headers: Record<string, string> };
  /** Asked by the page itself, not by the user (the bell's poll): not counted for the loading bar and spinner. */
  background?: boolean;
  /**
   * One submission, however often it is sent (issue 47): the server answers a repeated key with its
   * first answer and writes nothing more. Each attempt is still signed anew (a fresh nonce).
   */
  idempotencyKey?: string;
  /** The bearer token of a session not yet saved (signing in, just before the portal starts again for it). */
  token?: string;
  /** Asked ahead of the screen that reads it (askAhead): a refusal leaves no trace; the screen's own call meets it. */
  ahead?: boolean;
  /**
   * A POST that only reads (a table's rows, a report, an export): not counted as the user's change
   * (state/ui.ts userWritesAtom). Each table block read asked the bell for its count again, and
   * made answers asked ahead unusable (7 December 2026).
   */
  reads?: boolean;
}

/**
 * The phone's memory of answers (issue 47, pwa/offline-memory.ts, loaded with a signed-in user's first
 * call, never on the login page): `memory(path, body)` keeps a declared GET's answer from the
 * network; `memory(path)` gives the one kept, if any, when the network cannot answer.
 */
let offline: Promise<OfflineMemory | undefined> | undefined;
const offlineMemory = () => (currentToken() ? (offline ??= import('../pwa/offline-memory').then((m) => m.startMemory(), () => undefined)) : undefined);

const API_PREFIX = '/api';
const SIGNED_METHODS = new Set(['POST', 'PUT']);
/** What may change the user's data: a DELETE too (a saved filter, a device, a subscription), though it is not signed. */
const CHANGING_METHODS = new Set(['POST', 'PUT', 'DELETE']);

let signingKeyName: string | null = null;

/** The pre-configuration name is the signing key prefix; set once the pre-configuration is loaded. */
export function configureSigning(preConfigName: string): void {
  signingKeyName = preConfigName;
}

const noConnectionText = () => i18n.t('app:noConnection');

/** The longest wait before asking a refused GET again, whatever Retry-After says. */
export const RETRY_AFTER_CAP_MS = 3_000;

/**
 * How long to wait before asking again a GET the server refused for a moment (503 with
 * Retry-After: seconds or an HTTP date), capped; null when the answer does not invite a retry.
 */
export function retryDelayMs(response: Pick<Response, 'status' | 'headers'>, now = Date.now()): number | null {
  if (response.status !== 503) return null;
  const header = response.headers.get('retry-after')?.trim();
  if (!header) return null;
  const ms = /^\d+$/.test(header) ? Number(header) * 1000 : Date.parse(header) - now;
  if (Number.isNaN(ms)) return null;
  return Math.min(RETRY_AFTER_CAP_MS, Math.max(0, ms));
}

function wait(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

async function buildHeaders(method: string, bodyText: string | undefined, token = currentToken()): Promise<Headers> {
  const headers = new Headers({ Accept: 'application/json' });
  if (token) headers.set('Authorization', `Bearer ${token}`);
  if (bodyText !== undefined) headers.set('Content-Type', 'application/json');
  if (SIGNED_METHODS.has(method)) {
    if (signingKeyName === null) throw new Error('configureSigning() must run before the first write');
    const { makeNonce, signBody } = await import('../../core/signing');
    const nonce = makeNonce();
    headers.set('X-Nonce', nonce);
    headers.set('X-Signature', signBody(signingKeyName, nonce, bodyText ?? ''));
  }
  return headers;
}

/** The headers of a body signed by its builder, with the bearer token. */
function rawHeaders(signed: Record<string, string>): Headers {
  const headers = new Headers({ Accept: 'application/json', ...signed });
  const token = currentToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

async function readErrorBody(response: Response): Promise<ErrorBody | null> {
  try {
    const text = await response.text();
    if (!text) return null;
    const parsed = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null ? (parsed as ErrorBody) : { detail: String(parsed) };
  } catch {
    return null;
  }
}

async function readBody(response: Response, type: RequestOptions['responseType']): Promise<unknown> {
  if (response.status === 204) return undefined;
  if (type === 'blob') return response.blob();
  if (type === 'text') return response.text();
  const text = await response.text();
  return text ? JSON.parse(text) : undefined;
}

/** Answers asked ahead of the screens that read them (issue 47, api/ahead.ts), set at a start-up with a session. */
let takeAhead: (<T>(path: string, options?: RequestOptions) => Promise<T> | undefined) | undefined;
export const answerAheadWith = (take: typeof takeAhead) => {
  takeAhead = take;
};

export async function request<T = unknown>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  // the exact string that is signed is the one sent
  const bodyText = options.raw ? undefined : options.body === undefined ? (SIGNED_METHODS.has(method) ? '{}' : undefined) : JSON.stringify(options.body);
  const headers = options.raw ? rawHeaders(options.raw.headers) : await buildHeaders(method, bodyText, options.token ?? currentToken());
  if (options.idempotencyKey) headers.set('Idempotency-Key', options.idempotencyKey);

  const counted = !options.background;
  if (counted) store.set(pendingRequestsAtom, (n) => n + 1);
  let response: Response;
  try {
    const send = () => fetch(API_PREFIX + path, { method, headers, body: options.raw ? (options.raw.body as BodyInit) : bodyText, credentials: 'include', signal: options.signal });
    response = await send();
    // only a GET: asking again cannot do a thing twice
    const delay = method === 'GET' ? retryDelayMs(response) : null;
    if (delay !== null) {
      await response.body?.cancel().catch(() => undefined);
      await wait(delay, options.signal);
      response = await send();
    }
  } catch (e) {
    if ((e as Error)?.name === 'AbortError') throw e;
    // no network: a declared GET is answered from what the phone kept (pwa/offline.ts)
    const kept = method === 'GET' && (await (await offlineMemory())?.(path));
    if (kept) return kept.body as T;
    const text = noConnectionText();
    if (!options.quiet) showToast('error', text, options.toastKey);
    throw new ApiError(0, null, text);
  } finally {
    if (counted) store.set(pendingRequestsAtom, (n) => Math.max(0, n - 1));
  }

  if (response.ok) {
    if (counted && CHANGING_METHODS.has(method) && !options.reads) store.set(userWritesAtom, (n) => n + 1);
    options.onHeaders?.(response.headers);
    const body = await readBody(response, options.responseType);
    if (method === 'GET') void offlineMemory()?.then((memory) => memory?.(path, body));
    return body as T;
  }

  const body = await readErrorBody(response);
  if (body?.code && !options.ahead) store.set(lastErrorCodeAtom, { code: body.code, at: Date.now() });
  if (response.status === 401 && options.signOutOn401 !== false) clearSession();
  if (response.status >= 500 && body?.detail && !options.quiet) showToast('error', body.detail, options.toastKey, body.requestId ?? response.headers.get('x-request-id') ?? undefined);
  throw new ApiError(response.status, body, body?.detail ?? `HTTP ${response.status}`);
}

export const api = {
  get: <T = unknown>(path: string, options?: RequestOptions) => takeAhead?.<T>(path, options) ?? request<T>('GET', path, options),
  post: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T = unknown>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T = unknown>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  /** A multipart/form-data POST (an attachment upload), signed over the exact bytes sent (core/multipart.ts). */
  postMultipart: async <T = unknown>(path: string, parts: MultipartPart[], options?: RequestOptions) => {
    if (signingKeyName === null) throw new Error('configureSigning() must run before the first write');
    const { signedMultipart } = await import('../../core/multipart');
    return request<T>('POST', path, { ...options, raw: signedMultipart(signingKeyName, parts) });
  },
};

/**
 * The address of an API path for the browser itself rather than for fetch: a link or a new window
 * (a one-time download URL carries its token in the query, as it cannot send the bearer header).
 */
export function apiUrl(path: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString();
  return `${API_PREFIX}${path}${search ? `?${search}` : ''}`;
}

/**
 * The text to show for a failed call (spec §8 "error display helper"): the server's detail,
 * otherwise the caller's fallback, otherwise 'Brak połączenia z serwerem'.
 */
export function errorText(error: unknown, fallback?: string): string {
  if (error instanceof ApiError && error.detail) return error.detail;
  return fallback ?? noConnectionText();
}
