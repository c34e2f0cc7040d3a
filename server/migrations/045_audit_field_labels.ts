/**
 * 045 — "Zmienione pola" of Dziennik zmian by their labels (issue 49): the list showed the stored
 * field codes (`displayPrefix, expiresAt, keyId`). The labels are the configuration's
 * (server/audit/labels.ts); the server writes them into audit_field_label at start and whenever the
 * configuration is reloaded (server/audit/field-labels.ts), and the view joins them, so the column
 * reads "Początek klucza, Klucz, Ważny do" and its text filter finds an entry by the label a reader
 * sees. A field without a stored label (a code of an older configuration) still shows as its code.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const view = (fields: string) => `create or replace view v_audit_entry as
        select e."id", e."seq", e."at", e."actorKind", e."userId", e."role", e."keyId", e."accountId", e."job",
               e."actorLabel", e."address", e."session", e."resource", e."recordKey", e."action", e."changes",
               ${fields} as "fields"
        from audit_entry e`;

export const migration045: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create table audit_field_label ("resource" text not null, "field" text not null, "label" text not null, primary key ("resource", "field"))`,
      view(`(select string_agg(coalesce(l."label", k), ', ' order by coalesce(l."label", k))
                  from jsonb_object_keys(e."changes") k left join audit_field_label l on l."resource" = e."resource" and l."field" = k)`),
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      view(`(select string_agg(k, ', ' order by k) from jsonb_object_keys(e."changes") k)`),
      `drop table audit_field_label`,
    ]);
  },
};
