/**
 * The application's metrics (issue 33): `app.metrics` (server/metrics/registry.ts), which the code
 * counts its events on; the request hook (route pattern, method, status class, time); the query
 * time of the database; the gauges read at scrape time; and `GET /metrics` on the portal's own port
 * when only METRICS_TOKEN is set (settings.ts; a port of their own is server.ts).
 *
 * Gauges that need the database are read when Prometheus scrapes, in one round of cheap queries
 * bounded by `databaseTimeoutMs`: a database that is away or does not answer makes
 * `portal_database_up 0` and leaves the other database gauges out, and the scrape is answered all
 * the same. One round at a time: a scrape that comes while the last round still waits for the
 * database waits for that round (within its own time limit) instead of adding another.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sql } from 'kysely';
import { observeQueries, poolStatsOf } from '../db/connect.ts';
import { jobQueueSchema } from '../db/job-schema.ts';
import { HttpError } from '../http-error.ts';
import { emailBacklog } from '../notifications/backlog.ts';
import { deliverySettings, notificationsFile } from '../notifications/events.ts';
import { jobQueueCounts } from './job-queue.ts';
import {
  createMetrics, localExposition, METRICS_PATH, RUNTIME_ROUTE, statusClass, UNMATCHED_ROUTE, type Exposition, type PortalMetrics,
} from './registry.ts';
import { tokenAccepted } from './settings.ts';

export interface MetricsAppOptions {
  /**
   * This process's metrics; default new ones. main.ts makes them before the app, with Node's
   * default metrics, so that a worker can answer its primary from its first moment (cluster.ts).
   */
  instance?: PortalMetrics;
  /** Serves GET /metrics on the portal's own port to callers with this bearer token (METRICS_TOKEN without METRICS_PORT). */
  token?: string;
  /** The text served there: this process's metrics (default), or the whole machine's (a worker asks its primary, cluster.ts). */
  exposition?: () => Promise<Exposition>;
  /** Longest wait for the database in a scrape (default 2000 ms); then `portal_database_up 0`. */
  databaseTimeoutMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The process's metrics (server/metrics/registry.ts): count events on them. */
    metrics: PortalMetrics;
  }
}

const DEFAULT_DATABASE_TIMEOUT_MS = 2_000;

/**
 * The route label: the matched route's pattern for the API (and /metrics); one label for the
 * runtime's pages and files, whose static plugin adds a route per built file; `unmatched` for a
 * path no route serves.
 */
export function routeLabel(request: FastifyRequest): string {
  const pattern = request.routeOptions?.url;
  if (!pattern || request.is404) return UNMATCHED_ROUTE;
  return pattern.startsWith('/api/') || pattern === METRICS_PATH ? pattern : RUNTIME_ROUTE;
}

class TimedOut extends Error {}

/** `promise`, or a TimedOut rejection after `ms`; the timer never keeps the process alive. */
function within<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut(`no answer within ${ms} ms`)), ms);
    timer.unref();
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/** What the database says at a scrape. */
interface DatabaseSample {
  sessions: number;
  backlog: Awaited<ReturnType<typeof emailBacklog>>;
  queues: Awaited<ReturnType<typeof jobQueueCounts>>;
}

export default fp<MetricsAppOptions>(
  async (app, options) => {
    const metrics = options.instance ?? createMetrics();
    app.decorate('metrics', metrics);
    const databaseTimeoutMs = options.databaseTimeoutMs ?? DEFAULT_DATABASE_TIMEOUT_MS;

    // every answer, whoever gave it (a route, the not-found handler, the errors plugin, load shedding)
    app.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
      const route = routeLabel(request);
      const method = request.method;
      metrics.http.requests.inc({ route, method, status_class: statusClass(reply.statusCode) });
      metrics.http.duration.observe({ route, method }, reply.elapsedTime / 1000);
      done();
    });

    const forgetQueries = observeQueries(app.db, (ms, failed) => metrics.database.queries.observe({ outcome: failed ? 'error' : 'ok' }, ms / 1000));

    let jobSchema: string | undefined;
    const sampleDatabase = async (): Promise<DatabaseSample> => {
      if (jobSchema === undefined) {
        const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(app.db);
        jobSchema = jobQueueSchema(rows[0].schema);
      }
      const sessions = await app.db.selectFrom('user_session').select(sql<number>`count(*)::int`.as('n'))
        .where('expiresAt', '>', sql<Date>`now()`).executeTakeFirstOrThrow();
      const backlog = await emailBacklog(app.db, deliverySettings(notificationsFile(app.config.bundle)).retryLimit);
      const queues = await jobQueueCounts(app.db, jobSchema);
      return { sessions: Number(sessions.n), backlog, queues };
    };
    let inFlight: Promise<DatabaseSample> | undefined;

    const stopCollecting = metrics.onScrape(async () => {
      // in memory: always there, the database reachable or not
      const pool = poolStatsOf(app.db);
      if (pool) {
        metrics.database.connections.set({ state: 'in_use' }, pool.inUse);
        metrics.database.connections.set({ state: 'idle' }, pool.idle);
        metrics.database.waiting.set(pool.waiting);
        metrics.database.max.set(pool.max);
      }
      const version = app.config.layer.version ?? 0;
      metrics.config.version.reset(); // a reload may have dropped a variant
      for (const variant of app.config.variants) metrics.config.version.set({ variant }, version);
      metrics.config.reloadFailed.set(app.config.reloadError ? 1 : 0);

      inFlight ??= sampleDatabase().finally(() => {
        inFlight = undefined;
      });
      try {
        const sample = await within(inFlight, databaseTimeoutMs);
        metrics.database.up.set(1);
        metrics.sessions.set(sample.sessions);
        metrics.outbox.undelivered.set(sample.backlog.count);
        metrics.outbox.oldestAge.set(sample.backlog.oldestAgeSeconds);
        metrics.jobs.reset();
        for (const q of sample.queues) metrics.jobs.set({ queue: q.queue, state: q.state }, q.count);
      } catch (error) {
        metrics.database.up.set(0);
        // unknown is left out, not shown as 0: a lag of 0 would look like a healthy outbox
        metrics.sessions.remove({});
        metrics.outbox.undelivered.remove({});
        metrics.outbox.oldestAge.remove({});
        metrics.jobs.reset();
        if (!(error instanceof TimedOut)) app.log.warn({ err: error }, 'metrics: the database gauges could not be read');
      }
    });
    app.addHook('onClose', async () => {
      stopCollecting();
      forgetQueries();
    });

    const exposition = options.exposition ?? (() => localExposition(metrics));
    const token = options.token;
    // Always registered, so that the route table (tests/api/route-access.test.ts) knows it; served
    // only when METRICS_TOKEN is set without a port of its own, else a 404 like any unknown path.
    app.get(METRICS_PATH, {
      config: {
        access: 'public',
        // its bearer token is METRICS_TOKEN, never looked up as a session (plugins/auth.ts)
        ownBearerToken: true,
        // never shed under load: an overloaded process is what an operator needs to see
        pressureHandler: () => undefined,
      },
      schema: { hide: true },
    }, async (request, reply) => {
      if (!token) return reply.callNotFound();
      if (!tokenAccepted(request.headers.authorization, token)) {
        reply.header('www-authenticate', 'Bearer realm="metrics"');
        throw new HttpError(401, app.config.t('errors:unauthorized'), { code: 'UNAUTHORIZED' });
      }
      const answer = await exposition();
      return reply.type(answer.contentType).header('cache-control', 'no-store').send(answer.body);
    });
  },
  { name: 'metrics', dependencies: ['config', 'db', 'errors'] },
);
