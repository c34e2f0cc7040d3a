/**
 * 017 — what the daily digest needs (issue 25): the reminders whose urgency a write made worse,
 * and each user's digests.
 *
 * The digest tells a user what is new or got worse since his last digest. A reminder's urgency
 * changes in two ways: the day turns (its soon, urgent and past-due days are in reminder_due, so
 * "got worse between two days" is a comparison of those days, no history needed), or a write
 * changes the record (a new order, a policy moved, a reading). The second kind is kept here:
 * `reminder_change` gets a row, in the refresh of reminder_due (server/reminders/due-table.ts),
 * for each item that appeared or got worse, with the scope columns of its row, so a digest reads
 * the changes of its reader's rows since his last digest. A change older than 30 days is swept.
 *
 * `digest_run`: one row per kind (the daily digest, the administrators' failure summary), user
 * and day, written in the transaction that queues the message: the primary key makes it once
 * per user and day across every process, and its time is where the next digest starts.
 */
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration017: Migration = {
  async up(db) {
    await runStatements(db, [
      `create table reminder_change (
        "id" bigserial primary key,
        "ruleKey" text not null,
        "recordId" text not null,
        "urgency" text not null,
        "at" timestamptz not null default now(),
        "scopeClient" text,
        "scopeVehicle" integer,
        "scopeStation" text,
        "scopeUser" integer
      )`,
      `create index reminder_change_at on reminder_change ("at")`,
      // "came by the date since the last digest": the items whose urgent or past-due day fell in a
      // window of a day or two (their soon day has reminder_due_rule)
      `create index reminder_due_urgent_from on reminder_due ("urgentFrom")`,
      `create index reminder_due_past_from on reminder_due ("pastFrom")`,
      `create table digest_run (
        "kind" text not null,
        "userId" integer not null references app_user on delete cascade,
        "day" date not null,
        "at" timestamptz not null default now(),
        "items" integer not null default 0,
        primary key ("kind", "userId", "day")
      )`,
      `create index digest_run_last on digest_run ("kind", "userId", "at")`,
    ]);
  },
  async down(db) {
    await runStatements(db, ['drop table digest_run', 'drop index reminder_due_past_from', 'drop index reminder_due_urgent_from', 'drop table reminder_change']);
  },
};
