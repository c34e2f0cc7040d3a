/**
 * Edits of whole documents that the tabs make with forms (each tab edits a copy of the effective
 * document and sends it whole: PUT /documents). Pure functions, tested beside.
 */

/** A copy of a JSON document. */
export const copyOf = <T>(doc: T): T => (doc === undefined ? doc : JSON.parse(JSON.stringify(doc)));

/** The array with item i moved by delta (−1 up, +1 down); the same array when it cannot move. */
export function moved<T>(items: T[], i: number, delta: number): T[] {
  const j = i + delta;
  if (i < 0 || i >= items.length || j < 0 || j >= items.length) return items;
  const next = [...items];
  const [item] = next.splice(i, 1);
  next.splice(j, 0, item);
  return next;
}

/* ---- tables ---- */

/** Shows or hides a column by default (`hide`: the user may still show it). */
export function setColumnHidden(table: any, i: number, hidden: boolean): void {
  const column = table.columns?.[i];
  if (!column) return;
  if (hidden) column.hide = true;
  else delete column.hide;
}

/** The column's initial width in pixels; null takes the runtime's own. */
export function setColumnWidth(table: any, i: number, width: number | null): void {
  const column = table.columns?.[i];
  if (!column) return;
  if (width === null) delete column.width;
  else column.width = width;
}

/** Keeps the column out of the table's export (`exported: false`) or lets it in again (the default). */
export function setColumnExported(table: any, i: number, exported: boolean): void {
  const column = table.columns?.[i];
  if (!column) return;
  if (exported) delete column.exported;
  else column.exported = false;
}

export function moveColumn(table: any, i: number, delta: number): void {
  table.columns = moved(table.columns ?? [], i, delta);
}

/* ---- menu ---- */

export interface NewMenuEntry {
  groupId: string;
  id: string;
  route: string;
  icon?: string;
  /** The label's key (custom:menu.<id>). */
  label: string;
}

/** Ids a new menu entry may not take: every entry's of every group (the runtime keys entries by id). */
export function menuIds(menu: any): Set<string> {
  return new Set((menu.groups ?? []).flatMap((g: any) => (g.items ?? []).map((it: any) => it.id)));
}

export function addMenuEntry(menu: any, entry: NewMenuEntry): void {
  const group = (menu.groups ?? []).find((g: any) => g.id === entry.groupId);
  if (!group) return;
  const item: Record<string, unknown> = { id: entry.id, route: entry.route, label: entry.label };
  if (entry.icon) item.icon = entry.icon;
  group.items = [...(group.items ?? []), item];
}

export function removeMenuEntry(menu: any, groupIndex: number, itemIndex: number): void {
  const group = menu.groups?.[groupIndex];
  if (!group) return;
  group.items = group.items.filter((_: unknown, i: number) => i !== itemIndex);
}

export function moveMenuEntry(menu: any, groupIndex: number, itemIndex: number, delta: number): void {
  const group = menu.groups?.[groupIndex];
  if (!group) return;
  group.items = moved(group.items ?? [], itemIndex, delta);
}

/** Routes a menu entry may open: pages of a signed-in user (no public, redirect or sign-out route). */
export function menuRoutes(routes: any): { path: string; title?: string; id: string }[] {
  return (routes?.routes ?? [])
    .filter((r: any) => !r.public && !r.redirect && !r.action && (r.screen || r.screens))
    .map((r: any) => ({ path: r.path, title: r.title, id: r.id }));
}

/* ---- reminders ---- */

export type Threshold = 'urgent' | 'soon';

export function setThreshold(reminders: any, i: number, which: Threshold, value: number): void {
  const rule = reminders.rules?.[i];
  if (rule) rule.thresholds = { ...rule.thresholds, [which]: value };
}

export function setAfterDays(reminders: any, i: number, value: number | null): void {
  const due = reminders.rules?.[i]?.due;
  if (!due || due.kind !== 'date') return;
  if (value === null) delete due.afterDays;
  else due.afterDays = value;
}

/** Reads a whole number from an input: null when empty, NaN when not a whole number. */
export function wholeNumber(text: string): number | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  return /^-?\d+$/.test(trimmed) ? Number(trimmed) : Number.NaN;
}
