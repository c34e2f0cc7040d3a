/**
 * 042 — the answers of submissions made with an Idempotency-Key (issue 47): the driver's phone
 * sends what waited offline again when the network returns, and an answer lost on the way must
 * not become a second record. A row is one submission of one principal (a user, or an integration
 * key): taken before the handler runs (`status` null while it runs), it keeps the first answer
 * (status, content type, body) for at least 24 hours. `committed` is set inside the business
 * write's own transaction (services/write.ts), so a submission whose process died after its commit
 * but before its answer was kept is known as done, never run twice.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration042: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create table idempotency_key (
        "principal" text not null,
        "key" text not null,
        "fingerprint" text not null,
        "committed" boolean not null default false,
        "status" integer,
        "contentType" text,
        "body" text,
        "createdAt" timestamptz not null default now(),
        primary key ("principal", "key")
      )`,
      `create index idempotency_key_created on idempotency_key ("createdAt")`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [`drop table idempotency_key`]);
  },
};
