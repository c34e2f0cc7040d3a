/**
 * The planner's statistics of a table an import has just changed much (issue 49).
 *
 * PostgreSQL plans every reader's query from the statistics its last ANALYZE gathered. Autovacuum
 * gathers them again once 50 rows + 10 % of the table have changed, but only at its next round
 * (up to a minute, longer on a busy server): in between, a table that held a client's 120 vehicles
 * and now holds 100,000 is planned as the small one (the other clients' counts scan the whole table
 * instead of their client's index), and every user's table call took 2–3× as long after the import as
 * before it. So a run that changed that much gathers them itself, by the same rule, as the last step
 * of its own transaction: ANALYZE counts and samples the rows its own transaction wrote, and what
 * it stores becomes visible to the others when the rows do, at the commit.
 */
import type { ImportSession } from './session.ts';

/** Autovacuum's defaults (autovacuum_analyze_threshold, autovacuum_analyze_scale_factor). */
const ANALYZE_THRESHOLD = 50;
const ANALYZE_SCALE_FACTOR = 0.1;

/** The rows the planner believes the table holds (-1 or 0 for a table never analysed). */
export async function plannedRows(session: ImportSession, table: string): Promise<number> {
  const { rows } = await session.query<{ n: string }>('select reltuples::bigint::text as n from pg_class where oid = $1::regclass', [`"${table.replace(/"/g, '""')}"`]);
  return Math.max(0, Number(rows[0]?.n ?? 0));
}

/** Whether `written` rows (new, changed and deactivated) change a table of `planned` rows enough to analyse it. */
export function changesStatistics(written: number, planned: number): boolean {
  return written > 0 && written >= ANALYZE_THRESHOLD + ANALYZE_SCALE_FACTOR * planned;
}

/** Gathers the table's statistics in the run's transaction when its writes changed it that much. */
export async function analyzeIfChanged(session: ImportSession, table: string, written: number, planned: number): Promise<boolean> {
  if (!changesStatistics(written, planned)) return false;
  await session.query(`analyze "${table.replace(/"/g, '""')}"`);
  return true;
}
