/**
 * A table's address may carry a filter: `/app/order?filter=<URL-encoded JSON filter model>` (a
 * reminder tile of the Pulpit links to the orders waiting for acceptance this way). The model is
 * the server's (schemas/api/row-params filterModel: entity field → ag-grid filter entry). Writing
 * such an address and reading it back are here; where each entry goes in the grid is the table's
 * (screens/table/url-filter.ts). Pure: no React, no DOM.
 */

/** One entry of a filter model: ag-grid's text, number or date filter, or the choice filter's set. */
export interface FilterEntry {
  filterType: string;
  [key: string]: unknown;
}

export type FilterModel = Record<string, FilterEntry>;

/** The query parameter that carries the filter. */
export const FILTER_PARAM = 'filter';

/**
 * The query parameter that names one record of the table to open (`?open=123`, routing/open-param.ts);
 * kept here, beside the filter, so that the table's chunk does not carry the code that finds the record.
 */
export const OPEN_PARAM = 'open';

const FIELD = /^[A-Za-z_][A-Za-z0-9_]*$/;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The filter model of the parameter's value (already URL-decoded by URLSearchParams), or null. A
 * malformed value (not JSON, not an object) is ignored, and so is each entry that is not a filter
 * (a field that is not a name, no filterType).
 */
export function parseUrlFilter(value: string | null | undefined): FilterModel | null {
  if (!value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (!isObject(parsed)) return null;
  const model: FilterModel = {};
  for (const [field, entry] of Object.entries(parsed)) {
    if (FIELD.test(field) && isObject(entry) && typeof entry.filterType === 'string' && entry.filterType) model[field] = entry as FilterEntry;
  }
  return Object.keys(model).length ? model : null;
}

/** The address of a table with this filter: `/app/order?filter=%7B...%7D`. */
export function urlWithFilter(route: string, model: Record<string, unknown> | null | undefined): string {
  if (!model || !Object.keys(model).length) return route;
  return `${route}${route.includes('?') ? '&' : '?'}${FILTER_PARAM}=${encodeURIComponent(JSON.stringify(model))}`;
}
