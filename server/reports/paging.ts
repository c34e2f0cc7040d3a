/**
 * A report's run a page at a time (issue 46, docs/decisions.md "A report a page at a time"): the
 * report's grouped rows are a materialized CTE `g`; one statement answers the totals over all of
 * them and their count, the page asked for in the order asked for (a column, ascending or
 * descending, then the grouping's keys, so rows that tie keep one order and pages neither overlap
 * nor skip), and — for the chart — the first rows by the chart's measure. Only those rows leave
 * the database.
 */

/** A page of a report's rows: `limit` null is every row (a sort without a page). */
export interface Paging {
  offset: number;
  limit: number | null;
  sort?: { column: string; direction: 'asc' | 'desc' };
  /** The chart's rows: this many, the largest by the report's chart measure first. */
  top?: number;
}

/** The part of the answer a row of the paged statement belongs to. */
export type Part = 'page' | 'top';

/**
 * The statement after `with …, g as materialized (<grouped rows>)`: every row carries the totals
 * (`totals`: expressions over g with their names) and `rowCount`; a row of the page or of the
 * chart's top has `part` set. No row of either: one row with the totals and `part` null.
 */
export function pagedSelect(o: { totals: string[]; order: string | null; keys: string[]; page: Paging; top?: string }): string {
  const { page } = o;
  const ties = o.keys.map((k) => `g."${k}" nulls last`).join(', ');
  // each part numbers its rows in its order, and the answer is ordered by them (a union keeps no order of its own)
  const part = (name: Part, order: string, limit: number | null, offset: number) =>
    `(select '${name}' as "part", row_number() over (order by ${order}) as "pageRow", g.* from g order by ${order} ${limit === null ? '' : `limit ${limit}`} offset ${offset})`;
  const parts = [part('page', o.order ? `${o.order}, ${ties}` : ties, page.limit, page.offset)];
  if (page.top && o.top) parts.push(part('top', `${o.top} desc nulls last, ${ties}`, page.top, 0));
  return `select t.*, x.* from (select count(*) as "rowCount"${o.totals.map((e) => `, ${e}`).join('')} from g) t
    left join (${parts.join(' union all ')}) x on true
    order by x."part", x."pageRow"`;
}

/** A CASE giving a key's label (the translated text the rows show), for an order by what is shown. */
export function labelCase(column: string, labels: [string, string][]): string {
  const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
  if (!labels.length) return `${column}::text`;
  return `(case ${column}::text ${labels.map(([k, l]) => `when ${lit(k)} then ${lit(l)}`).join(' ')} else ${column}::text end)`;
}
