/**
 * The infinite row model's datasource: each block is one POST /api/<resource>/table2 with the
 * grid's own sort and filter models (the server translates them to SQL). The first block of every
 * new query also asks /table-count, so the count shown always matches the current filter.
 */
import type { IDatasource, IGetRowsParams } from 'ag-grid-community';
import { api, ApiError, errorText } from '../../api/client';
import { showToast } from '../../state/ui';

export interface TablePage {
  rows: Record<string, unknown>[];
  lastRow: number;
}

export function rowParamsOf(params: Pick<IGetRowsParams, 'startRow' | 'endRow' | 'sortModel' | 'filterModel'>, srcId: unknown) {
  return {
    startRow: params.startRow,
    endRow: params.endRow,
    sortModel: params.sortModel,
    filterModel: params.filterModel,
    ...(srcId !== undefined && srcId !== null ? { srcId } : {}),
  };
}

/** Client errors (4xx) are the caller's to show; the API client already showed 5xx and no-connection ones. */
function reportFailure(error: unknown) {
  if (error instanceof ApiError && error.status >= 400 && error.status < 500 && error.status !== 401) showToast('error', errorText(error));
}

export function makeDatasource(resource: string, srcId: unknown, onCount: (count: number | null) => void): IDatasource {
  return {
    getRows(params) {
      const rowParams = rowParamsOf(params, srcId);
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
