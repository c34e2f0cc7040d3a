/**
 * What a configured action does (schemas/meta/common.schema.json `$defs/action`: a table's
 * `onRowClick`, the buttons of an actions panel): one function per `kind`, so a screen never
 * switches on kinds itself. An action may name fields of the row it runs on: `{id}` in `to`,
 * `idField` for the id a dialog opens with, `tab` for the tab a details dialog opens on. No React here; the screen hands in its effects.
 * `call` (an endpoint, Tak/Nie, toast, reload) lives in ./call-action.ts, which registers it here; `choose` runs the first
 * of its cases whose condition the row satisfies (a damage row opens another dialog than an order row).
 */
import type { CallDeclLike, CallEffects } from './call-types';

export interface ActionDeclLike extends CallDeclLike {
  kind: string;
  to?: string;
  screen?: string;
  idField?: string;
  /** openDialog: the mode a form-dialog opens in (create, edit, preview, copy). */
  mode?: string;
  /** openDialog: a button of the dialog pressed as it opens (e.g. delete, which asks first). */
  then?: string;
  /** openDialog: the tab a details dialog opens on. */
  tab?: string;
  /** choose: the cases, tried in order; none matching does nothing. */
  cases?: { when: unknown; action: ActionDeclLike }[];
  /** openDialog: values the dialog starts with (a wizard's data, e.g. the order type chosen). */
  values?: Record<string, unknown>;
}

/** What the table that opened a dialog knows of its place: the parent record's id (embedded) and its group. */
export interface DialogOpener {
  srcId?: unknown;
  group?: string;
}

/** What a dialog is opened with besides its id: the row it is about, its mode, a button to press, its opener. */
export interface DialogOpening {
  record?: Record<string, unknown>;
  mode?: string;
  then?: string;
  /** The record of the screen that opened the dialog (the order of a position): `parent` in its conditions. */
  parent?: Record<string, unknown>;
  opener?: DialogOpener;
  /** Values the dialog starts with (a wizard's dot paths → values). */
  values?: Record<string, unknown>;
  /** The tab a details dialog opens on (its id; a hidden or disabled one falls back to the first). */
  tab?: string;
}

/** What a screen lets an action do. */
export interface ActionEffects {
  navigate(path: string): void;
  openDialog(screen: string, id?: unknown, opening?: DialogOpening): void;
  /** choose: whether the row satisfies a condition (the screen's context with record = the row). */
  matches?(condition: unknown, row: Row): boolean;
  /** call: the confirmation, request, toast and reload of the screen (actions/useCallEffects.tsx). */
  call?: CallEffects;
}

type Row = Record<string, unknown> | null | undefined;

/** `/app/vehicle/{pojazdId}` with the row's values, each URL-encoded. */
export const fillPath = (path: string, row: Row) =>
  row ? path.replace(/\{(\w+)\}/g, (_, f: string) => encodeURIComponent(String(row[f] ?? ''))) : path;

export const ACTION_KINDS: Record<string, (action: ActionDeclLike, row: Row, effects: ActionEffects) => void | Promise<unknown>> = {
  navigate: (action, row, effects) => {
    if (action.to) effects.navigate(fillPath(action.to, row));
  },
  openDialog: (action, row, effects) => {
    if (!action.screen) return;
    const id = row ? row[action.idField ?? 'id'] : undefined;
    const tab = action.tab ? { tab: action.tab } : {};
    // a dialog with a mode is a record's form: it starts from the row (edit, copy, preview); a
    // details dialog without a load endpoint shows the row itself
    if (action.mode) effects.openDialog(action.screen, id, { record: row ?? undefined, mode: action.mode, then: action.then, ...tab });
    else if (action.values) effects.openDialog(action.screen, id, { values: action.values, ...(row ? { record: row } : {}), ...tab });
    else effects.openDialog(action.screen, id, row || action.tab ? { ...(row ? { record: row } : {}), ...tab } : undefined);
  },
  // call: registered by ./call-action.ts, which every screen that offers calls loads (through
  // useCallEffects), so that a table's code does not carry it
  call: () => {
    throw new Error('this screen offers no "call" actions (it passes no call effects to runAction)');
  },
  choose: (action, row, effects) => {
    if (!effects.matches) throw new Error('this screen offers no "choose" actions (it passes no matches effect to runAction)');
    const chosen = action.cases?.find((c) => effects.matches!(c.when, row));
    return chosen ? runAction(chosen.action, row, effects) : undefined;
  },
};

/** Runs the action; a `call` answers a promise of its outcome (cancelled, done, failed). */
export function runAction(action: ActionDeclLike, row: Row, effects: ActionEffects): void | Promise<unknown> {
  if (!Object.hasOwn(ACTION_KINDS, action.kind)) throw new Error(`no action kind "${action.kind}" in runtime/src/actions/run-action.ts`);
  return ACTION_KINDS[action.kind](action, row, effects);
}
