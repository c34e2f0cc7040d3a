/**
 * Every metric of the portal, by name, in one place (issue 33; docs/deployment.md "Metrics"). Our
 * own carry the `portal_` prefix; Node's default metrics (prom-client's collectDefaultMetrics:
 * `process_*`, `nodejs_*`, event-loop lag, heap, GC) keep their customary names, which the
 * dashboards people already have expect.
 *
 * Labels are bounded: a route is its pattern (`/api/order/:id`), never the address asked; the
 * runtime's own files (one route per built file) are one label; sign-in outcomes, e-mail kinds,
 * queues and variants are fixed lists. No user, login, client, address or id is ever a label.
 *
 * Each metric says how it is combined across the worker processes of one machine (`aggregator`,
 * server/metrics/cluster.ts): counts and histograms add up, as do the connections of each worker's
 * pool; what every worker reads from the one database (queue, outbox, sessions) is the same number
 * in each, so the machine reports it once (max); the database is up only if every worker reaches it
 * (min), and the configuration version served is the oldest any worker still serves (min).
 */
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** The route label of a request no route matched (an unknown path, answered 404). */
export const UNMATCHED_ROUTE = 'unmatched';
/** The route label of the runtime's pages and files (index.html, /assets/…, the client-side routes' fallback). */
export const RUNTIME_ROUTE = 'runtime';

/** Sign-in outcomes as labels: the login history's codes (repositories/login-history.ts), in lower case. */
export const SIGN_IN_OUTCOMES = [
  'success', 'bad_credentials', 'locked', 'account_expired', 'password_expired', 'vehicle_not_assigned', 'vehicle_not_found',
  'sso_refused', 'sso_no_account', 'password_sign_in_off',
] as const;
export type SignInOutcome = (typeof SIGN_IN_OUTCOMES)[number];

/** What an e-mail was sent for. */
export const EMAIL_KINDS = ['notification', 'passwordReset'] as const;
export type EmailKind = (typeof EMAIL_KINDS)[number];

/** A job's state as counted: waiting to run (pg-boss created or retry), running, failed for good. */
export const JOB_STATES = ['queued', 'active', 'failed'] as const;
export type JobState = (typeof JOB_STATES)[number];

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const QUERY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10];

export interface MetricsOptions {
  /** Node's default metrics (process, heap, event loop, GC): on where metrics are served. */
  processMetrics?: boolean;
}

/** One process's metrics: its registry and the instruments the code updates. */
export function createMetrics(options: MetricsOptions = {}) {
  const registry = new Registry();
  const registers = [registry];
  // What is read at scrape time (the pool, the database, the configuration): prom-client asks every
  // metric at once, so the collectors run once per scrape for all the gauges that wait on them.
  const collectors = new Set<() => Promise<void>>();
  let collecting: Promise<void> | undefined;
  const collect = (): Promise<void> =>
    (collecting ??= Promise.all([...collectors].map((run) => run().catch(() => undefined))).then(() => {
      collecting = undefined;
    }));

  const metrics = {
    registry,
    /** Runs `collector` at every scrape, before the gauges are read; returns its removal. */
    onScrape(collector: () => Promise<void>): () => void {
      collectors.add(collector);
      return () => collectors.delete(collector);
    },
    http: {
      requests: new Counter({
        name: 'portal_http_requests_total',
        help: 'HTTP requests answered, by route pattern, method and status class (2xx, 4xx, 5xx …).',
        labelNames: ['route', 'method', 'status_class'] as const,
        registers,
      }),
      duration: new Histogram({
        name: 'portal_http_request_duration_seconds',
        help: 'Time from the request\'s arrival to its answer sent, by route pattern and method.',
        labelNames: ['route', 'method'] as const,
        buckets: SECONDS_BUCKETS,
        registers,
      }),
    },
    database: {
      up: new Gauge({
        name: 'portal_database_up',
        help: '1 when the database answered this scrape\'s queries in time, else 0 (the other database gauges are then left out).',
        aggregator: 'min',
        collect,
        registers,
      }),
      connections: new Gauge({
        name: 'portal_db_pool_connections',
        help: 'Database connections of the pool by state (in_use, idle); PGlite has one.',
        labelNames: ['state'] as const,
        collect,
        registers,
      }),
      waiting: new Gauge({
        name: 'portal_db_pool_waiting',
        help: 'Callers waiting for a pooled database connection.',
        collect,
        registers,
      }),
      max: new Gauge({
        name: 'portal_db_pool_max',
        help: 'Most connections the pool may open (DB_POOL_SIZE; 1 on PGlite).',
        collect,
        registers,
      }),
      queries: new Histogram({
        name: 'portal_db_query_duration_seconds',
        help: 'Time of the portal\'s SQL queries (waiting for a connection not included), by outcome (ok, error).',
        labelNames: ['outcome'] as const,
        buckets: QUERY_BUCKETS,
        registers,
      }),
    },
    jobs: new Gauge({
      name: 'portal_job_queue_jobs',
      help: 'Jobs of the job queue (pg-boss) by queue and state: queued (waiting or waiting to retry), active, failed (kept a week).',
      labelNames: ['queue', 'state'] as const,
      aggregator: 'max',
      collect,
        registers,
    }),
    outbox: {
      undelivered: new Gauge({
        name: 'portal_outbox_undelivered',
        help: 'E-mail notifications not delivered yet: queued, being sent, or failed and to be retried.',
        aggregator: 'max',
        collect,
        registers,
      }),
      oldestAge: new Gauge({
        name: 'portal_outbox_oldest_undelivered_age_seconds',
        help: 'Age of the oldest e-mail notification not delivered yet (0 when none waits).',
        aggregator: 'max',
        collect,
        registers,
      }),
    },
    emails: {
      sent: new Counter({ name: 'portal_emails_sent_total', help: 'E-mails the mail server accepted, by kind.', labelNames: ['kind'] as const, registers }),
      failed: new Counter({ name: 'portal_emails_failed_total', help: 'E-mails the mail server refused or did not answer, by kind (a notification is retried).', labelNames: ['kind'] as const, registers }),
    },
    webhooks: {
      sent: new Counter({ name: 'portal_webhooks_sent_total', help: 'Webhook calls the receiver accepted.', registers }),
      failed: new Counter({ name: 'portal_webhooks_failed_total', help: 'Webhook calls the receiver refused or did not answer.', registers }),
    },
    signIns: new Counter({
      name: 'portal_sign_ins_total',
      help: 'Sign-in attempts by outcome (success, bad_credentials, locked: refused while the login is locked …).',
      labelNames: ['outcome'] as const,
      registers,
    }),
    lockouts: new Counter({
      name: 'portal_sign_in_lockouts_total',
      help: 'Login names locked for an address after too many failed sign-ins (screens/app.json security.lockout).',
      registers,
    }),
    sessions: new Gauge({ name: 'portal_sessions_active', help: 'Sessions not expired.', aggregator: 'max', collect, registers }),
    config: {
      version: new Gauge({
        name: 'portal_config_version',
        help: 'Version of the configuration studio\'s published layer served, per client variant (0: the files alone); across workers the oldest.',
        labelNames: ['variant'] as const,
        aggregator: 'min',
        collect,
        registers,
      }),
      reloadFailed: new Gauge({
        name: 'portal_config_reload_failed',
        help: '1 when the last configuration reload was refused (an older configuration is served), else 0.',
        aggregator: 'max',
        collect,
        registers,
      }),
    },
  };

  // series that exist from the start, so that rate() and alerts see a 0 before the first event
  for (const outcome of ['success', 'bad_credentials', 'locked'] as const) metrics.signIns.inc({ outcome }, 0);
  for (const kind of EMAIL_KINDS) {
    metrics.emails.sent.inc({ kind }, 0);
    metrics.emails.failed.inc({ kind }, 0);
  }
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  return metrics;
}

export type PortalMetrics = ReturnType<typeof createMetrics>;

/**
 * The metrics only the primary of several workers has (server/metrics/cluster.ts): how many
 * workers there are and how many answered this scrape.
 */
export function createClusterMetrics() {
  const registry = new Registry();
  return {
    registry,
    workers: new Gauge({ name: 'portal_workers', help: 'Worker processes running on this machine (WORKERS).', registers: [registry] }),
    reporting: new Gauge({
      name: 'portal_workers_reporting',
      help: 'Worker processes whose metrics are in this scrape (a worker that did not answer in time is left out).',
      registers: [registry],
    }),
  };
}

/** The one path metrics are served at, on either port. */
export const METRICS_PATH = '/metrics';

/** What a scrape is answered with. */
export interface Exposition {
  contentType: string;
  body: string;
}

/** This process's metrics in Prometheus's text format. */
export async function localExposition(metrics: { registry: Registry }): Promise<Exposition> {
  return { contentType: metrics.registry.contentType, body: await metrics.registry.metrics() };
}

/** The status class label of a status code: 200 → 2xx. */
export const statusClass = (status: number): string => `${Math.floor(status / 100)}xx`;
