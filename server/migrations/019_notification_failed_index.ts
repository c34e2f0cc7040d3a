/**
 * 019 — the e-mails that failed, found without reading every notification (issue 33): the
 * metrics' delivery lag (notifications/backlog.ts) counts at every scrape the failed e-mails that
 * are still retried; without this index that was a scan of the whole table, every in-app
 * notification ever written included. Partial: failed e-mails are few beside the rest.
 */
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration019: Migration = {
  async up(db) {
    await runStatements(db, [
      `create index notification_failed_email_idx on notification ("createdAt") where "state" = 'failed' and "channel" = 'email'`,
    ]);
  },
  async down(db) {
    await runStatements(db, ['drop index notification_failed_email_idx']);
  },
};
