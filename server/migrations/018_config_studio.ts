/**
 * 018 — the configuration studio's layer (issue 26): versions of the analysts' changes over the
 * configuration files.
 *
 * `config_version` holds whole layers: `documents` maps a layer path (`screens/x.json`,
 * `client-variants/t/locales/pl/car.json`) to `{ overlay, touches }` (runtime/core/layer.ts). A row
 * is a draft (one per administrator, based on the version published when it began), the published
 * version (at most one: the partial unique index makes a second impossible whatever two processes
 * do at once), or a superseded one, kept for its history and to be restored.
 */
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

export const migration018: Migration = {
  async up(db) {
    await runStatements(db, [
      `create table config_version (
        "id" serial primary key,
        "status" text not null check ("status" in ('draft', 'published', 'superseded')),
        "authorId" integer references app_user on delete set null,
        "author" text not null,
        "createdAt" timestamptz not null default now(),
        "updatedAt" timestamptz not null default now(),
        "publishedAt" timestamptz,
        "comment" text not null default '',
        "basedOn" integer references config_version,
        "restoredFrom" integer references config_version,
        "documents" jsonb not null default '{}'::jsonb
      )`,
      `create unique index config_version_one_published on config_version ((true)) where "status" = 'published'`,
      `create unique index config_version_one_draft_each on config_version ("authorId") where "status" = 'draft'`,
      `create index config_version_history on config_version ("publishedAt" desc) where "publishedAt" is not null`,
    ]);
  },
  async down(db) {
    await runStatements(db, ['drop table config_version']);
  },
};
