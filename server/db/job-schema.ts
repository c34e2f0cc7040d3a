/**
 * Where the job queue (pg-boss, server/jobs/queue.ts) keeps its tables: a schema of its
 * own beside the portal's, so its tables never mix with the portal's (nor with the generated row
 * types). The portal in `public` (the usual installation) uses pg-boss's customary `pgboss`; a
 * portal kept in another schema (DATABASE_SCHEMA, each test) gets `<schema>_pgboss`, so two
 * portals on one database, or two tests, never share a queue.
 */
export function jobQueueSchema(appSchema: string): string {
  return appSchema === 'public' ? 'pgboss' : `${appSchema}_pgboss`;
}
