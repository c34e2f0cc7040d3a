/**
 * The metrics' own port (METRICS_PORT): GET /metrics and nothing else, the token when one is set,
 * a 503 rather than a hang when the metrics cannot be had.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startMetricsServer, type MetricsServer } from './server.ts';

const TOKEN = 'port-test-token-0123456789';
const EXPOSITION = { contentType: 'text/plain; version=0.0.4; charset=utf-8', body: 'portal_database_up 1\n' };

function get(port: number, path: string, headers: Record<string, string> = {}, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the metrics port', () => {
  let server: MetricsServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('with METRICS_TOKEN answers only a scrape that carries it', async () => {
    server = await startMetricsServer({ port: 0, host: '127.0.0.1', token: TOKEN, exposition: async () => EXPOSITION });
    const refused = await get(server.port, '/metrics');
    expect(refused.status).toBe(401);
    expect(refused.headers['www-authenticate']).toBe('Bearer realm="metrics"');
    expect(refused.body).not.toContain('portal_');
    expect((await get(server.port, '/metrics', { authorization: 'Bearer wrong-token-0123456789' })).status).toBe(401);
    const served = await get(server.port, '/metrics', { authorization: `Bearer ${TOKEN}` });
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe(EXPOSITION.contentType);
    expect(served.body).toBe(EXPOSITION.body);
  });

  it('without a token answers anyone who reaches it, at /metrics only, GET and HEAD only', async () => {
    server = await startMetricsServer({ port: 0, host: '127.0.0.1', exposition: async () => EXPOSITION });
    expect((await get(server.port, '/metrics')).body).toBe(EXPOSITION.body);
    expect((await get(server.port, '/metrics?x=1')).status).toBe(200);
    expect((await get(server.port, '/api/health')).status).toBe(404);
    expect((await get(server.port, '/')).status).toBe(404);
    expect((await get(server.port, '/metrics', {}, 'POST')).status).toBe(405);
    const head = await get(server.port, '/metrics', {}, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('answers 503 when the metrics cannot be had, and tells the log', async () => {
    const errors: unknown[] = [];
    server = await startMetricsServer({
      port: 0, host: '127.0.0.1', exposition: async () => { throw new Error('no workers'); }, onError: (e) => errors.push(e),
    });
    expect((await get(server.port, '/metrics')).status).toBe(503);
    expect(String(errors[0])).toContain('no workers');
  });
});
