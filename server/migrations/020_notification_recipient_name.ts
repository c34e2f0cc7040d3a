/**
 * 020 — the administrators' log names each recipient as the tables name people (issue 38):
 * `v_notification` gains "odbiorca", the account's surname and first name, beside its login, so
 * that "Wyślij ponownie" asks about a person ("Nowak Anna"), not a login ("manager").
 */
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const COLUMNS = `n."id", n."createdAt", n."event", n."userId", u."login", n."email", n."channel", n."state", n."attempts",
               n."lastError", n."sentAt", n."readAt", n."entity", n."entityId", n."resentFrom"`;

export const migration020: Migration = {
  async up(db) {
    await runStatements(db, [
      // a new column at the end: the view is replaced in place, nothing that reads it changes
      `create or replace view v_notification as
        select ${COLUMNS},
               nullif(btrim(coalesce(u."lastName", '') || ' ' || coalesce(u."firstName", '')), '') as "odbiorca"
        from notification n join app_user u on u."id" = n."userId"`,
    ]);
  },
  async down(db) {
    await runStatements(db, [
      'drop view v_notification',
      `create view v_notification as select ${COLUMNS} from notification n join app_user u on u."id" = n."userId"`,
    ]);
  },
};
