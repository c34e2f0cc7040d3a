/**
 * One scrape gives the whole machine (issue 33; docs/deployment.md "Metrics"): a portal of two
 * workers (WORKERS=2) serves on METRICS_PORT, from its primary, the sum of its workers' counts and
 * the database's numbers once, not once per worker; its own port serves no metrics. A second portal
 * with METRICS_TOKEN alone answers a scrape on its own port, whichever worker takes it, with the
 * machine's metrics too.
 *
 * Always on PostgreSQL (DATABASE_URL, or the local one at 127.0.0.1:5432): PGlite belongs to one process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { call, freePort, startPortal, TEST_POSTGRES_URL, type PortalProcess } from '../support/portal-process.ts';
import { parseExposition, valueOf, type Sample } from '../support/prometheus-text.ts';
import { DEMO } from '../support/test-app.ts';

const SCHEMA = `metrics_${process.pid}`;
const TOKEN = 'cluster-metrics-token-7c9e1f';

describe('metrics of a machine with several workers', () => {
  let a: PortalProcess;
  let b: PortalProcess | undefined;
  let metricsPort: number;
  let database: DatabaseHandle;
  let env: Record<string, string>;

  /** A scrape of a's metrics port (a new connection each time). */
  const scrape = async (token: string | null = TOKEN): Promise<{ status: number; samples: Sample[] }> => {
    const answer = await call(metricsPort, 'GET', '/metrics', { token: token ?? undefined });
    return { status: answer.status, samples: answer.status === 200 ? parseExposition(answer.body.toString()).samples : [] };
  };

  beforeAll(async () => {
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
    env = { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: SCHEMA, SHUTDOWN_TIMEOUT_MS: '5000', WORKERS: '2' };
    metricsPort = await freePort();
    a = startPortal({ ...env, INSTANCE_ID: 'a', PORT: String(await freePort()), METRICS_PORT: String(metricsPort), METRICS_TOKEN: TOKEN });
    await a.ready();
    database = await openDatabase({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await database?.close();
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
  });

  it('serves the metrics port only with the token, and no metrics on the portal\'s own port', async () => {
    expect((await scrape(null)).status).toBe(401);
    expect((await scrape('another-token-0123456789')).status).toBe(401);
    const own = await call(a.port, 'GET', '/metrics', { token: TOKEN });
    expect(own.status).toBe(404);
    expect(own.body.toString()).not.toContain('portal_');
  });

  it('adds up the requests every worker answered, and says every worker reported', async () => {
    const before = (await scrape()).samples;
    expect(valueOf(before, 'portal_workers')).toBe(2);
    expect(valueOf(before, 'portal_workers_reporting')).toBe(2);
    const health = { route: '/api/health', method: 'GET', status_class: '2xx' };
    const servedBy = new Set<string>();
    const calls = 20;
    for (let i = 0; i < calls; i++) {
      const answer = await call(a.port, 'GET', '/api/health');
      expect(answer.status).toBe(200);
      servedBy.add(answer.servedBy);
    }
    // a new connection per call: node:cluster hands them to the workers in turn
    expect([...servedBy].filter((s) => s.startsWith('a:')), [...servedBy].join(' ')).toHaveLength(2);
    const after = (await scrape()).samples;
    // ready() polled /api/health before, so the count did not start at 0
    expect((valueOf(after, 'portal_http_requests_total', health) ?? 0) - (valueOf(before, 'portal_http_requests_total', health) ?? 0)).toBe(calls);
    // the pools of both workers: each keeps at least the two warm connections of DEFAULT_POOL_LIMITS
    expect(valueOf(after, 'portal_db_pool_max')).toBe(20);
    expect(valueOf(after, 'portal_database_up')).toBe(1);
  });

  it('reports what the database holds once for the machine, not once per worker', async () => {
    const signingName = (await call(a.port, 'GET', '/api/init/pre-config')).json().name;
    for (const account of ['admin', 'manager', 'kierowca'] as const) {
      const signIn = await call(a.port, 'POST', '/api/user/auth', { body: DEMO[account], signingName });
      expect(signIn.status, signIn.body.toString()).toBe(200);
    }
    const active = await database.db.selectFrom('user_session').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('expiresAt', '>', new Date()).executeTakeFirstOrThrow();
    const { samples } = await scrape();
    expect(Number(active.n)).toBe(3);
    expect(valueOf(samples, 'portal_sessions_active')).toBe(3);
    expect(valueOf(samples, 'portal_sign_ins_total', { outcome: 'success' })).toBe(3);
    expect(valueOf(samples, 'portal_outbox_oldest_undelivered_age_seconds')).toBeDefined();
    // the configuration version is the oldest any worker serves, not a sum
    expect(valueOf(samples, 'portal_config_version', { variant: 'default' })).toBe(0);
    // Node's own metrics, combined as prom-client says (the version once, the heaps added up)
    expect(samples.filter((s) => s.name === 'nodejs_version_info')).toHaveLength(1);
    expect(valueOf(samples, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('with METRICS_TOKEN alone, answers a scrape on the portal\'s port with the whole machine, whichever worker takes it', async () => {
    b = startPortal({ ...env, INSTANCE_ID: 'b', PORT: String(await freePort()), METRICS_TOKEN: TOKEN });
    await b.ready();
    expect((await call(b.port, 'GET', '/metrics')).status).toBe(401);
    const servedBy = new Set<string>();
    for (let i = 0; i < 4; i++) {
      const answer = await call(b.port, 'GET', '/metrics', { token: TOKEN });
      expect(answer.status, answer.body.toString()).toBe(200);
      servedBy.add(answer.servedBy);
      const { samples } = parseExposition(answer.body.toString());
      expect(valueOf(samples, 'portal_workers_reporting')).toBe(2);
      expect(valueOf(samples, 'portal_db_pool_max')).toBe(20);
    }
    expect(servedBy.size).toBe(2);
  }, 120_000);
});
