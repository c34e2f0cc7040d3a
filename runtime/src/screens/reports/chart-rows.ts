/** A report's answer (POST /api/reports/{id}/run) as Raporty draws it, and which of its rows the chart shows. */

export interface Column { id: string; label: string; kind: 'dimension' | 'measure' | 'range'; format?: string }
export type Row = { keys: Record<string, string | number | null>; values: Record<string, string | number | null> };
export interface Result { columns: Column[]; rows: Row[]; totals: Record<string, number | null>; rowCount: number; top?: Row[] }

/**
 * What the chart draws: every row when all are on the page, in the report's own order (by its
 * grouping's keys, as the server sends an unsorted page: months from the first, not by whatever
 * column the reader sorted the table by); else, grouped by one dimension, the largest rows by the
 * chart's measure and one bar for the others — the rest of the total, or for a ratio (cost per km)
 * the ratio of all rows, which the rest's own cannot be told from.
 */
export function chartRows(result: Result, measure: Column, restLabel: (count: number) => string, allLabel: (count: number) => string): { rows: Row[]; topOnly: boolean } {
  const dims = result.columns.filter((c) => c.kind === 'dimension');
  if (result.rowCount <= result.rows.length || !result.top || dims.length !== 1) return { rows: inKeyOrder(result.rows, dims), topOnly: false };
  const top = result.top;
  const total = result.totals[measure.id];
  const others = result.rowCount - top.length;
  if (others <= 0 || total === null || total === undefined) return { rows: top, topOnly: true };
  const ratio = measure.format === 'ratio';
  const value = ratio ? total : Math.round((total - top.reduce((s, r) => s + Number(r.values[measure.id] ?? 0), 0)) * 100) / 100;
  const label = ratio ? allLabel(result.rowCount) : restLabel(others);
  return { rows: [...top, { keys: {}, values: { [dims[0].id]: label, [measure.id]: value } }], topOnly: true };
}

/** The rows by their grouping's keys, dimension after dimension, an empty key last (the server's `nulls last`). */
function inKeyOrder(rows: Row[], dims: Column[]): Row[] {
  const compare = (a: string | number | null | undefined, b: string | number | null | undefined): number => {
    if (a === b) return 0;
    if (a === null || a === undefined) return 1;
    if (b === null || b === undefined) return -1;
    // a key the database sent as text may be a number (a bigint id): compared as one, 9 before 10
    const numeric = (v: string | number) => typeof v === 'number' || /^-?\d+(\.\d+)?$/.test(v);
    if (numeric(a) && numeric(b)) return Number(a) - Number(b);
    return String(a) < String(b) ? -1 : 1;
  };
  return [...rows].sort((x, y) => {
    for (const d of dims) {
      const order = compare(x.keys[d.id], y.keys[d.id]);
      if (order !== 0) return order;
    }
    return 0;
  });
}
