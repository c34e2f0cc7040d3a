/**
 * 044 — each person's language (issue 48): the account keeps the language he chose (on the
 * sign-in page or under Ustawienia → Język), so that his next sign-in anywhere, his e-mails,
 * push notifications and scheduled reports, and the API's messages to him follow it. Null: not
 * chosen, the configuration's default language (screens/app.json config.languages) applies. Not
 * checked against a list here: the languages offered are configuration, and a language no longer
 * offered reads as the default.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration044: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [`alter table app_user add column "language" text`]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [`alter table app_user drop column "language"`]);
  },
};
