/**
 * 051 — Web Push (issue 47): the devices a person let the portal notify, and push as a channel of
 * the notifications' outbox.
 *
 * - push_subscription: one row per browser (device) and user, as the browser's PushSubscription
 *   gave it: its endpoint at the push service (unique: a browser that subscribes again, or a
 *   phone handed to another user, replaces the row), its keys (`p256dh`, the browser's public
 *   key, and `auth`, the shared secret of RFC 8291: needed to encrypt every message, so kept as
 *   given), the device's label (from its user agent) and when it last took or refused a message.
 *   A subscription the push service says is gone (404 or 410) is deleted.
 * - notification."channel" takes 'push': one row per recipient and device (`pushSubscriptionId`),
 *   so each device's message is claimed and sent once by the same conditional UPDATE as an
 *   e-mail, whatever process or retry tries; a device removed meanwhile leaves its row without a
 *   subscription, skipped when it is sent.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration051: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create table push_subscription (
        "id" serial primary key,
        "userId" integer not null references app_user("id") on delete cascade,
        "endpoint" text not null unique,
        "p256dh" text not null,
        "auth" text not null,
        "expirationTime" timestamptz,
        "userAgent" text,
        "device" text,
        "createdAt" timestamptz not null default now(),
        "lastSuccessAt" timestamptz,
        "lastFailureAt" timestamptz,
        "lastError" text
      )`,
      `create index push_subscription_user on push_subscription ("userId")`,
      `alter table notification drop constraint notification_channel_check`,
      `alter table notification add constraint notification_channel_check check ("channel" in ('email', 'inApp', 'push'))`,
      `alter table notification add column "pushSubscriptionId" integer references push_subscription("id") on delete set null`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      `delete from notification where "channel" = 'push'`,
      `alter table notification drop column "pushSubscriptionId"`,
      `alter table notification drop constraint notification_channel_check`,
      `alter table notification add constraint notification_channel_check check ("channel" in ('email', 'inApp'))`,
      'drop table push_subscription',
    ]);
  },
};
