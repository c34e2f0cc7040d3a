/**
 * The initialization errors of spec §8 (the runtime shows blocking ones in a modal that cannot be
 * closed, the others once). The pre-configuration is asked for on every page load, so it is cheap:
 * - every migration this server knows has been applied (a server newer than its database must not
 *   run: "minimum database version"): read once at start-up and again on the administrator's
 *   restart-application (refreshMigrationCheck), not per request — kysely's migration listing
 *   costs several queries and the answer changes only when someone migrates;
 * - the database answers: one single-row read per request (the mail settings' row);
 * - a mail server that is not configured is not told here: the pre-configuration goes to every
 *   visitor, and only an administrator can act on it, so it is shown to administrators on the mail
 *   settings and the notification log (screens/mail-notice.json, issue 38);
 * - the configuration files on disk were valid at the last refresh (otherwise the portal runs on
 *   the previous, valid configuration: a warning).
 * Each item's initError is a text key of locales/pl/init.json; REQUIRED and CURRENT are versions.
 */
import type { FastifyInstance } from 'fastify';
import { migrationStatus } from '../db/migrate.ts';
import { readEmailConfig } from '../mail/mailer.ts';

export interface CompatibilityItem {
  initError: string;
  current: string | null;
  required: string | null;
  initializationBlocking: boolean;
}

const item = (initError: string, blocking: boolean, current: string | null = null, required: string | null = null): CompatibilityItem =>
  ({ initError, current, required, initializationBlocking: blocking });

/** The migration check's item (null: up to date), per database (route plugins see child instances of the app). */
const migrationChecks = new WeakMap<object, CompatibilityItem | null>();

/** Reads the migration status again (start-up, restart-application). */
export async function refreshMigrationCheck(app: FastifyInstance): Promise<void> {
  let result: CompatibilityItem | null = null;
  try {
    const migrations = await migrationStatus(app.db);
    const firstMissing = migrations.findIndex((m) => !m.executedAt);
    if (firstMissing >= 0) {
      // the database's version is the last step of the unbroken run from the first migration:
      // a later step applied out of order does not make up for a missing earlier one
      const current = firstMissing > 0 ? migrations[firstMissing - 1].name : '—';
      result = item('init:minDatabaseVersion', true, current, migrations.at(-1)?.name ?? '—');
    }
  } catch (error) {
    app.log.error({ err: error }, 'migration check failed');
    result = item('init:migrationFailed', true);
  }
  migrationChecks.set(app.db, result);
}

export async function compatibilityItems(app: FastifyInstance): Promise<CompatibilityItem[]> {
  try {
    // proves the connection (the cheapest read there is on every page load)
    await readEmailConfig(app.db);
  } catch (error) {
    app.log.error({ err: error }, 'database unreachable');
    return [item('init:databaseConnection', true)];
  }
  if (!migrationChecks.has(app.db)) await refreshMigrationCheck(app);
  const migrationCheck = migrationChecks.get(app.db);
  const items: CompatibilityItem[] = migrationCheck ? [migrationCheck] : [];
  if (app.config.reloadError) items.push(item('init:invalidClientConfig', false));
  return items;
}
