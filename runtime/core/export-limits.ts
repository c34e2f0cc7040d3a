/**
 * Limits of table exports (spec §8, §9), shared by the server (Excel) and the runtime (CSV), so
 * both refuse the same amount of data with the same message.
 */

/** Spec §9: an export asks for at most this many rows (rowParams.endRow 20000). */
export const EXPORT_MAX_ROWS = 20_000;

/** Spec §8: the item limit when screens/app.json (config.excelExportLimit) names none. */
export const DEFAULT_EXPORT_LIMIT = 2000;

/** The spec's machine value of the over-limit answer; the Polish text is errors:excel.dataSizeLimit. */
export const EXPORT_LIMIT_CODE = 'document.excel.dataSizeLimit';

/** The configured limit (a client variant may change it), or the default. */
export function exportLimitOf(config: Record<string, unknown> | undefined): number {
  const limit = config?.excelExportLimit;
  return typeof limit === 'number' && Number.isInteger(limit) && limit > 0 ? limit : DEFAULT_EXPORT_LIMIT;
}

/** Rows per request when the browser reads a CSV export through /table2 (the server allows 1000). */
export const EXPORT_BLOCK_ROWS = 1000;
