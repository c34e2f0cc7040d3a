/**
 * The running totals' months are months of the portal's time zone (migration 053: a transaction at
 * 23:30 UTC on 31 January is February's in Warsaw). The zone is configuration (screens/app.json
 * `config.timeZone`, the database sessions' TimeZone), so the zone they were built in is kept, and a
 * portal started in another zone rebuilds them once from the fuel transactions, invoice lines and
 * readings before it serves a report — in the start-up's one-process-at-a-time step.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';

const SETTING = 'running-total-zone';

/** Rebuilds the running totals when the session's time zone is not the one they were built in; says whether it did. */
export async function keepRunningTotalsInZone(db: Kysely<DB>, warn: (message: string) => void): Promise<boolean> {
  const zone = (await sql<{ tz: string }>`select current_setting('TimeZone') as tz`.execute(db)).rows[0]!.tz;
  const kept = await db.selectFrom('app_setting').select('value').where('key', '=', SETTING).executeTakeFirst();
  const keptZone = kept ? ((typeof kept.value === 'string' ? JSON.parse(kept.value) : kept.value) as { zone?: string }).zone : undefined;
  if (keptZone === zone) return false;
  await db.transaction().execute(async (trx) => {
    // the first start after migration 053 finds them built in this very zone (its session's): nothing to redo
    if (keptZone !== undefined) {
      warn(`the reports' running totals were built in time zone ${keptZone}, the portal now runs in ${zone}: rebuilding them`);
      await sql`select running_total_rebuild()`.execute(trx);
    }
    const value = JSON.stringify({ zone });
    await trx.insertInto('app_setting').values({ key: SETTING, value })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value, updatedAt: sql`now()` })).execute();
  });
  return keptZone !== undefined;
}
