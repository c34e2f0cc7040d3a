/**
 * 057 — the trail's indexes in the order its entries arrive (issue 46, docs/decisions.md "The
 * trail's indexes in the order its entries arrive").
 *
 * Five of the trail's indexes were declared newest first (`"at" desc, "id" desc`). Entries arrive
 * oldest first, so each new one belonged at the left edge of its range. PostgreSQL's B-tree keeps
 * its shortcuts for the right edge only: the rightmost leaf remembered between insertions (no
 * descent from the root) and, when that leaf is full, a split that leaves the old page full rather
 * than half empty. At the left edge every entry descended the tree and every split left two half
 * pages. An import of a million records appends a million entries and paid for that five times.
 *
 * Declared ascending, the same index read backwards answers newest first: the table's queries pair
 * a column with the key in one direction (`at desc, id desc`, server/db/table-query.ts `sortKeys`),
 * which one index serves both ways. The indexes keep their names, columns and conditions; only the
 * direction changes. The migration builds each anew, which takes the trail's write lock for as long
 * as the builds take (about a minute for ten million entries): run it when nobody writes.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

/** The person's id as the view v_audit_entry names it (migration 055): the same text, or the index is not used. */
const ACTOR = `coalesce('user:' || "userId"::text, 'key:' || "keyId"::text, 'job:' || "job")`;

/** Each index's columns (and condition) before its direction: `desc` as created until now, `` as from here on. */
const INDEXES = (desc: '' | ' desc') => [
  `create index audit_entry_at on audit_entry ("at"${desc}, "id"${desc})`,
  `create index audit_entry_resource_at on audit_entry ("resource", "at"${desc}, "id"${desc})`,
  `create index audit_entry_history on audit_entry ("resource", (split_part("recordKey", '/', 1)), "at"${desc}, "id"${desc})`,
  `create index audit_entry_actor_at on audit_entry ((${ACTOR}), "at"${desc}, "id"${desc}) include ("userId", "keyId", "job", "resource")`,
  `create index audit_entry_user on audit_entry ("userId", "at"${desc}) where "userId" is not null`,
];
const NAMES = ['audit_entry_at', 'audit_entry_resource_at', 'audit_entry_history', 'audit_entry_actor_at', 'audit_entry_user'];

export const migration057: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [...NAMES.map((name) => `drop index ${name}`), ...INDEXES('')]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [...NAMES.map((name) => `drop index ${name}`), ...INDEXES(' desc')]);
  },
};
