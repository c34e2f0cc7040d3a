/**
 * 004 — a download token belongs to the session that asked for it (issue 4): a link opened in a
 * new window carries no bearer header, so the token itself must prove who asked. Binding it to
 * the session means signing out (or a password change ending the other sessions) kills every
 * link that session issued, not only the session.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration004: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `delete from download_token`,
      `alter table download_token add column "sessionHash" text not null references user_session ("tokenHash") on delete cascade`,
      `create index "download_token_sessionHash_idx" on download_token ("sessionHash")`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [`alter table download_token drop column if exists "sessionHash"`]);
  },
};
