/**
 * Exports of a table screen (spec §7), from what the grid shows right now: the displayed columns in
 * their order with their headers as shown, and the current filter (with the preset filter) and
 * sort translated to entity fields exactly as the datasource translates them (`rowParamsOf`).
 *
 * - xlsx: the server builds the file (POST /<resource>/excel/prepare) and answers a one-time link.
 *   The browser follows it through a programmatic `<a download>` click rather than window.open: the
 *   prepare call is awaited, so a window opened afterwards is no longer the user's own gesture and
 *   popup blockers may swallow it, while a download link is never blocked and keeps the portal open.
 *   The link needs no bearer header (the token in it is the credential).
 * - csv: for a resource without an export endpoint the browser reads the rows through /table2
 *   itself, in blocks, formats every cell as the grid does and saves a ;-separated file.
 * Both refuse more rows than the configured limit with the same Polish message.
 */
import type { Column, GridApi } from 'ag-grid-community';
import { EXPORT_BLOCK_ROWS, EXPORT_MAX_ROWS } from '../../../core/export-limits';
import { api } from '../../api/client';
import type { ColumnDecl, JsonSchema, TableScreenDecl } from '../../config/bundle';
import { formatDate, type Translate } from '../../format';
import { cellTextFor, exportColumnOf, type ExportColumnSpec } from './columns';
import { csvDocument } from './csv';
import { rowParamsOf, type TablePage, type TableQuery } from './datasource';

/** A refusal the browser decides itself (the CSV over the limit); its message is shown as it is. */
export class ExportRefused extends Error {}

interface ShownColumn {
  column: ColumnDecl;
  property: JsonSchema | undefined;
  header: string;
}

/** The columns the grid displays now, left to right (pinned ones where they are shown), with their declarations. */
export function shownColumns(gridApi: GridApi, screen: TableScreenDecl, entity: JsonSchema | undefined): ShownColumn[] {
  const byId = new Map(screen.columns.map((c) => [c.id, c]));
  return gridApi.getAllDisplayedColumns().flatMap((col: Column) => {
    const column = byId.get(col.getColId());
    if (!column) return [];
    return [{ column, property: entity?.properties?.[column.field ?? column.id] as JsonSchema | undefined, header: gridApi.getDisplayNameForColumn(col, 'header') }];
  });
}

/** The grid's sort as the datasource receives it: sorted columns in the order the user chose them. */
export function sortModelOf(gridApi: GridApi): { colId: string; sort: 'asc' | 'desc' }[] {
  return gridApi
    .getColumnState()
    .filter((s) => s.sort === 'asc' || s.sort === 'desc')
    .sort((a, b) => (a.sortIndex ?? 0) - (b.sortIndex ?? 0))
    .map((s) => ({ colId: s.colId, sort: s.sort as 'asc' | 'desc' }));
}

/** rowParams of the whole current list (spec §9: up to 20 000 rows). */
export function exportRowParams(gridApi: GridApi, query: TableQuery) {
  const { srcId, ...rest } = query;
  return rowParamsOf({ startRow: 0, endRow: EXPORT_MAX_ROWS, sortModel: sortModelOf(gridApi), filterModel: gridApi.getFilterModel() }, srcId, rest);
}

/** The body of POST /<resource>/excel/prepare (schemas/api/excel-export-request.schema.json). */
export function excelRequest(columns: readonly ExportColumnSpec[], rowParams: ReturnType<typeof rowParamsOf>) {
  return {
    fieldNames: columns.map((c) => c.field),
    columnNames: columns.map((c) => c.header),
    columnFormats: columns.map((c) => c.format),
    valueLabels: columns.map((c) => c.labels),
    rowParams,
  };
}

/** Saves a URL (a download link, or an object URL) as a file without leaving the page. */
export function saveLink(href: string, filename = '') {
  const a = document.createElement('a');
  a.href = href;
  a.download = filename; // empty: the server's Content-Disposition names the file
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
}

export async function exportExcel(resource: string, shown: readonly ShownColumn[], rowParams: ReturnType<typeof rowParamsOf>, t: Translate) {
  const columns = shown.map((s) => exportColumnOf(s.column, s.property, s.header, t));
  const { data } = await api.post<{ data: string }>(`/${resource}/excel/prepare`, excelRequest(columns, rowParams), { reads: true });
  saveLink(data);
}

/** "<title> <the day by the reader's pattern>.csv"; a slash, which no file name may hold, as a hyphen (04-12-2026). */
export const csvFileName = (title: string, now = new Date()) => `${title} ${formatDate(now)?.replaceAll('/', '-')}.csv`;

export async function exportCsv(
  resource: string,
  shown: readonly ShownColumn[],
  rowParams: ReturnType<typeof rowParamsOf>,
  options: { limit: number; title: string; t: Translate },
) {
  const { limit, t } = options;
  const { count, estimated } = await api.post<{ count: number; estimated?: boolean }>(`/${resource}/table-count`, rowParams, { reads: true });
  if (estimated || count > limit) throw new ExportRefused(t('errors:excel.dataSizeLimit', { limit }));
  const columns = shown.map((s) => ({ field: s.column.field ?? s.column.id, text: cellTextFor(s.column, s.property, t) }));
  const records: string[][] = [];
  // at most `limit` rows, even if rows were added since the count
  for (let start = 0; start < limit; start += EXPORT_BLOCK_ROWS) {
    const end = Math.min(start + EXPORT_BLOCK_ROWS, limit);
    const page = await api.post<TablePage>(`/${resource}/table2`, { ...rowParams, startRow: start, endRow: end }, { reads: true });
    for (const row of page.rows) records.push(columns.map((c) => c.text(row[c.field])));
    if (page.rows.length < end - start) break;
  }
  const blob = new Blob([csvDocument(shown.map((s) => s.header), records)], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  try {
    saveLink(url, csvFileName(options.title));
  } finally {
    // some browsers read the blob only after the click returns; free it once it has surely been read
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  }
}
