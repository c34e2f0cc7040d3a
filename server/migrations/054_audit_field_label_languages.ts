/**
 * 054 — "Zmienione pola" of Dziennik zmian filtered in the reader's language (issue 48). The labels
 * of migration 045 were the source language's only, so a Ukrainian or English reader's text filter
 * on the column matched Polish words. audit_field_label now keeps a label per language
 * (server/audit/field-labels.ts writes every offered language); v_audit_entry keeps naming the
 * fields in the source language (Polish, the rows' own column), and a reader of another language
 * is given the column's filter built on his language's labels (server/audit/record-names.ts).
 * Rows written before are the source language's.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const view = (join: string) => `create or replace view v_audit_entry as
        select e."id", e."seq", e."at", e."actorKind", e."userId", e."role", e."keyId", e."accountId", e."job",
               e."actorLabel", e."address", e."session", e."resource", e."recordKey", e."action", e."changes",
               (select string_agg(coalesce(l."label", k), ', ' order by coalesce(l."label", k))
                  from jsonb_object_keys(e."changes") k left join audit_field_label l on ${join}) as "fields"
        from audit_entry e`;

export const migration054: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `alter table audit_field_label add column "language" text not null default 'pl'`,
      `alter table audit_field_label drop constraint audit_field_label_pkey`,
      `alter table audit_field_label add primary key ("language", "resource", "field")`,
      `alter table audit_field_label alter column "language" drop default`,
      view(`l."language" = 'pl' and l."resource" = e."resource" and l."field" = k`),
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      view(`l."resource" = e."resource" and l."field" = k`),
      `delete from audit_field_label where "language" <> 'pl'`,
      `alter table audit_field_label drop constraint audit_field_label_pkey`,
      `alter table audit_field_label drop column "language"`,
      `alter table audit_field_label add primary key ("resource", "field")`,
    ]);
  },
};
