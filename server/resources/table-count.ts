/**
 * Row counts of a table query (DESIGN.md §3: "a count is exact up to a cap and a planner estimate
 * beyond it"). Counting every row of a million-row query would cost as much as reading it, so the
 * exact count stops at `cap + 1` rows (its cost is bounded by the cap, an index-only scan where an
 * index covers scope and filter); beyond the cap the answer is the planner's estimate for the same
 * scoped, filtered query (EXPLAIN, which PGlite answers too), marked `estimated`.
 */
import { CompiledQuery, sql, type Kysely } from 'kysely';
import type { ConfiguredSelect, ConfiguredTables } from '../db/configured-tables.ts';

export interface RowCount {
  count: number;
  estimated: boolean;
}

/** `base`: FROM the view, WHERE scope and filter; nothing selected. */
export async function countRows(db: Kysely<ConfiguredTables>, base: ConfiguredSelect, cap: number): Promise<RowCount> {
  const capped = base.select(sql`1`.as('one')).limit(cap + 1);
  const row = await db.selectFrom(capped.as('capped')).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
  const exact = Number(row.n);
  if (exact <= cap) return { count: exact, estimated: false };
  // The estimate can be below what was just counted (stale statistics); never answer less than that.
  return { count: Math.max(cap + 1, await plannerEstimate(db, base)), estimated: true };
}

/** The planner's row estimate for the query, from `EXPLAIN (FORMAT JSON)`; parameters stay bound. */
export async function plannerEstimate(db: Kysely<ConfiguredTables>, base: ConfiguredSelect): Promise<number> {
  const query = base.select(sql`1`.as('one')).compile();
  const result = await db.executeQuery<Record<string, unknown>>(CompiledQuery.raw(`explain (format json) ${query.sql}`, [...query.parameters]));
  const cell = Object.values(result.rows[0] ?? {})[0];
  const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan?: { 'Plan Rows'?: number } }[];
  const rows = Number(plan?.[0]?.Plan?.['Plan Rows']);
  return Number.isFinite(rows) ? Math.round(rows) : 0;
}
