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
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const JOIN_COLUMN = 'zgloInterw';

interface IndexRow {
  name: string;
  definition: string;
}

/**
 * The indexes of this schema's service_order with their definitions. Read from the catalogue
 * tables, and the definitions (pg_get_indexdef) only for these indexes: the pg_indexes view may
 * compute the definition of every schema's index before it filters by schema, and one of a schema
 * another process is dropping meanwhile (parallel tests on one database) fails the migration with
 * "cache lookup failed".
 */
async function serviceOrderIndexes(db: Kysely<any>): Promise<IndexRow[]> {
  const { rows: own } = await sql<{ oid: number }>`
    select i.indexrelid::int8 as oid from pg_index i
    join pg_class t on t.oid = i.indrelid
    join pg_namespace n on n.oid = t.relnamespace
    where t.relname = 'service_order' and n.nspname = current_schema()`.execute(db);
  const found: IndexRow[] = [];
  for (const { oid } of own) {
    const { rows } = await sql<IndexRow>`select c.relname as name, pg_get_indexdef(c.oid) as definition from pg_class c where c.oid = ${Number(oid)}::oid`.execute(db);
    found.push(...rows);
  }
  return found;
}

/** The list indexes of service_order: status as an INCLUDE column, or status among the keys before "autId". */
async function listIndexes(db: Kysely<any>): Promise<IndexRow[]> {
  return (await serviceOrderIndexes(db)).filter(({ definition: d }) =>
    !d.includes('UNIQUE') && !d.includes(`"${JOIN_COLUMN}"`)
    && (d.includes('INCLUDE (status)') || d.includes('(status, "autId")') || d.includes(', status, "autId")')));
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
    const rows = (await serviceOrderIndexes(db)).filter(({ definition: d }) => d.includes(`"${JOIN_COLUMN}")`) && d.includes('INCLUDE'));
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
