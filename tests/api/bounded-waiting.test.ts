/**
 * Bounded waiting on the HTTP side and answers when the database cannot be reached: a body
 * trickled byte by byte is cut, a database that refuses connections gives 503 with a Polish text
 * (and a blocking initialization error), an overloaded process sheds new API calls with 503 and still serves the portal's pages.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

describe('a request body sent too slowly', () => {
  let t: TestApp;
  let slow: FastifyInstance;
  beforeAll(async () => {
    t = await startTestApp();
    slow = await buildApp({ db: t.app.db, root: ROOT, version: 'test', limits: { requestTimeoutMs: 1_500, sampleIntervalMs: 200 } });
    await slow.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await slow?.close();
    await t?.close();
  });

  it('is cut with 408 once the request time-out passes, long before the body would be complete', async () => {
    const { port } = slow.server.address() as AddressInfo;
    const body = JSON.stringify({ username: 'manager', password: 'Manager123!', role: 'MANAGER', padding: 'x'.repeat(40) });
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    let sent = 0;
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('error', () => undefined);
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    socket.write(`POST /api/user/auth HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    const trickle = setInterval(() => {
      if (socket.destroyed || sent >= body.length) return;
      socket.write(body[sent++]);
    }, 1_000);
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    clearInterval(trickle);
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(sent).toBeLessThan(body.length / 4);
  });
});

describe('a database that cannot be reached', () => {
  let database: DatabaseHandle;
  let app: FastifyInstance;
  beforeAll(async () => {
    // nothing listens on port 1: every connection attempt is refused
    database = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:1/none', limits: { connectTimeoutMs: 1_000 } });
    app = await buildApp({ db: database.db, root: ROOT, version: 'test' });
    await app.ready();
  });
  afterAll(async () => {
    await app?.close();
    await database?.close();
  });

  it('makes /api/health answer 503', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ status: 'DOWN' });
  });

  it('answers a data call with 503 and the Polish "try again" text, not 500', async () => {
    const payload = JSON.stringify({ username: 'manager', password: 'Manager123!', role: 'MANAGER' });
    const nonce = makeNonce();
    const res = await app.inject({
      method: 'POST', url: '/api/user/auth', payload,
      headers: { 'content-type': 'application/json', 'x-nonce': nonce, 'x-signature': signBody(app.config.bundle.app.name, nonce, payload) },
    });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ statusCode: 503, code: 'DATABASE_UNAVAILABLE', detail: 'Baza danych jest chwilowo niedostępna. Spróbuj ponownie za chwilę.', requestId: res.headers['x-request-id'] });
  });

  it('still answers the pre-configuration, with the blocking "no database connection" error', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/init/pre-config' });
    expect(res.statusCode).toBe(200);
    expect(res.json().compatibility).toEqual([{ initError: 'init:databaseConnection', current: null, required: null, initializationBlocking: true }]);
  });
});

describe('an overloaded process', () => {
  let t: TestApp;
  let loaded: FastifyInstance;
  beforeAll(async () => {
    t = await startTestApp();
    // a heap limit every process exceeds: the shedding is on from the first measurement
    loaded = await buildApp({ db: t.app.db, root: ROOT, version: 'test', limits: { maxHeapUsedBytes: 1, sampleIntervalMs: 50 } });
    await loaded.ready();
  });
  afterAll(async () => {
    await loaded?.close();
    await t?.close();
  });

  it('refuses new requests at once with 503 and a Polish text instead of queueing them', async () => {
    while (!(loaded as any).isUnderPressure()) await new Promise((r) => setTimeout(r, 20));
    const res = await loaded.inject({ method: 'GET', url: '/api/init/pre-config' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ statusCode: 503, code: 'OVERLOADED', detail: 'Serwer jest chwilowo przeciążony. Spróbuj ponownie za chwilę.', requestId: res.headers['x-request-id'] });
    // the same application without the limit answers normally
    expect((await t.call('GET', '/api/init/pre-config')).statusCode).toBe(200);
  });

  it('answers the health check 503 OVERLOADED, so a load balancer sends new users elsewhere', async () => {
    while (!(loaded as any).isUnderPressure()) await new Promise((r) => setTimeout(r, 20));
    const res = await loaded.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'OVERLOADED', detail: 'Serwer jest chwilowo przeciążony. Spróbuj ponownie za chwilę.' });
  });

  it('still serves the portal’s pages and files, so a person sees the portal and its "try again", not a bare 503', async () => {
    const site = mkdtempSync(join(tmpdir(), 'portal-dist-'));
    mkdirSync(join(site, 'assets'));
    writeFileSync(join(site, 'index.html'), '<!doctype html><title>Portal</title><script type="module" src="/assets/index-AbC123.js"></script>');
    writeFileSync(join(site, 'assets/index-AbC123.js'), 'console.log(1);');
    const withPages = await buildApp({ db: t.app.db, root: ROOT, version: 'test', staticDir: site, limits: { maxHeapUsedBytes: 1, sampleIntervalMs: 50 } });
    try {
      await withPages.ready();
      while (!(withPages as any).isUnderPressure()) await new Promise((r) => setTimeout(r, 20));
      const page = await withPages.inject({ method: 'GET', url: '/app/dane-pojazdu' });
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain('<title>Portal</title>');
      expect((await withPages.inject({ method: 'GET', url: '/assets/index-AbC123.js' })).statusCode).toBe(200);
      // the API under the same pressure is shed, however its path is spelt (the matched route decides)
      expect((await withPages.inject({ method: 'GET', url: '/api/init/pre-config' })).statusCode).toBe(503);
      expect((await withPages.inject({ method: 'GET', url: '/%61pi/init/pre-config' })).statusCode).toBe(503);
    } finally {
      await withPages.close();
      rmSync(site, { recursive: true, force: true });
    }
  });
});
