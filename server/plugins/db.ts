/**
 * The database: a kysely instance on PostgreSQL or PGlite, migrated before the server listens.
 * The database's own failures are answered here (plugins/errors.ts asks this plugin's mapper):
 * a value it refuses is the caller's 400, a database that cannot be reached is a 503 "try again".
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { isDatabaseUnavailable } from '../db/unavailable.ts';
import type { ErrorMapper } from './errors.ts';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<DB>;
  }
}

/** PostgreSQL's class 22 "data exception" (22001 too long, 22003 out of range, 22021 NUL, 22P02 bad number, 22007/22008 bad date …). */
export function isDataException(error: unknown): error is { code: string } {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^22[0-9A-Z]{3}$/.test(code);
}

export const databaseErrors: ErrorMapper = (error, { t, log }) => {
  if (isDataException(error)) {
    // Last line of defence: a value the database cannot take (NUL in text, a number out of the
    // column's range, a malformed date …) is the caller's mistake. The schemas should have
    // refused it first; the SQL and the database's own text stay in the log.
    log.warn({ err: error, sqlState: error.code }, 'database refused a value: a schema limit is missing');
    return { statusCode: 400, body: { statusCode: 400, code: 'BAD_VALUE', detail: t('errors:badValue') } };
  }
  if (isDatabaseUnavailable(error)) {
    // the database is away (restart, lost connection, time-out, full pool): only this request
    // fails, the process stays up and the client may retry
    log.warn({ err: error }, 'database unavailable');
    return { statusCode: 503, headers: { 'retry-after': '5' }, body: { statusCode: 503, code: 'DATABASE_UNAVAILABLE', detail: t('errors:databaseUnavailable') } };
  }
  return undefined;
};

export default fp<{ db: Kysely<DB> }>(
  async (app, opts) => {
    app.decorate('db', opts.db as Kysely<DB>);
    app.mapErrors(databaseErrors);
  },
  { name: 'db', dependencies: ['errors'] },
);
