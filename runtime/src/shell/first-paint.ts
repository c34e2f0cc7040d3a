/**
 * The page the server drew into the HTML it served (server/init/first-paint.ts, issue 49): the
 * sign-in form, shown before any JavaScript has run. It stays until the runtime has drawn the same
 * page (LoginScreen's layout effect), which then takes over what the visitor did meanwhile — the
 * values typed, the choice made, the field with the focus and its caret, a press of the button or
 * of a link once this code has run, the language chosen — and removes it in the same frame, so
 * nothing moves. A start-up that will not draw that page (a session, a studio preview) or that
 * fails removes it at once.
 */
import { NOTICE_ONLY_CLASS } from '../../core/served-notice';

export const FIRST_PAINT_ID = 'first-paint';

const element = () => (typeof document === 'undefined' ? null : document.getElementById(FIRST_PAINT_ID));

/**
 * A served page that is the cookie notice alone (issue 47): a page the server does not draw (the
 * signed-in pages) shows a first visitor the notice in its HTML, beside the loading modal, until the
 * runtime's notice takes its place (CookieNotice.tsx). It is not a page to take over: the runtime
 * starts at once and draws its own.
 */
const noticeOnly = (page: HTMLElement) => page.classList?.contains(NOTICE_ONLY_CLASS) === true;
/** Whether the served page shown is the cookie notice alone. */
export const servedNoticeOnly = () => {
  const page = element();
  return page !== null && noticeOnly(page);
};

/** Whether the served page is still shown (the runtime's parts it draws wait for it to go: the cookie notice). */
export const firstPaintShown = () => element() !== null;
const listeners = new Set<() => void>();
/** Called once the served page is gone (for useSyncExternalStore). */
export function onFirstPaintGone(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
const remove = (page: HTMLElement) => {
  page.remove();
  listeners.forEach((listener) => listener());
};

/**
 * A press on the served page waiting for the runtime's: the part of the page it was in (the first
 * class of a child of the served page: public-layout, cookie-notice; the same child of #root) and
 * the path (child positions) of its element below it.
 */
type Press = { kind: 'submit' | 'click'; part: string; path: number[] };
let pending: Press | null = null;

function pathOf(node: Element, frame: Element): number[] {
  const path: number[] = [];
  for (let at: Element | null = node; at && at !== frame; at = at.parentElement) path.unshift(at.parentElement ? [...at.parentElement.children].indexOf(at) : 0);
  return path;
}

function atPath(frame: Element, path: number[]): Element | undefined {
  let at: Element | undefined = frame;
  for (const index of path) at = at?.children[index];
  return at;
}

// Presses are held from the moment this module runs (before the runtime's first render, which
// React starts a task later: a press made right after the page's load event was lost).
const pressed = (kind: Press['kind'], node: Element | null) => {
  const part = node?.closest(`#${FIRST_PAINT_ID} > *`);
  if (node && part) pending = { kind, part: part.classList[0] ?? '', path: pathOf(node, part) };
};
const served = element();
// sent now, the form would go to the address bar as a GET: the runtime's form sends it instead
served?.addEventListener('submit', (event) => {
  event.preventDefault();
  pressed('submit', event.target as Element);
}, true);
// an event's target is an element (a form, or what was clicked)
served?.addEventListener('click', (event) => pressed('click', (event.target as Element).closest('button[type="button"]')), true);

/** Whether the served page is shown and the runtime will draw it (`visitor`: a start-up that shows the sign-in form); removed otherwise. */
export function keepFirstPaint(visitor: boolean): boolean {
  const page = element();
  // the notice alone stays until the runtime's notice is drawn (CookieNotice.tsx: takeServedNotice)
  if (!page || noticeOnly(page)) return false;
  if (!visitor) remove(page);
  return visitor;
}

/** The served notice gives way to the runtime's, drawn in the same frame: removed; says whether its button was pressed meanwhile. */
export function takeServedNotice(): boolean {
  const page = element();
  if (!page || !noticeOnly(page)) return false;
  const accepted = pending?.kind === 'click' && pending.part === 'cookie-notice';
  pending = null;
  remove(page);
  return accepted;
}

/** What the visitor did on the served page: read as it is removed, given to the runtime's page. */
export interface FirstPaintTakeover {
  values: Record<string, unknown>;
  focus: { id: string; caret: [number | null, number | null] | null } | null;
  press: Press | null;
  /** The language chosen in the served page's select (the runtime's page is then drawn again in it). */
  language?: string;
}

/** Removes the served page (start-up failed): nothing of it is taken over. */
export function dropFirstPaint(): void {
  const page = element();
  if (page) remove(page);
}

/**
 * The runtime's page is drawn: the served one goes, and what was entered on it is returned, by
 * field id — the inputs' ids are `<prefix>_<field>` (a radio's choices `<prefix>_<field>-<n>`, as
 * forms/LightForm.tsx draws them); `choices(field)`: a radio field's values by position. Null when
 * there was no served page.
 */
export function takeFirstPaint(
  prefix: string,
  fields: readonly { id: string; widget?: string; upperCase?: boolean }[],
  choices: (fieldId: string) => unknown[],
): FirstPaintTakeover | null {
  const page = element();
  if (!page) return null;
  const values: Record<string, unknown> = {};
  for (const field of fields) {
    const id = `${prefix}_${field.id}`;
    if (field.widget === 'radio') {
      const checked = page.querySelector<HTMLInputElement>(`input[type="radio"][id^="${id}-"]:checked`);
      const index = checked ? Number(checked.id.slice(id.length + 1)) : -1;
      const list = choices(field.id);
      if (index >= 0 && index < list.length) values[field.id] = list[index];
      continue;
    }
    const input = page.querySelector(`#${CSS.escape(id)}`);
    if (input instanceof HTMLInputElement && input.type === 'checkbox') {
      if (input.checked) values[field.id] = true;
    } else if ((input instanceof HTMLInputElement || input instanceof HTMLTextAreaElement) && input.value !== '') {
      values[field.id] = field.upperCase ? input.value.toUpperCase() : input.value;
    }
  }
  const focused = document.activeElement;
  const focus = focused instanceof HTMLElement && page.contains(focused) && focused.id
    ? { id: focused.id, caret: focused instanceof HTMLInputElement && focused.type !== 'radio' && focused.type !== 'checkbox' ? [focused.selectionStart, focused.selectionEnd] as [number | null, number | null] : null }
    : null;
  const press = pending;
  pending = null;
  const language = page.querySelector<HTMLSelectElement>('.login-language select')?.value;
  remove(page);
  return { values, focus, press, language };
}

/** Once the runtime's page shows the values taken over: the focus and caret where they were, then the press the visitor made. */
export function finishTakeover({ focus, press }: FirstPaintTakeover): void {
  if (focus) {
    const next = document.getElementById(focus.id);
    next?.focus();
    if (focus.caret && next instanceof HTMLInputElement && focus.caret[0] !== null) next.setSelectionRange(focus.caret[0], focus.caret[1]);
  }
  if (!press) return;
  const part = press.part ? document.querySelector(`#root > .${CSS.escape(press.part)}`) : null;
  const target = part ? atPath(part, press.path) : undefined;
  if (press.kind === 'submit' && target instanceof HTMLFormElement) target.requestSubmit();
  else if (press.kind === 'click' && target instanceof HTMLElement) target.click();
}
