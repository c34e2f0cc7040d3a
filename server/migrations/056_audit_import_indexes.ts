/**
 * 056 — two of the trail's nine indexes dropped, because every imported record pays for each
 * (issue 46, docs/decisions.md "The trail's indexes an import pays for"). An import of a million
 * fuel transactions appends a million entries; on a copy of the trail's shape (a million entries
 * there before) a million more took 27.5 s with the nine indexes and 19.5 s with the seven left, and
 * wrote 1.33 GB of WAL instead of 1.63.
 *
 * - `audit_entry_record` (resource, recordKey, at): a record's history reads
 *   `audit_entry_history` (the record's own key, migration 031), the table's filters on the key
 *   compare lower() (never served by it), and the personal-data export now names the record's own
 *   key as the history does (server/personal-data/stores.ts).
 * - `audit_entry_actor_lower_at_label` (lower(actorLabel), at, id; migration 052): Dziennik zmian
 *   filters by the person's id since migration 055 (`actor`, audit_entry_actor_at). An
 *   administrator's call of the table's API that filters on the label as text (the screen sends the
 *   person's id) now reads the entries in the table's order until a page matches
 *   (tools/bench/audit.ts measures both).
 *
 * `audit_entry_user` stays: partial and the smallest, it serves the personal-data export's "what
 * the person did".
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration056: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `drop index audit_entry_record`,
      `drop index audit_entry_actor_lower_at_label`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      `create index audit_entry_record on audit_entry ("resource", "recordKey", "at" desc)`,
      `create index audit_entry_actor_lower_at_label on audit_entry (lower("actorLabel"), "at" desc, "id" desc) include ("actorLabel", "resource")`,
    ]);
  },
};
