/**
 * The initialization errors of spec §8, computed for real on every pre-configuration request
 * (the runtime shows blocking ones in a modal that cannot be closed, the others once):
 * - the database answers, and every migration this server knows has been applied
 *   (a server newer than its database must not run: "minimum database version");
 * - the e-mail configuration can send mail (otherwise reset codes cannot be sent: a warning);
 * - the configuration files on disk were valid at the last refresh (otherwise the portal runs on
 *   the previous, valid configuration: a warning).
 * Each item's initError is a text key of locales/pl/init.json; REQUIRED and CURRENT are versions.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { migrationStatus } from '../db/migrate.ts';
import { isMailConfigured, readEmailConfig } from '../mail/mailer.ts';

export interface CompatibilityItem {
  initError: string;
  current: string | null;
  required: string | null;
  initializationBlocking: boolean;
}

const item = (initError: string, blocking: boolean, current: string | null = null, required: string | null = null): CompatibilityItem =>
  ({ initError, current, required, initializationBlocking: blocking });

export async function compatibilityItems(app: FastifyInstance): Promise<CompatibilityItem[]> {
  try {
    await sql`select 1`.execute(app.db);
  } catch (error) {
    app.log.error({ err: error }, 'database unreachable');
    return [item('init:databaseConnection', true)];
  }
  const items: CompatibilityItem[] = [];
  try {
    const migrations = await migrationStatus(app.db);
    const firstMissing = migrations.findIndex((m) => !m.executedAt);
    if (firstMissing >= 0) {
      // the database's version is the last step of the unbroken run from the first migration:
      // a later step applied out of order does not make up for a missing earlier one
      const current = firstMissing > 0 ? migrations[firstMissing - 1].name : '—';
      items.push(item('init:minDatabaseVersion', true, current, migrations.at(-1)?.name ?? '—'));
    }
    if (!isMailConfigured(await readEmailConfig(app.db))) items.push(item('init:mailNotConfigured', false));
  } catch (error) {
    app.log.error({ err: error }, 'database check failed');
    items.push(item('init:migrationFailed', true));
  }
  if (app.config.reloadError) items.push(item('init:invalidClientConfig', false));
  return items;
}
