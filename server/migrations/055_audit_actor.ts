/**
 * 055 — Dziennik zmian filtered by the person (issue 49): the "Kto" column's filter is a choice of
 * the accounts and integration keys that appear in the trail (GET /api/audit/actors), and the
 * table filters by the chosen actor's id rather than by the text of a login. `actor` of the view
 * names the actor by kind and id — `user:<userId>`, `key:<keyId>`, `job:<job>` — and this index
 * serves it in the table's order (newest first): one person's first page from the index's head.
 * The columns the expression reads are included so that the table's capped count is an
 * index-only scan (as migration 052 found for lower("actorLabel")), also beside the filter by what.
 * The expression here and the view's must stay the same text: PostgreSQL matches an index on an
 * expression only to the same expression. The fields' labels are joined in the source language, as
 * migration 054 made them (one label per language).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const ACTOR = `coalesce('user:' || e."userId"::text, 'key:' || e."keyId"::text, 'job:' || e."job")`;

const view = (actor: string) => `create or replace view v_audit_entry as
        select e."id", e."seq", e."at", e."actorKind", e."userId", e."role", e."keyId", e."accountId", e."job",
               e."actorLabel", e."address", e."session", e."resource", e."recordKey", e."action", e."changes",
               (select string_agg(coalesce(l."label", k), ', ' order by coalesce(l."label", k))
                  from jsonb_object_keys(e."changes") k left join audit_field_label l on l."language" = 'pl' and l."resource" = e."resource" and l."field" = k) as "fields"${actor}
        from audit_entry e`;

export const migration055: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create index audit_entry_actor_at on audit_entry ((${ACTOR.replaceAll('e.', '')}), "at" desc, "id" desc) include ("userId", "keyId", "job", "resource")`,
      view(`,\n               ${ACTOR} as "actor"`),
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      // a view cannot lose a column by "create or replace"
      `drop view v_audit_entry`,
      view(''),
      `drop index audit_entry_actor_at`,
    ]);
  },
};
