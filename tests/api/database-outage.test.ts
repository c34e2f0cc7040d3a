/**
 * The server outlives its database (PostgreSQL only; PGlite runs inside the process and cannot go
 * away). The application runs in this process on its own pool, named by a unique application_name,
 * reaching PostgreSQL through a small TCP relay that the test can cut, so neither the shared
 * server nor other tests are disturbed:
 *
 * 1. under concurrent signed table calls and writes, every backend of the pool is killed with
 *    pg_terminate_backend (what a PostgreSQL restart does: FATAL 57P01 on every connection);
 * 2. the relay then refuses connections for a while (the database is away) and comes back.
 *
 * Throughout: the process keeps running with no unhandled error, every answer is 200 or 503 (a
 * Polish "try again"), /api/health is 503 while the database is away and 200 within 5 s of its
 * return, and every write is whole or absent.
 */
import { randomBytes } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { openTestDatabase, type TestDatabase } from '../../server/seed/testing.ts';
import { DEMO, ROOT } from '../support/test-app.ts';

const DATABASE_URL = process.env.DATABASE_URL;

/** A TCP relay to PostgreSQL that can drop every connection and refuse new ones. */
async function startRelay(target: URL) {
  const sockets = new Set<Socket>();
  let up = true;
  const server: Server = createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => sockets.delete(s));
    }
    client.pipe(upstream).pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    down() {
      up = false;
      for (const s of sockets) s.destroy();
    },
    up() {
      up = true;
    },
    close: () => new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    }),
  };
}

describe.skipIf(!DATABASE_URL)('the server outlives its database (PostgreSQL)', () => {
  const applicationName = `portal_outage_${randomBytes(4).toString('hex')}`;
  let seeded: TestDatabase;
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let served: DatabaseHandle;
  let app: FastifyInstance;
  let token: string;
  const unhandled: unknown[] = [];
  const everyOutcome: { status: number; body: any; write?: string }[] = [];
  let n = 0; // request counter across the whole drill: every write has its own name
  const onUnhandled = (error: unknown) => unhandled.push(error);

  beforeAll(async () => {
    process.on('uncaughtException', onUnhandled);
    process.on('unhandledRejection', onUnhandled);
    seeded = await openTestDatabase({ seed: true });
    relay = await startRelay(new URL(DATABASE_URL!));
    const relayed = new URL(seeded.databaseUrl!);
    relayed.hostname = '127.0.0.1';
    relayed.port = String(relay.port);
    served = await openDatabase({
      databaseUrl: relayed.toString(),
      schema: seeded.schema,
      applicationName,
      maxConnections: 4,
      limits: { connectTimeoutMs: 2_000, maxQueue: 100 },
    });
    app = await buildApp({ secondFactor: { enforce: false }, db: served.db, root: ROOT, version: 'test' });
    await app.ready();
    token = await signIn();
  });

  afterAll(async () => {
    await app?.close();
    await served?.close();
    await relay?.close();
    await seeded?.close();
    process.off('uncaughtException', onUnhandled);
    process.off('unhandledRejection', onUnhandled);
  });

  const signed = (url: string, body: unknown, bearer?: string) => {
    const payload = JSON.stringify(body);
    const nonce = makeNonce();
    return app.inject({
      method: 'POST', url, payload,
      headers: {
        'content-type': 'application/json',
        'x-nonce': nonce,
        'x-signature': signBody(app.config.bundle.app.name, nonce, payload),
        ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
      },
    });
  };

  async function signIn(): Promise<string> {
    const res = await signed('/api/user/auth', DEMO.manager);
    expect(res.statusCode).toBe(200);
    return res.json().id_token;
  }

  interface Outcome { status: number; body: any; write?: string }

  /** Concurrent workers alternating a table block and a saved-filter write until stop() is called. */
  function load(workers: number) {
    const outcomes: Outcome[] = [];
    let running = true;
    const worker = async (w: number) => {
      while (running) {
        const i = n++;
        if (i % 2 === 0) {
          const res = await signed('/api/car/table2', { startRow: 0, endRow: 30, sortModel: [{ colId: 'rejestr', sort: 'asc' }] }, token);
          outcomes.push({ status: res.statusCode, body: res.json() });
        } else {
          const name = `${applicationName}-${w}-${i}`;
          const res = await signed('/api/user-table-filter', { name, tablename: 'ORDER_TABLE', filterModel: { autNr: { filterType: 'text', type: 'contains', filter: 'A' } } }, token);
          outcomes.push({ status: res.statusCode, body: res.json(), write: name });
          everyOutcome.push(outcomes.at(-1)!);
        }
      }
    };
    const done = Promise.all(Array.from({ length: workers }, (_, w) => worker(w)));
    return {
      outcomes,
      async until(count: number) {
        while (outcomes.length < count) await new Promise((r) => setTimeout(r, 20));
      },
      async stop() {
        running = false;
        await done;
        return outcomes;
      },
    };
  }

  const health = async () => (await app.inject({ method: 'GET', url: '/api/health' })).statusCode;

  async function secondsUntilHealthy(): Promise<number> {
    const start = Date.now();
    while ((await health()) !== 200) await new Promise((r) => setTimeout(r, 100));
    return (Date.now() - start) / 1000;
  }

  /** Saved filters of this run as the database has them (read on the test's own connection). */
  async function savedFilters() {
    return seeded.db.selectFrom('user_table_filter').selectAll().where('name', 'like', `${applicationName}-%`).execute();
  }

  function expectOnly200or503(outcomes: Outcome[]) {
    for (const o of outcomes) {
      expect([200, 503], JSON.stringify(o)).toContain(o.status);
      if (o.status === 503) expect(o.body.detail).toBe('Baza danych jest chwilowo niedostępna. Spróbuj ponownie za chwilę.');
    }
  }

  it('keeps serving when every backend of its pool is terminated under load, answering only 200 or 503', async () => {
    const traffic = load(12);
    await traffic.until(40);
    const admin = new pg.Client({ connectionString: DATABASE_URL });
    await admin.connect();
    let killed: number;
    try {
      const { rows } = await admin.query(
        'select pg_terminate_backend(pid) as killed from pg_stat_activity where application_name = $1', [applicationName],
      );
      killed = rows.filter((r) => r.killed).length;
    } finally {
      await admin.end();
    }
    const afterKill = traffic.outcomes.length;
    await traffic.until(afterKill + 80);
    const outcomes = await traffic.stop();

    expect(killed).toBeGreaterThan(0);
    expectOnly200or503(outcomes);
    // the pool replaced the killed connections: the last answers are good again
    expect(outcomes.slice(-10).every((o) => o.status === 200)).toBe(true);
    expect(await secondsUntilHealthy()).toBeLessThan(5);
    expect(unhandled).toEqual([]);
  });

  it('answers 503 while the database is away, 200 within 5 s of its return, without a restart', async () => {
    expect(await health()).toBe(200);
    const traffic = load(6);
    await traffic.until(traffic.outcomes.length + 10);
    relay.down();
    const whileAway = traffic.outcomes.length;
    await traffic.until(whileAway + 30);
    expect(await health()).toBe(503);
    const table = await signed('/api/car/table2', { startRow: 0, endRow: 30 }, token);
    expect(table.statusCode).toBe(503);
    expect(table.json()).toMatchObject({ statusCode: 503, code: 'DATABASE_UNAVAILABLE', detail: 'Baza danych jest chwilowo niedostępna. Spróbuj ponownie za chwilę.' });
    relay.up();
    expect(await secondsUntilHealthy()).toBeLessThan(5);
    await traffic.until(traffic.outcomes.length + 20);
    const outcomes = await traffic.stop();

    expectOnly200or503(outcomes);
    expect(outcomes.slice(whileAway + 10, whileAway + 30).every((o) => o.status === 503)).toBe(true);
    expect(outcomes.slice(-10).every((o) => o.status === 200)).toBe(true);
    // signing in works again on fresh connections
    expect(await signIn()).toEqual(expect.any(String));
    expect(unhandled).toEqual([]);
  });

  it('leaves every write whole or absent: each answered 200 is saved completely', async () => {
    const rows = await savedFilters();
    const saved = new Map(rows.map((r) => [r.name, r]));
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.tablename).toBe('ORDER_TABLE');
      expect(row.filterModel).toEqual({ autNr: { filterType: 'text', type: 'contains', filter: 'A' } });
      expect(row.userId).toEqual(expect.any(Number));
    }
    // no duplicates from retries inside the server, one row per name at most
    expect(saved.size).toBe(rows.length);
    const confirmed = everyOutcome.filter((o) => o.status === 200).map((o) => o.write);
    expect(confirmed.length).toBeGreaterThan(0);
    for (const name of confirmed) expect(saved.has(name!), name).toBe(true);
  });
});
