/**
 * 049 — report subscriptions (issue 46): a user's report (with his grouping and filters) e-mailed
 * weekly or monthly as xlsx or PDF, and the log of its sends.
 *
 * - report_subscription: the owner, the report's id, frequency, day (1–7 Monday–Sunday for weekly,
 *   1–28 for monthly), hour (the portal's time zone), format and the run's parameters (groupBy,
 *   filters). A business record: created and deleted through app.writes.record (the trail).
 * - report_send: one row per send. A scheduled send carries its period's first day in `scheduled`,
 *   unique per subscription, so a period is sent once however many processes or restarts look at
 *   it; "Wyślij teraz" leaves `scheduled` empty (any number of them). The e-mail itself is a
 *   notification of the outbox (`notificationId`), whose state says whether it went; a send
 *   refused before it was queued (the owner's account ended, his role may not run the report)
 *   is kept here as skipped with its reason. Not the trail: a log.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration049: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create table report_subscription (
        "id" serial primary key,
        "userId" integer not null references app_user("id") on delete cascade,
        "report" text not null,
        "frequency" text not null check ("frequency" in ('weekly', 'monthly')),
        "day" integer not null,
        "hour" integer not null check ("hour" between 0 and 23),
        "format" text not null check ("format" in ('xlsx', 'pdf')),
        "params" jsonb not null default '{}'::jsonb,
        "createdAt" timestamptz not null default now(),
        check (("frequency" = 'weekly' and "day" between 1 and 7) or ("frequency" = 'monthly' and "day" between 1 and 28))
      )`,
      `create index report_subscription_user on report_subscription ("userId")`,
      `create table report_send (
        "id" serial primary key,
        "subscriptionId" integer not null references report_subscription("id") on delete cascade,
        "periodFrom" date not null,
        "periodTo" date not null,
        "scheduled" date,
        "requestedBy" integer references app_user("id") on delete set null,
        "at" timestamptz not null default now(),
        "state" text not null check ("state" in ('queued', 'skipped')),
        "reason" text,
        "notificationId" integer references notification("id") on delete set null
      )`,
      `create unique index report_send_period on report_send ("subscriptionId", "scheduled")`,
      `create index report_send_subscription on report_send ("subscriptionId", "at" desc)`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, ['drop table report_send', 'drop table report_subscription']);
  },
};
