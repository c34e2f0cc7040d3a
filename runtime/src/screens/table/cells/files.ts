/**
 * What the `files` cell does, without React: which of the declared files a row has, the values its
 * texts may name, and opening a file in a new window through a one-time download token.
 */
import type { FilesCellDecl } from '../../../config/bundle';

export type FileDecl = FilesCellDecl['files'][number];

/** The files a row has: its value N means the first N declared files (the invoice, then its attachment). */
export function filesOf(decl: FilesCellDecl, value: unknown): FileDecl[] {
  // a file name (an attachment's): one file, the first declared
  if (decl.count === 'present') return value === null || value === undefined || value === '' ? [] : decl.files.slice(0, 1);
  const n = typeof value === 'number' ? value : Number(value ?? 0);
  if (!Number.isFinite(n) || n <= 0) return [];
  return decl.files.slice(0, Math.floor(n));
}

/** Options i18next reads from the values object; a row field of that name must not be taken for one. */
const I18N_OPTIONS = new Set(['count', 'context', 'defaultValue', 'ns', 'lng', 'lngs', 'ordinal', 'replace', 'returnObjects', 'joinArrays', 'postProcess', 'interpolation', 'skipInterpolation']);

/** The row's plain values, for texts such as "Pobierz fakturę {{faktNrCaly}}". */
export function rowVars(row: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(row).filter(([k, v]) => !I18N_OPTIONS.has(k) && (v === null || typeof v !== 'object')));
}

/** Thrown when the browser refuses to open the window even after the token came. */
export class WindowBlockedError extends Error {
  constructor() {
    super('window blocked');
    this.name = 'WindowBlockedError';
  }
}

/** What is used of a window opened by window.open. */
interface OpenedWindow {
  readonly closed: boolean;
  opener: unknown;
  location: { href: string };
  close(): void;
}
type OpenWindow = (url: string, target: string) => OpenedWindow | null;

/**
 * Opens a file in a new window. The window is opened at once, inside the user's click, because a
 * browser lets a click open a window but blocks one opened later, after an awaited request; it is
 * pointed at the file when the token has come. When the token call fails the empty window is
 * closed again and `onError` says why. A window the user closed meanwhile is left closed.
 */
export async function openWithToken(
  requestToken: () => Promise<string>,
  urlFor: (token: string) => string,
  onError: (error: unknown) => void,
  open: OpenWindow = (url, target) => window.open(url, target),
): Promise<void> {
  const win = open('', '_blank');
  // the file needs nothing from this page; the new window must not be able to reach back into it
  if (win) win.opener = null;
  let url: string;
  try {
    url = urlFor(await requestToken());
  } catch (e) {
    win?.close();
    onError(e);
    return;
  }
  if (win) {
    if (!win.closed) win.location.href = url;
  } else if (!open(url, '_blank')) {
    onError(new WindowBlockedError());
  }
}

/** Follows a URL in this window through a link, so a file served as an attachment is saved under its own name. */
function followLink(url: string): void {
  const a = document.createElement('a');
  a.href = url;
  a.download = '';
  a.rel = 'noopener';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

/**
 * Downloads a file in this window (no new window: the server sends it as an attachment, which
 * leaves the page where it is) once its one-time token has come.
 */
export async function downloadWithToken(
  requestToken: () => Promise<string>,
  urlFor: (token: string) => string,
  onError: (error: unknown) => void,
  follow: (url: string) => void = followLink,
): Promise<void> {
  let url: string;
  try {
    url = urlFor(await requestToken());
  } catch (e) {
    onError(e);
    return;
  }
  follow(url);
}
