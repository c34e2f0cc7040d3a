/**
 * GET /metrics (issue 33; docs/deployment.md "Metrics"): nothing is served unless the operator asks
 * for it; with METRICS_TOKEN on the portal's own port only to a scrape carrying the token; the
 * Prometheus text format with the portal's series, requests counted by their route pattern, sign-in
 * failures and lock-outs counted, and an answer even while the database does not give one.
 * (The metrics' own port is server/metrics/server.test.ts; several processes, tests/cluster.)
 */
import { spawnSync } from 'node:child_process';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMetrics } from '../../server/metrics/registry.ts';
import { parseExposition, valueOf } from '../support/prometheus-text.ts';
import { startTestSmtp, useTestSmtp } from '../support/smtp.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const TOKEN = 'metrics-test-token-5f1c2a7e9d';

describe('metrics not asked for (neither METRICS_PORT nor METRICS_TOKEN)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => t?.close());

  it('serves no metrics to anyone: GET /metrics is a 404 like an unknown path, whatever the caller sends', async () => {
    const unknown = await t.call('GET', '/no-such-path');
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { authorization: 'Bearer ' }] as Record<string, string>[]) {
      const res = await t.call('GET', '/metrics', { headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('portal_');
      const { requestId: _id, ...body } = res.json();
      const { requestId: _other, ...unknownBody } = unknown.json();
      expect(body).toEqual(unknownBody);
    }
    const session = await t.signIn('admin');
    const asAdmin = await t.call('GET', '/metrics', { token: session });
    expect(asAdmin.statusCode).toBe(404);
    expect(asAdmin.body).not.toContain('portal_');
  });
});

describe('GET /metrics on the portal\'s port with METRICS_TOKEN', () => {
  let t: TestApp;
  const scrape = async () => {
    const res = await t.call('GET', '/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode, res.body).toBe(200);
    return { res, ...parseExposition(res.body) };
  };

  beforeAll(async () => {
    t = await startTestApp({
      // the job queue runs, so that its queues are there to count
      notifications: { worker: true },
      // a database that does not answer within this is reported down (test 'answers while the database does not')
      metrics: { token: TOKEN, instance: createMetrics({ processMetrics: true }), databaseTimeoutMs: 1_000 },
    });
  });
  afterAll(async () => t?.close());

  it('refuses a scrape without the token, with another one, or with a session\'s token (401, WWW-Authenticate: Bearer)', async () => {
    const session = await t.signIn('admin');
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}x` }, { authorization: `Bearer ${session}` }, { authorization: TOKEN }, { authorization: `Basic ${TOKEN}` }] as Record<string, string>[]) {
      const res = await t.call('GET', '/metrics', { headers });
      expect(res.statusCode, JSON.stringify(headers)).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
      expect(res.body).not.toContain('portal_');
      expect(res.json()).toMatchObject({ code: 'UNAUTHORIZED' });
    }
  });

  it('answers Prometheus\'s text format with the portal\'s series and Node\'s default metrics', async () => {
    const { res, samples, types } = await scrape();
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const names = new Set(samples.map((s) => s.name));
    for (const name of [
      'portal_http_requests_total', 'portal_http_request_duration_seconds_bucket', 'portal_http_request_duration_seconds_sum',
      'portal_database_up', 'portal_db_pool_connections', 'portal_db_pool_waiting', 'portal_db_pool_max',
      'portal_db_query_duration_seconds_bucket', 'portal_job_queue_jobs', 'portal_outbox_undelivered',
      'portal_outbox_oldest_undelivered_age_seconds', 'portal_emails_sent_total', 'portal_emails_failed_total',
      'portal_webhooks_sent_total', 'portal_webhooks_failed_total', 'portal_sign_ins_total', 'portal_sign_in_lockouts_total',
      'portal_sessions_active', 'portal_config_version', 'portal_config_reload_failed',
      'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes', 'process_cpu_user_seconds_total', 'nodejs_gc_duration_seconds_count',
    ]) expect(names, name).toContain(name);
    expect(types.get('portal_http_requests_total')).toBe('counter');
    expect(types.get('portal_http_request_duration_seconds')).toBe('histogram');
    expect(types.get('portal_database_up')).toBe('gauge');
    expect(valueOf(samples, 'portal_database_up')).toBe(1);
    // PGlite is one connection, which this scrape's own queries have just given back
    if (!process.env.DATABASE_URL) expect(valueOf(samples, 'portal_db_pool_max')).toBe(1);
    else expect(valueOf(samples, 'portal_db_pool_max')).toBeGreaterThan(1);
    expect(valueOf(samples, 'portal_job_queue_jobs', { queue: 'notification-email', state: 'failed' })).toBe(0);
    for (const name of ['portal_webhooks_sent_total', 'portal_webhooks_failed_total']) expect(valueOf(samples, name)).toBe(0);
    expect(valueOf(samples, 'portal_config_version', { variant: 'default' })).toBe(0);
    expect(valueOf(samples, 'portal_sessions_active')).toBeGreaterThanOrEqual(1); // the admin's, above
    // every series' labels are from fixed lists: no user, login or address among them
    const labelNames = new Set(samples.flatMap((s) => Object.keys(s.labels)));
    expect([...labelNames].filter((l) => !['route', 'method', 'status_class', 'state', 'outcome', 'kind', 'queue', 'variant', 'le', 'version', 'major', 'minor', 'patch', 'kind', 'space', 'type'].includes(l))).toEqual([]);
  });

  it.runIf(spawnSync('promtool', ['--version']).status === 0)('names its metrics as Prometheus\'s own linter wants them (promtool check metrics)', async () => {
    const { res } = await scrape();
    const lint = spawnSync('promtool', ['check', 'metrics'], { input: res.body, encoding: 'utf8' });
    // prom-client's default metrics have findings of their own (nodejs_active_handles_total is a gauge): ours may not
    const findings = `${lint.stdout}${lint.stderr}`.split('\n').filter((line) => line.startsWith('portal_'));
    expect(findings).toEqual([]);
  });

  it('counts a request under its route pattern, method and status class, never under the address asked', async () => {
    const before = (await scrape()).samples;
    const session = await t.signIn('manager');
    expect((await t.call('GET', '/api/contract/987654', { token: session })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/contract/987655', { token: session })).statusCode).toBe(404);
    expect((await t.call('GET', '/api/terms/status', { token: session })).statusCode).toBe(200);
    expect((await t.call('GET', '/api/nothing-here/12345')).statusCode).toBe(404);
    const { samples, res } = await scrape();
    const delta = (labels: Record<string, string>) =>
      (valueOf(samples, 'portal_http_requests_total', labels) ?? 0) - (valueOf(before, 'portal_http_requests_total', labels) ?? 0);
    expect(delta({ route: '/api/contract/:id', method: 'GET', status_class: '4xx' })).toBe(2);
    expect(delta({ route: '/api/terms/status', method: 'GET', status_class: '2xx' })).toBe(1);
    expect(delta({ route: '/api/user/auth', method: 'POST', status_class: '2xx' })).toBe(1);
    expect(delta({ route: 'unmatched', method: 'GET', status_class: '4xx' })).toBe(1);
    expect(valueOf(samples, 'portal_http_request_duration_seconds_count', { route: '/api/contract/:id', method: 'GET' })).toBeGreaterThanOrEqual(2);
    expect(valueOf(samples, 'portal_http_request_duration_seconds_bucket', { route: '/api/contract/:id', method: 'GET', le: '+Inf' })).toBeGreaterThanOrEqual(2);
    expect(res.body).not.toContain('987654');
    expect(res.body).not.toContain('nothing-here');
    // the scrapes themselves are requests too, under their own route
    expect(valueOf(samples, 'portal_http_requests_total', { route: '/metrics', method: 'GET', status_class: '2xx' })).toBeGreaterThanOrEqual(2);
  });

  it('counts failed sign-ins, the lock-out the last of them causes, and the attempt refused while locked', async () => {
    const { maxFailures } = t.app.config.bundle.app.security.lockout as { maxFailures: number };
    const before = (await scrape()).samples;
    const address = '203.0.113.33';
    for (let i = 0; i < maxFailures; i++) {
      const res = await t.call('POST', '/api/user/auth', { body: { username: 'manager', password: 'Zgaduje123!', role: 'MANAGER' }, remoteAddress: address });
      expect(res.statusCode).toBe(401);
    }
    const locked = await t.call('POST', '/api/user/auth', { body: { username: 'manager', password: 'Manager123!', role: 'MANAGER' }, remoteAddress: address });
    expect(locked.statusCode).toBe(429);
    const { samples } = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) => (valueOf(samples, name, labels) ?? 0) - (valueOf(before, name, labels) ?? 0);
    expect(delta('portal_sign_ins_total', { outcome: 'bad_credentials' })).toBe(maxFailures);
    expect(delta('portal_sign_in_lockouts_total')).toBe(1);
    expect(delta('portal_sign_ins_total', { outcome: 'locked' })).toBe(1);
    expect(delta('portal_sign_ins_total', { outcome: 'success' })).toBe(0);
    expect(delta('portal_http_requests_total', { route: '/api/user/auth', method: 'POST', status_class: '4xx' })).toBe(maxFailures + 1);
  });

  it('counts the e-mails the mail server took and those it refused, by kind', async () => {
    const smtp = await startTestSmtp();
    try {
      await useTestSmtp(t.app.db, smtp);
      const before = (await scrape()).samples;
      const reset = () => t.call('POST', '/api/password/reset-password', { body: { email: 'ewa.kaczmarek@agrotech.pl' } });
      expect((await reset()).statusCode).toBe(200);
      await smtp.nextMail();
      smtp.refuseAll(true);
      expect((await reset()).statusCode).toBe(503);
      const { samples } = await scrape();
      const delta = (name: string) => (valueOf(samples, name, { kind: 'passwordReset' }) ?? 0) - (valueOf(before, name, { kind: 'passwordReset' }) ?? 0);
      expect(delta('portal_emails_sent_total')).toBe(1);
      expect(delta('portal_emails_failed_total')).toBe(1);
      expect(valueOf(samples, 'portal_emails_sent_total', { kind: 'notification' })).toBe(0);
    } finally {
      await t.app.db.updateTable('email_config').set({ smtpHost: null }).execute();
      await smtp.close();
    }
  });

  it('gives the age of the oldest e-mail not delivered yet, as the database\'s clock has it', async () => {
    const manager = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'manager').executeTakeFirstOrThrow();
    await t.app.db.insertInto('notification').values({
      event: 'orderStatusChanged', userId: manager.id, channel: 'email', email: 'manager@example.invalid', dedupeKey: 'metrics-test:oldest',
      state: 'queued', createdAt: sql<Date>`now() - interval '20 minutes'`,
    }).execute();
    const { samples } = await scrape();
    expect(valueOf(samples, 'portal_outbox_oldest_undelivered_age_seconds')).toBeGreaterThanOrEqual(20 * 60);
    expect(valueOf(samples, 'portal_outbox_undelivered')).toBeGreaterThanOrEqual(1);
    await t.app.db.updateTable('notification').set({ state: 'sent', sentAt: new Date() }).where('dedupeKey', '=', 'metrics-test:oldest').execute();
    const after = (await scrape()).samples;
    expect(valueOf(after, 'portal_outbox_oldest_undelivered_age_seconds')).toBeLessThan(20 * 60);
  });

  it('answers while the database does not: portal_database_up 0, the database\'s gauges left out, the pool\'s still there', async () => {
    // a transaction holds the table the scrape counts (on PGlite the one connection itself) until the scrape has answered
    const answer = await t.app.db.transaction().execute(async (trx) => {
      await sql`lock table user_session in access exclusive mode`.execute(trx);
      return scrape();
    });
    expect(valueOf(answer.samples, 'portal_database_up')).toBe(0);
    for (const name of ['portal_sessions_active', 'portal_outbox_oldest_undelivered_age_seconds', 'portal_outbox_undelivered', 'portal_job_queue_jobs']) {
      expect(answer.samples.filter((s) => s.name === name), name).toEqual([]);
    }
    expect(valueOf(answer.samples, 'portal_db_pool_connections', { state: 'in_use' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(answer.samples, 'portal_http_requests_total', { route: '/metrics', method: 'GET', status_class: '2xx' })).toBeGreaterThanOrEqual(1);
    // and once the database answers again, so do its gauges
    const { samples } = await scrape();
    expect(valueOf(samples, 'portal_database_up')).toBe(1);
    expect(valueOf(samples, 'portal_sessions_active')).toBeGreaterThanOrEqual(1);
  });

  // last: the database is closed for good
  it('still answers when the database is gone, with portal_database_up 0', async () => {
    await t.app.db.destroy();
    const { samples } = await scrape();
    expect(valueOf(samples, 'portal_database_up')).toBe(0);
    expect(samples.filter((s) => s.name === 'portal_sessions_active')).toEqual([]);
  });
});
