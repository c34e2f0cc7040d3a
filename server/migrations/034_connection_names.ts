/**
 * 034 — what the administrator's connection screens name (issue 49): a client as people know it,
 * "Transbud Sp. z o.o. (KL001)", sorted by name, in the tables of Konta integracyjne and Webhooki
 * (the code alone meant nothing to a reader; every client is "wszyscy" on screen: the columns are
 * null then and the screens' `emptyText` says it); and an integration key's name, given when it
 * is made, so two keys of one account are told apart by what they are for.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

/** The clients of a jsonb array of codes as "Name (CODE)", by name; a code without a client stays a code. */
const clientNames = (column: string) => `(select string_agg(coalesce(c."klientNazwa" || ' (' || x || ')', x), ', ' order by coalesce(c."klientNazwa", x), x)
           from jsonb_array_elements_text(${column}) x left join client c on c."klient" = x)`;

export const migration034: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `alter table integration_key add column "name" text`,
      `create or replace view v_integration_account as
        select a."id", a."name", a."clients" is null as "allClients",
               coalesce(a."clients", '[]'::jsonb) as "clients",
               ${clientNames('a."clients"')} as "klienci",
               a."scopes",
               (select count(*)::int from integration_key k where k."accountId" = a."id" and k."revokedAt" is null and k."expiresAt" > now()) as "activeKeys",
               (select max(k."lastUsedAt") from integration_key k where k."accountId" = a."id") as "lastUsedAt",
               a."createdAt", a."updatedAt"
        from integration_account a`,
      `create or replace view v_webhook_endpoint as
        select e."id", e."url", e."description", e."events", e."clients",
               (select string_agg(x, ', ') from jsonb_array_elements_text(e."events") x) as "eventsText",
               ${clientNames('e."clients"')} as "clientsText",
               e."enabled", e."disabledReason", e."createdAt", e."updatedAt"
        from webhook_endpoint e`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      `create or replace view v_webhook_endpoint as
        select e."id", e."url", e."description", e."events", e."clients",
               (select string_agg(x, ', ') from jsonb_array_elements_text(e."events") x) as "eventsText",
               coalesce((select string_agg(x, ', ') from jsonb_array_elements_text(e."clients") x), '') as "clientsText",
               e."enabled", e."disabledReason", e."createdAt", e."updatedAt"
        from webhook_endpoint e`,
      `create or replace view v_integration_account as
        select a."id", a."name", a."clients" is null as "allClients",
               coalesce(a."clients", '[]'::jsonb) as "clients",
               (select string_agg(c, ', ' order by c) from jsonb_array_elements_text(a."clients") c) as "klienci",
               a."scopes",
               (select count(*)::int from integration_key k where k."accountId" = a."id" and k."revokedAt" is null and k."expiresAt" > now()) as "activeKeys",
               (select max(k."lastUsedAt") from integration_key k where k."accountId" = a."id") as "lastUsedAt",
               a."createdAt", a."updatedAt"
        from integration_account a`,
      `alter table integration_key drop column "name"`,
    ]);
  },
};
