/**
 * 048 — an import run's language (issue 48): the run is checked on a job, after its request has
 * answered, and words its row errors, its message and the file of rows to fix in the language of
 * the caller who sent it (his account's, his sign-in page's choice, or an integration key's
 * Accept-Language), kept here when the run is received. Null (runs received before): the
 * variant's default language.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration048: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [`alter table import_run add column "language" text`]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [`alter table import_run drop column "language"`]);
  },
};
