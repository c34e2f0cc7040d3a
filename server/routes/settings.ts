/**
 * GET /settings/restart-application (spec §7; the admin's "Odśwież aplikację"): re-reads and
 * re-validates the whole configuration (screens, schemas, locales, the variant) and the database's
 * migration status (shown by the pre-configuration) without stopping
 * the process. An invalid configuration keeps the one in use and is reported with its reasons.
 * Every other process of the portal reloads too (db/reload-broadcast.ts): the call reaches
 * one of them, the change must reach all.
 * Everything takes effect at once: what the runtime renders from, every text, and the request
 * validators and response serializers (config/bundle-compilers.ts compiles them per bundle). Only
 * the set of paths is fixed at start: a resource added by the reload needs a restart for its routes.
 */
import type { FastifyInstance } from 'fastify';
import { ConfigError } from '../config/load-bundle.ts';
import { HttpError } from '../http-error.ts';
import { refreshMigrationCheck } from '../init/compatibility.ts';
import { announceReload, followReloads } from '../db/reload-broadcast.ts';

export default async function settingsRoutes(app: FastifyInstance) {
  followReloads(app, async () => {
    await refreshMigrationCheck(app);
    await app.config.reload();
  });

  app.get('/api/settings/restart-application', {
    config: { access: { roles: ['ADMIN'] }, operation: { resource: 'settings', action: 'restartApplication', summary: 'Reload the configuration in every server process' } },
    schema: {
      response: { 200: { $ref: 'message-response#' }, 500: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      await refreshMigrationCheck(app); // the start-up check of the database's migrations, read again
      try {
        await app.config.reload();
      } catch (error) {
        request.log.error({ err: error }, 'configuration reload refused');
        const errors = error instanceof ConfigError
          ? error.problems.map((p) => ({ field: `${p.file}${p.pointer ? `#${p.pointer}` : ''}`, message: p.reason }))
          : [];
        throw new HttpError(500, app.config.t('app:refresh.failed'), { code: 'CONFIG_INVALID', errors });
      }
      app.config.useNewest(); // the answer is in the words of the configuration just read
      request.log.info({ etag: app.config.bundle.etag }, 'configuration reloaded');
      try {
        await announceReload(app);
      } catch (error) {
        // this process has the new configuration; the others keep theirs until their next reload
        request.log.error({ err: error }, 'other processes could not be told to reload');
      }
      return { message: app.config.t('app:refresh.done') };
    },
  });
}
