/**
 * The infinite row model's datasource: each block is one POST /api/<resource>/table2 with the
 * grid's own sort and filter models (the server translates them to SQL). The first block of every
 * new query also answers the query's count, so the count shown always matches the current filter.
 *
 * Deep blocks stay fast because each answer carries a cursor for its last row: the datasource
 * remembers them for the current query and sends the one that ends where the requested block
 * starts (the server then reads by keyset instead of skipping rows). For a block with no known
 * predecessor (a jump) it sends the latest cursor of the query; the count it carries lets the
 * server read a block near the end from the end. Cursors are opaque; the server ignores one that
 * does not fit.
 *
 * The grid names columns by column id; the server knows entity fields. A column may show another
 * field than its id (`field`), so sort and filter models are translated to fields here; a preset
 * filter (Aktualne / Archiwalne / Wszystkie) is added on top of the user's column filters, and an
 * embedded table sends its parent as srcId (and group).
 */
import type { IDatasource, IGetRowsParams } from 'ag-grid-community';
import type { TablePage } from '../../../core/generated/api';
import { api, ApiError, errorText } from '../../api/client';
import { showToast } from '../../state/ui';

/** A block as /table2 answers it (schemas/api/table-page.schema.json). */
export type { TablePage };

/** A query's row count; `estimated` when it is the database's estimate (beyond the configured cap). */
export interface RowCount {
  count: number;
  estimated: boolean;
}

/** What a table adds to the grid's own request: the parent, the preset filter, field names. */
export interface TableQuery {
  srcId?: unknown;
  group?: string;
  /** Column id → entity field, for columns whose field differs from their id. */
  fields?: ReadonlyMap<string, string>;
  /** Column id → the entity field its filter applies to, where it is not the field it shows (an options filter's `field`). */
  filterFields?: ReadonlyMap<string, string>;
  /** Filter model (by field) of the chosen preset; applied together with the column filters. */
  presetFilter?: Record<string, unknown>;
  /**
   * The wide table's own filter and sort (by column id) while a phone shows the rows as lines in one
   * column that has neither (narrow.ts): the rows, the count and the export stay those the user chose.
   */
  carried?: { filterModel?: Record<string, unknown>; sortModel?: IGetRowsParams['sortModel'] };
}

type GridRequest = Pick<IGetRowsParams, 'startRow' | 'endRow' | 'sortModel' | 'filterModel'>;

export function rowParamsOf(params: GridRequest, srcId: unknown, query: Omit<TableQuery, 'srcId'> = {}) {
  const field = (colId: string) => query.fields?.get(colId) ?? colId;
  const filterModel: Record<string, unknown> = {};
  const gridFilter = (params.filterModel ?? {}) as Record<string, unknown>;
  const columnFilter = Object.keys(gridFilter).length ? gridFilter : query.carried?.filterModel ?? {};
  for (const [colId, model] of Object.entries(columnFilter)) filterModel[query.filterFields?.get(colId) ?? field(colId)] = model;
  Object.assign(filterModel, query.presetFilter ?? {});
  const sortModel = params.sortModel?.length ? params.sortModel : query.carried?.sortModel ?? [];
  return {
    startRow: params.startRow,
    endRow: params.endRow,
    sortModel: sortModel.map((s) => ({ ...s, colId: field(s.colId) })),
    filterModel,
    ...(srcId !== undefined && srcId !== null ? { srcId } : {}),
    ...(query.group ? { group: query.group } : {}),
  };
}

/** Client errors (4xx) are the caller's to show; the API client already showed 5xx and no-connection ones. */
function reportFailure(error: unknown) {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) showToast('error', errorText(error));
}

/** How many cursors one query keeps (a long scroll would otherwise collect one per block). */
const MAX_CURSORS = 200;

/** The cursors the server answered for one query, by the row they continue at. */
export class CursorMemory {
  private query: string | undefined;
  private readonly byStart = new Map<number, string>();
  private latest: string | undefined;

  /** The cursor to send with a block of `query` starting at `startRow`; the first block starts the query afresh. */
  forBlock(query: string, startRow: number): string | undefined {
    if (startRow === 0 || query !== this.query) {
      this.query = query;
      this.byStart.clear();
      this.latest = undefined;
      return undefined;
    }
    return this.byStart.get(startRow) ?? this.latest;
  }

  /** Keeps the cursor a block of `query` ending at `endRow` answered (ignored when the query has changed since). */
  remember(query: string, endRow: number, cursor: string): void {
    if (query !== this.query) return;
    this.byStart.delete(endRow);
    this.byStart.set(endRow, cursor);
    if (this.byStart.size > MAX_CURSORS) this.byStart.delete(this.byStart.keys().next().value!);
    this.latest = cursor;
  }
}

/**
 * The grid's datasource. `onCount(null)`: a new query's first block is on its way (the screen keeps
 * showing the last count, marked as loading); `onFailed`: a block could not be read.
 */
export function makeDatasource(resource: string, query: TableQuery, onCount: (count: RowCount | null) => void, onFailed?: () => void): IDatasource {
  const { srcId, ...rest } = query;
  const cursors = new CursorMemory();
  return {
    getRows(params) {
      const rowParams = rowParamsOf(params, srcId, rest);
      // The query without the block: what the cursors belong to.
      const queryKey = JSON.stringify({ ...rowParams, startRow: undefined, endRow: undefined });
      const cursor = cursors.forBlock(queryKey, params.startRow);
      if (params.startRow === 0) onCount(null);
      api
        .post<TablePage>(`/${resource}/table2`, cursor ? { ...rowParams, cursor } : rowParams, { reads: true })
        .then((page) => {
          if (page.cursor) cursors.remember(queryKey, params.endRow, page.cursor);
          if (params.startRow === 0) {
            // a short first block has no count: its lastRow is the exact count
            if (page.count !== undefined) onCount({ count: page.count, estimated: page.estimated === true });
            else if (page.lastRow >= 0) onCount({ count: page.lastRow, estimated: false });
          }
          params.successCallback(page.rows, page.lastRow >= 0 ? page.lastRow : undefined);
        })
        .catch((error) => {
          reportFailure(error);
          onFailed?.();
          params.failCallback();
        });
    },
  };
}

/** An estimate reads as one: two significant digits (1 003 412 → 1 000 000, 48 765 → 49 000). */
export function roundEstimate(count: number): number {
  if (count < 100) return count;
  const unit = 10 ** (Math.floor(Math.log10(count)) - 1);
  return Math.round(count / unit) * unit;
}
