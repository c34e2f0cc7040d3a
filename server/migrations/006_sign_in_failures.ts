/**
 * 006 — failed sign-ins are counted per login *name* and client address (issue 9), not per
 * account: an unknown login is counted and locked exactly like a real one (so the answers do not
 * tell which logins exist), and a stranger at another address cannot lock the owner out. Rows
 * live only as long as the window or the lock; sign-in deletes the stale ones.
 * The account's own "failedLogins"/"lockedUntil" (users table) mirror the latest of these.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration006: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create table sign_in_failure (
        "login" varchar(50) not null,
        "address" varchar(64) not null,
        "failures" integer not null default 0 check ("failures" >= 0),
        "lastFailedAt" timestamptz not null,
        "lockedUntil" timestamptz,
        primary key ("login", "address")
      )`,
      `create index "sign_in_failure_lastFailedAt_idx" on sign_in_failure ("lastFailedAt")`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [`drop table if exists sign_in_failure`]);
  },
};
