/**
 * When the runtime starts (issue 49: the login page's Lighthouse score). A visitor's sign-in page
 * comes drawn in the served HTML (server/init/first-paint.ts) and works as it is until the runtime
 * takes it over: typing, choosing, pressing (a press is held by shell/first-paint.ts and made again
 * by the runtime's page). So on that page the runtime is fetched and started only when the
 * visitor starts to use it — a key, a touch, a press, a field taking the focus — and the page's
 * load fetches nothing but the HTML, the stylesheet and this small entry: on a slow phone the form
 * is drawn sooner and the processor is free while it is read. Everything else starts at once: a
 * signed-in user (his session in this tab), a studio preview, a page with a query or a fragment
 * (`?reset`, `#sso=…` and the like open a dialog or a call at once) and every page the server does
 * not draw (the loading modal stands in until the runtime runs).
 *
 * The entry (main.tsx) imports only this, the press holder and the stylesheets; the runtime is
 * the dynamic import it gives `startWhenUsed`.
 */
import { FIRST_PAINT_ID, servedNoticeOnly } from './shell/first-paint';

/** Where the signed-in session is kept (state/session.ts reads and writes it). */
export const SESSION_STORAGE_KEY = 'portal.session';

/**
 * Where this frame keeps the studio preview it shows (config/preview.tsx), so that a reload keeps
 * it: a frame's own key, as the studio's preview frame shares the tab's session storage with the studio.
 */
export const previewKey = () => `portal.studioPreview${self === top ? '' : '.frame'}`;

/** Whether the page shows a studio preview: its address, or its frame's storage after a reload. */
export const isPreviewing = () => /[?&]studioPreview=/.test(location.search) || sessionStorage.getItem(previewKey()) !== null;

/**
 * What says the visitor has started to use the page: a touch, a pointer, a key, a field taking the
 * focus — and the events an assistive technology or a password manager may send without any of
 * those (a click, an input, a change, a submission).
 */
export const FIRST_USE_EVENTS = ['pointerdown', 'keydown', 'focusin', 'touchstart', 'click', 'input', 'change', 'submit'] as const;

let used = false;
/** Whether the runtime was started by the visitor's first use (App.tsx: what he does next needs no other sign). */
export const startedByUse = () => used;

/**
 * Whether the runtime waits for the visitor's first use: the served sign-in page, with nothing that
 * needs the runtime at once. A browser that refuses its storage to the page starts it at once: this
 * runs in the entry, and nothing after it would start the runtime.
 */
export function waitsForFirstUse(): boolean {
  try {
    return document.getElementById(FIRST_PAINT_ID) !== null && !servedNoticeOnly()
      && location.search === '' && location.hash === ''
      && sessionStorage.getItem(SESSION_STORAGE_KEY) === null
      && !isPreviewing();
  } catch {
    return false;
  }
}

/** A field of the served form as `usedBeforeEntry` reads it (an input, a select, a text area). */
type ServedControl = { type?: string; value?: string; defaultValue?: string; checked?: boolean; defaultChecked?: boolean; selectedIndex?: number; options?: ArrayLike<{ defaultSelected: boolean }> };

/** Whether a field differs from what the server drew: a value typed, a choice made, another option chosen. */
function changed(control: ServedControl): boolean {
  if (control.options) {
    const drawn = Array.prototype.findIndex.call(control.options, (option: { defaultSelected: boolean }) => option.defaultSelected);
    return control.selectedIndex !== Math.max(0, drawn);
  }
  if (control.type === 'radio' || control.type === 'checkbox') return control.checked !== control.defaultChecked;
  return control.value !== control.defaultValue;
}

/**
 * Whether the visitor used the served page before this entry ran: on a slow network the form is
 * drawn, and can be used, while the entry is still on its way, and what he did then (a field
 * focused, a value typed or filled in by his password manager, a role or a language chosen) sent
 * its events before anyone listened. A language chosen then waited for his next use to be acted on
 * (the CI failure of 6 December 2026): such a page starts the runtime at once instead.
 */
export function usedBeforeEntry(served: Pick<Element, 'contains' | 'querySelectorAll'>): boolean {
  if (document.activeElement && served.contains(document.activeElement)) return true;
  return Array.prototype.some.call(served.querySelectorAll('input, select, textarea'), (control: ServedControl) => changed(control));
}

/**
 * Calls `start` now, or on the visitor's first use of the served page (`waitsForFirstUse`), which
 * may have come before this ran (`usedBeforeEntry`). When `start` fails (the runtime's files could
 * not be fetched: a lost network), a waiting page waits for the next use and tries again; a page
 * that could not wait has nothing to fall back to.
 */
export function startWhenUsed(start: () => Promise<unknown>, again = false): void {
  if (!waitsForFirstUse()) {
    void start();
    return;
  }
  const begin = () => {
    for (const type of FIRST_USE_EVENTS) window.removeEventListener(type, begin, true);
    used = true;
    start().catch(() => startWhenUsed(start, true));
  };
  // (once: a page whose start failed waits for his next use, whatever he had done before)
  const served = again ? null : document.getElementById(FIRST_PAINT_ID);
  if (served && usedBeforeEntry(served)) return begin();
  for (const type of FIRST_USE_EVENTS) window.addEventListener(type, begin, { capture: true, passive: true });
}
