/**
 * 021 — integration accounts and their API keys (issue 34, docs/integration.md "Keys").
 *
 * An integration account is not a person: it has no login, password or terms, and lives in a
 * table of its own so that no user list, sign-in or password call can ever meet it. It names the
 * clients it may touch (`clients`: a JSON array of client symbols, or null for every client) and
 * its scopes (`scopes`: a JSON array of `read:<resource>`, `import:<declaration>`, `webhooks`).
 *
 * A key is kept only as the SHA-256 of its text (a key is 178 random bits: a fast hash is enough,
 * nothing to stretch), with the first characters shown to identify it ("flp_AbCd1234…").
 *
 * Every process caches the keys it verified (server/auth/session-cache.ts, beside the sessions):
 * the triggers below tell every process on the session channel of migration 008, at the commit,
 * that a key was revoked or changed ("s:<hash>", the message a deleted session sends) or that an
 * account changed ("*": rare, an administrator's edit, so everything is simply read again). Using
 * the key (lastUsedAt, lastUsedIp) tells nobody.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { SESSION_CHANNEL } from './008_session_notifications.ts';
import { runStatements } from './run-sql.ts';

const notify = (what: string) => `perform pg_notify('${SESSION_CHANNEL}', TG_TABLE_SCHEMA || ':' || ${what});`;

export const migration021: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create table integration_account (
        "id" serial primary key,
        "name" text not null,
        "clients" jsonb,
        "scopes" jsonb not null default '[]'::jsonb,
        "createdAt" timestamptz not null default now(),
        "updatedAt" timestamptz not null default now()
      )`,
      `create unique index integration_account_name on integration_account (lower("name"))`,
      `create table integration_key (
        "id" serial primary key,
        "accountId" integer not null references integration_account ("id") on delete cascade,
        "keyHash" text not null unique,
        "displayPrefix" text not null,
        "createdAt" timestamptz not null default now(),
        "expiresAt" timestamptz not null,
        "revokedAt" timestamptz,
        "lastUsedAt" timestamptz,
        "lastUsedIp" text
      )`,
      `create index integration_key_account on integration_key ("accountId", "createdAt")`,
      // the administrator's table (resource integration-accounts): a handful of rows, no index needed
      `create view v_integration_account as
        select a."id", a."name", a."clients" is null as "allClients",
               coalesce(a."clients", '[]'::jsonb) as "clients",
               (select string_agg(c, ', ' order by c) from jsonb_array_elements_text(a."clients") c) as "klienci",
               a."scopes",
               (select count(*)::int from integration_key k where k."accountId" = a."id" and k."revokedAt" is null and k."expiresAt" > now()) as "activeKeys",
               (select max(k."lastUsedAt") from integration_key k where k."accountId" = a."id") as "lastUsedAt",
               a."createdAt", a."updatedAt"
        from integration_account a`,
      `create function notify_integration_key_changed() returns trigger language plpgsql as $$
       begin ${notify(`'s:' || old."keyHash"`)} return null; end $$`,
      `create trigger integration_key_changed after delete or update of "keyHash", "accountId", "expiresAt", "revokedAt" on integration_key
       for each row execute function notify_integration_key_changed()`,
      `create trigger integration_account_changed after update or delete or truncate on integration_account
       for each statement execute function notify_all_sessions()`,
      `create trigger integration_key_truncated after truncate on integration_key for each statement execute function notify_all_sessions()`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      'drop view v_integration_account',
      'drop table integration_key',
      'drop table integration_account',
      'drop function notify_integration_key_changed()',
    ]);
  },
};
