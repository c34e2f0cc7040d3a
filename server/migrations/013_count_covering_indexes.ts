/**
 * 013 — a count or a deep jump of the orders list is answered from an index alone again.
 *
 * Migration 007 gave v_order LEFT JOINs (status text, intervention name, damage id) in place of
 * scalar subqueries. PostgreSQL removes a join whose columns a query does not read, but (up to
 * version 15 at least) the joining columns of the removed join stay "needed" by the scan: a count
 * through the view needs o."status", o."zgloInterw" and o."autId", and an index without
 * "zgloInterw" can no longer answer it alone. The planner fell back to a bitmap heap scan visiting
 * every matching table row: 2–5 s for the 79 000 orders of status 1, 9, 10 on the bench data,
 * against 25 ms from an index that carries the column (docs/benchmarks.md).
 *
 * So every index of service_order that carries the status for the lists (INCLUDE (status), and the
 * status-led ones) also carries "zgloInterw". The indexes are found in the catalogue, so the
 * migration follows whatever 001/005 created; `down` puts them back as they were.
 */
import { sql, type Kysely, type Migration } from 'kysely';
import { runStatements } from './run-sql.ts';

const JOIN_COLUMN = 'zgloInterw';

interface IndexRow {
  name: string;
  definition: string;
}

/** The list indexes of service_order: status as an INCLUDE column, or status among the keys before "autId". */
async function listIndexes(db: Kysely<any>): Promise<IndexRow[]> {
  const { rows } = await sql<IndexRow>`
    select indexname as name, indexdef as definition from pg_indexes
    where tablename = 'service_order' and schemaname = current_schema()
      and indexdef not like '%UNIQUE%' and indexdef not like ${`%"${JOIN_COLUMN}"%`}
      and (indexdef like '%INCLUDE (status)%' or indexdef like '%(status, "autId")%' or indexdef like '%, status, "autId")%')`.execute(db);
  return rows;
}

export const migration013: Migration = {
  async up(db) {
    const statements: string[] = [];
    for (const { name, definition } of await listIndexes(db)) {
      const covering = definition.includes('INCLUDE (status)')
        ? definition.replace('INCLUDE (status)', `INCLUDE (status, "${JOIN_COLUMN}")`)
        : `${definition} INCLUDE ("${JOIN_COLUMN}")`;
      statements.push(`drop index "${name}"`, covering);
    }
    await runStatements(db, statements);
  },
  async down(db) {
    const { rows } = await sql<IndexRow>`
      select indexname as name, indexdef as definition from pg_indexes
      where tablename = 'service_order' and schemaname = current_schema() and indexdef like ${`%"${JOIN_COLUMN}")%`}
        and indexdef like '%INCLUDE%'`.execute(db);
    const statements: string[] = [];
    for (const { name, definition } of rows) {
      const original = definition.includes(`INCLUDE (status, "${JOIN_COLUMN}")`)
        ? definition.replace(`INCLUDE (status, "${JOIN_COLUMN}")`, 'INCLUDE (status)')
        : definition.replace(` INCLUDE ("${JOIN_COLUMN}")`, '');
      statements.push(`drop index "${name}"`, original);
    }
    await runStatements(db, statements);
  },
};
