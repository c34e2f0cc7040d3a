/**
 * The infinite row model's datasource: each block is one POST /api/<resource>/table2 with the
 * grid's own sort and filter models (the server translates them to SQL). The first block of every
 * new query also asks /table-count, so the count shown always matches the current filter.
 *
 * The grid names columns by column id; the server knows entity fields. A column may show another
 * field than its id (`field`), so sort and filter models are translated to fields here; a preset
 * filter (Aktualne / Archiwalne / Wszystkie) is added on top of the user's column filters, and an
 * embedded table sends its parent as srcId (and group).
 */
import type { IDatasource, IGetRowsParams } from 'ag-grid-community';
import { api, ApiError, errorText } from '../../api/client';
import { showToast } from '../../state/ui';

export interface TablePage {
  rows: Record<string, unknown>[];
  lastRow: number;
}

/** What a table adds to the grid's own request: the parent, the preset filter, field names. */
export interface TableQuery {
  srcId?: unknown;
  group?: string;
  /** Column id → entity field, for columns whose field differs from their id. */
  fields?: ReadonlyMap<string, string>;
  /** Filter model (by field) of the chosen preset; applied together with the column filters. */
  presetFilter?: Record<string, unknown>;
}

type GridRequest = Pick<IGetRowsParams, 'startRow' | 'endRow' | 'sortModel' | 'filterModel'>;

export function rowParamsOf(params: GridRequest, srcId: unknown, query: Omit<TableQuery, 'srcId'> = {}) {
  const field = (colId: string) => query.fields?.get(colId) ?? colId;
  const filterModel: Record<string, unknown> = {};
  for (const [colId, model] of Object.entries((params.filterModel ?? {}) as Record<string, unknown>)) filterModel[field(colId)] = model;
  Object.assign(filterModel, query.presetFilter ?? {});
  return {
    startRow: params.startRow,
    endRow: params.endRow,
    sortModel: (params.sortModel ?? []).map((s) => ({ ...s, colId: field(s.colId) })),
    filterModel,
    ...(srcId !== undefined && srcId !== null ? { srcId } : {}),
    ...(query.group ? { group: query.group } : {}),
  };
}

/** Client errors (4xx) are the caller's to show; the API client already showed 5xx and no-connection ones. */
function reportFailure(error: unknown) {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) showToast('error', errorText(error));
}

export function makeDatasource(resource: string, query: TableQuery, onCount: (count: number | null) => void): IDatasource {
  const { srcId, ...rest } = query;
  return {
    getRows(params) {
      const rowParams = rowParamsOf(params, srcId, rest);
      if (params.startRow === 0) {
        onCount(null);
        api
          .post<{ count: number }>(`/${resource}/table-count`, rowParams)
          .then((r) => onCount(r.count))
          .catch(() => onCount(null));
      }
      api
        .post<TablePage>(`/${resource}/table2`, rowParams)
        .then((page) => params.successCallback(page.rows, page.lastRow >= 0 ? page.lastRow : undefined))
        .catch((error) => {
          reportFailure(error);
          params.failCallback();
        });
    },
  };
}
