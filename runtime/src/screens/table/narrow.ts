/**
 * A table on a phone (issue 49): the grid of a dozen columns shows two of them at 390 px, so a
 * table that declares `narrow.lines` shows each row as those few lines instead — the first in
 * bold, the rest small, a value that means nothing alone ("12.05.2027") after its column's header.
 * The lines are built from the same column texts the grid and the export use (cellTextFor).
 */
import type { ColDef } from 'ag-grid-community';
import { useSyncExternalStore } from 'react';
import type { ConditionContext, ConditionEvaluator } from '../../../core/conditions';
import type { ColumnDecl, FilesCellDecl, JsonSchema, TableScreenDecl } from '../../config/bundle';
import { fieldLabelKey } from '../../../core/labels';
import type { Translate } from '../../format';
import { cellTextFor, fieldOf } from './columns';
import { portalPath } from './cells/portal-path';

export const NARROW_QUERY = '(max-width: 575.98px)';

const subscribe = (onChange: () => void) => {
  const list = window.matchMedia(NARROW_QUERY);
  list.addEventListener('change', onChange);
  return () => list.removeEventListener('change', onChange);
};
/**
 * Whether the window is a phone's. The shell's useMediaQuery does the same for any query; the
 * table keeps its own so that the hook stays in the chunks it was in (a module shared by one more
 * lazy chunk becomes a file of its own, which the dashboard's budget felt).
 */
export const useNarrow = (): boolean => useSyncExternalStore(subscribe, () => window.matchMedia(NARROW_QUERY).matches, () => false);
export const NARROW_COLUMN = 'narrow-summary';
/**
 * Room for the declared lines: the grid's infinite row model needs one height for every row. A line
 * with a button (a files column) is a finger's height, 32 px, not a line of text's 21.
 */
export function narrowRowHeight(screen: TableScreenDecl): number {
  const lines = (screen.narrow?.lines ?? []) as LineItem[][];
  const filesColumns = new Set(screen.columns.filter((c) => c.cell?.type === 'files').map((c) => c.id));
  return 14 + lines.reduce((height, line) => height + (line.some((item) => filesColumns.has(typeof item === 'string' ? item : item.id)) ? 32 : 21), 0);
}

type LineItem = string | { id: string; label?: boolean; joined?: boolean };
/**
 * One value of a line: after its header when labelled; joined: after the one before with a space, not " · " (a first name after the last).
 * A files column (the invoices' download) is its button, as in the grid: `files` with the row and its value.
 */
export interface NarrowPart { text: string; label?: string; joined?: boolean; href?: string; files?: { decl: FilesCellDecl; row: Record<string, unknown>; value: unknown } }

/** What a row shows on a phone: its lines, each a list of labelled or bare values (empty ones left out). */
export function narrowLines(screen: TableScreenDecl, entity: JsonSchema | undefined, t: Translate, ev: ConditionEvaluator, ctx: ConditionContext) {
  const lines = (screen.narrow?.lines ?? []) as LineItem[][];
  const byId = new Map(screen.columns.filter((c) => ev.isVisible(c, ctx)).map((c) => [c.id, c] as const));
  const compiled = lines.map((line) => line.map((item) => (typeof item === 'string' ? { id: item } : item))
    .map(({ id, label, joined }) => byId.get(id) && { ...part(byId.get(id)!, label === true), joined: joined === true })
    .filter((p): p is NonNullable<typeof p> => Boolean(p)));
  function part(column: ColumnDecl, labelled: boolean) {
    const field = fieldOf(column);
    const text = cellTextFor(column, entity?.properties?.[field] as JsonSchema | undefined, t);
    const header = t(column.header ?? fieldLabelKey(screen.entity, field));
    // a link column (Dziennik zmian's Rekord) is a link on the phone's line too
    const hrefField = column.cell?.type === 'link' ? column.cell.hrefField : undefined;
    // a files column's value is a count, which means nothing read out: its button is the part
    const files = column.cell?.type === 'files' ? column.cell : undefined;
    return { field, text, header: labelled ? header : undefined, hrefField, files };
  }
  return (row: Record<string, unknown> | undefined): NarrowPart[][] => (row
    ? compiled.map((line) => line.map((p): NarrowPart => {
      if (p.files) return { text: '', label: p.header, files: { decl: p.files, row, value: row[p.field] } };
      const href = p.hrefField ? portalPath(row[p.hrefField]) : null;
      return { text: p.text(row[p.field]), label: p.header, joined: p.joined, ...(href ? { href } : {}) };
    }).filter((p) => p.text !== '' || p.files))
    : []);
}

/** The one column of a table on a phone: the row's lines, the width of the screen. */
export function narrowColumnDef(screen: TableScreenDecl, entity: JsonSchema | undefined, t: Translate, ev: ConditionEvaluator, ctx: ConditionContext): ColDef {
  const lines = narrowLines(screen, entity, t, ev, ctx);
  const first = ((screen.narrow?.lines ?? [])[0] ?? []) as LineItem[];
  const headerName = first.map((item) => (typeof item === 'string' ? item : item.id))
    .map((id) => screen.columns.find((c) => c.id === id)).filter((c): c is ColumnDecl => Boolean(c))
    .map((c) => t(c.header ?? fieldLabelKey(screen.entity, fieldOf(c)))).join(' · ');
  return {
    colId: NARROW_COLUMN,
    headerName,
    flex: 1,
    sortable: false,
    filter: false,
    resizable: false,
    valueGetter: (p) => lines(p.data).map((line) => line.filter((x) => !x.files).map((x) => (x.label ? `${x.label}: ${x.text}` : x.text)).join(' · ')).filter(Boolean).join('\n'),
    cellRenderer: 'narrowRow',
    cellRendererParams: { lines },
    cellClass: 'narrow-row-cell',
  };
}
