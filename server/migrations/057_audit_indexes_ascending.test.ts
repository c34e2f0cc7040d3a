/**
 * The trail's indexes run in the order its entries arrive (migration 057): a new entry lands at
 * each index's right edge, where the B-tree appends cheaply, and the readers' newest-first order is
 * the same index read backwards.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';

describe('the trail\'s indexes', () => {
  let t: TestDatabase;
  beforeAll(async () => { t = await openTestDatabase({ migrate: true }); }, 60_000);
  afterAll(async () => t?.close());

  it('are declared in the order entries arrive, oldest first', async () => {
    const rows = await sql<{ indexname: string; indexdef: string }>`select indexname, indexdef from pg_indexes
      where tablename = 'audit_entry' and schemaname = current_schema() order by 1`.execute(t.db);
    expect(rows.rows.length).toBe(7);
    expect(rows.rows.filter((r) => / desc\b/i.test(r.indexdef)).map((r) => r.indexname)).toEqual([]);
  });

  it('still give Dziennik zmian and a record\'s history newest first without sorting: the index read backwards', async () => {
    const plans = await t.db.transaction().execute(async (trx) => {
      // on a nearly empty table the planner would rather sort: told not to, it shows which index gives the order
      await sql`set local enable_sort = off`.execute(trx);
      await sql`set local enable_seqscan = off`.execute(trx);
      const plan = async (query: ReturnType<typeof sql>) => (await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx)).rows.map((r) => r['QUERY PLAN']).join('\n');
      return {
        table: await plan(sql`select "id" from audit_entry order by "at" desc, "id" desc limit 100`),
        byWhat: await plan(sql`select "id" from audit_entry where "resource" = 'order' order by "at" desc, "id" desc limit 100`),
        byWhom: await plan(sql`select "id" from audit_entry where coalesce('user:' || "userId"::text, 'key:' || "keyId"::text, 'job:' || "job") = 'user:1' order by "at" desc, "id" desc limit 100`),
        history: await plan(sql`select "id" from audit_entry where "resource" = 'order' and split_part("recordKey", '/', 1) = '7' order by "at" desc, "id" desc limit 200`),
        person: await plan(sql`select "id" from audit_entry where "userId" = 1 order by "at" desc limit 100`),
      };
    });
    expect(plans.table).toMatch(/Index (Only )?Scan Backward using audit_entry_at\b/);
    expect(plans.byWhat).toMatch(/Index (Only )?Scan Backward using audit_entry_resource_at\b/);
    expect(plans.byWhom).toMatch(/Index (Only )?Scan Backward using audit_entry_actor_at\b/);
    expect(plans.history).toMatch(/Index (Only )?Scan Backward using audit_entry_history\b/);
    expect(plans.person).toMatch(/Index (Only )?Scan Backward using audit_entry_user\b/);
    for (const plan of Object.values(plans)) expect(plan).not.toMatch(/\bSort\b/);
  });
});
