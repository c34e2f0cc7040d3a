/** The database: a kysely instance on PostgreSQL or PGlite, migrated before the server listens. */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<any>;
  }
}

export default fp<{ db: Kysely<any> }>(
  async (app, opts) => {
    app.decorate('db', opts.db);
  },
  { name: 'db' },
);
