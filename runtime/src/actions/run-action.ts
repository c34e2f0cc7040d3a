/**
 * What a configured action does (schemas/meta/common.schema.json `$defs/action`: a table's
 * `onRowClick`, the buttons of an actions panel): one function per `kind`, so a screen never
 * switches on kinds itself. An action may name fields of the row it runs on: `{id}` in `to`,
 * `idField` for the id a dialog opens with. No React here; the screen hands in its effects.
 */
export interface ActionDeclLike {
  kind: string;
  to?: string;
  screen?: string;
  idField?: string;
  /** openDialog: the mode a form-dialog opens in (create, edit, preview, copy). */
  mode?: string;
  /** openDialog: a button of the dialog pressed as it opens (e.g. delete, which asks first). */
  then?: string;
  /** openDialog: values the dialog starts with (a wizard's data, e.g. the order type chosen). */
  values?: Record<string, unknown>;
}

/** What a dialog is opened with besides its id: the row it is about, its mode, a button to press. */
export interface DialogOpening {
  record?: Record<string, unknown>;
  mode?: string;
  then?: string;
  /** Values the dialog starts with (a wizard's dot paths → values). */
  values?: Record<string, unknown>;
}

/** What a screen lets an action do. */
export interface ActionEffects {
  navigate(path: string): void;
  openDialog(screen: string, id?: unknown, opening?: DialogOpening): void;
}

type Row = Record<string, unknown> | null | undefined;

/** `/app/vehicle/{pojazdId}` with the row's values, each URL-encoded. */
export const fillPath = (path: string, row: Row) =>
  row ? path.replace(/\{(\w+)\}/g, (_, f: string) => encodeURIComponent(String(row[f] ?? ''))) : path;

export const ACTION_KINDS: Record<string, (action: ActionDeclLike, row: Row, effects: ActionEffects) => void> = {
  navigate: (action, row, effects) => {
    if (action.to) effects.navigate(fillPath(action.to, row));
  },
  openDialog: (action, row, effects) => {
    if (!action.screen) return;
    const id = row ? row[action.idField ?? 'id'] : undefined;
    // a dialog with a mode is a record's form: it starts from the row (edit, copy, preview)
    if (action.mode) effects.openDialog(action.screen, id, { record: row ?? undefined, mode: action.mode, then: action.then });
    else if (action.values) effects.openDialog(action.screen, id, { values: action.values });
    else effects.openDialog(action.screen, id);
  },
};

export function runAction(action: ActionDeclLike, row: Row, effects: ActionEffects): void {
  if (!Object.hasOwn(ACTION_KINDS, action.kind)) throw new Error(`no action kind "${action.kind}" in runtime/src/actions/run-action.ts`);
  ACTION_KINDS[action.kind](action, row, effects);
}
