/**
 * What sign-in security needs beyond the data model of 001 (issue 3):
 * - lock-out counts failures within a window, so an old failure does not count against today;
 * - a reset code allows a few wrong tries before it is spent (brute force needs more than the
 *   code's lifetime allows).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration003: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `alter table app_user add column "lastFailedAt" timestamptz`,
      `alter table password_reset add column "attempts" integer not null default 0 check ("attempts" >= 0)`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      `alter table password_reset drop column if exists "attempts"`,
      `alter table app_user drop column if exists "lastFailedAt"`,
    ]);
  },
};
