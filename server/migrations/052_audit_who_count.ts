/**
 * 052 — Dziennik zmian filtered by who, counted from the index (issue 49). Migration 041's index on
 * lower("actorLabel") gives the first page of one person's entries from its head, but the table's
 * count of them (capped as every table's) still read each entry's row: PostgreSQL does not answer
 * a condition on an expression from the index alone unless the index also holds the column the
 * expression reads. With "actorLabel" included (and "resource", which the filter by what adds) the
 * count is an index-only scan: on 10 million entries, a person's 25,000 counted in about 10 ms
 * instead of 170 ms warm and a second cold (docs/benchmarks.md, tools/bench/audit.ts).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration052: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create index audit_entry_actor_lower_at_label on audit_entry (lower("actorLabel"), "at" desc, "id" desc) include ("actorLabel", "resource")`,
      `drop index audit_entry_actor_lower_at`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      `create index audit_entry_actor_lower_at on audit_entry (lower("actorLabel"), "at" desc, "id" desc)`,
      `drop index audit_entry_actor_lower_at_label`,
    ]);
  },
};
