/**
 * Webhooks (issue 35): 10 000 messages queued for one endpoint and delivered to a local HTTP
 * receiver; messages per second with one server process and with two.
 *
 * Each server runs in a process of its own (server-process.ts: server/main.ts), with its delivery
 * worker as it comes (screens/webhooks.json `delivery`: 16 at once, 4 per endpoint), on a schema of
 * its own created afresh for the run (migrated and seeded at start) and dropped after. The
 * receiver is node:http in this process on 127.0.0.1 (WEBHOOK_ALLOW_HOSTS), answering 204 and
 * counting each `webhook-id`, so a message that arrived twice is counted. The endpoint is added
 * through the API (its secret encrypted by the server); the messages are written straight into
 * the outbox with their pg-boss jobs (as a change's transaction writes them, in batches of 500),
 * each about a record of its own, so that the figure is the delivery's, not the events' sources'.
 *
 *   node --import tsx tools/bench/webhooks.ts [--count 10000] [--schema bench_webhooks] [--quick]
 */
import http from 'node:http';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { PgBoss } from 'pg-boss';
import { dropSchema, openDatabase } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import { WEBHOOK_QUEUE } from '../../server/webhooks/service.ts';
import { apiClient } from './http.ts';
import { startServer, type ServerProcess } from './server-process.ts';

export const WEBHOOKS = 10_000;
const BATCH = 500;
const DEADLINE_MS = 10 * 60_000;
const f1 = (n: number) => n.toFixed(1);
const n0 = (n: number) => n.toLocaleString('en-US');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface WebhookBenchInput {
  root: string;
  databaseUrl: string;
  schema: string;
  count: number;
  log: (m: string) => void;
}

function startReceiver() {
  const seen = new Set<string>();
  let count = 0;
  let duplicates = 0;
  let last = NaN;
  const server = http.createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      if (seen.has(id)) duplicates++;
      seen.add(id);
      count++;
      last = performance.now();
      response.writeHead(204).end();
    });
  });
  return new Promise<{ port: number; received: () => number; duplicates: () => number; last: () => number; close: () => Promise<void> }>((r) => server.listen(0, '127.0.0.1', () => r({
    port: (server.address() as { port: number }).port,
    received: () => count, duplicates: () => duplicates, last: () => last,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  })));
}

export async function webhookFigures(o: WebhookBenchInput): Promise<string[]> {
  if (!/_webhooks$/.test(o.schema)) throw new Error(`the webhooks bench drops its schema: give it one of its own ending in _webhooks, not "${o.schema}"`);
  const jobSchema = jobQueueSchema(o.schema);
  await dropSchema({ databaseUrl: o.databaseUrl, schema: o.schema });
  await dropSchema({ databaseUrl: o.databaseUrl, schema: jobSchema });
  const receiver = await startReceiver();
  const loadAtStart = os.loadavg()[0].toFixed(1);
  const env = { DATABASE_URL: o.databaseUrl, DATABASE_SCHEMA: o.schema, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', DB_APPLICATION_NAME: 'fleet-portal-bench-webhooks' };
  o.log(`webhooks: starting a server on a fresh schema ${o.schema}…`);
  const servers: ServerProcess[] = [await startServer(o.root, env)];
  const database = await openDatabase({ databaseUrl: o.databaseUrl, schema: o.schema });
  const boss = new PgBoss({ connectionString: o.databaseUrl, schema: jobSchema, supervise: false, schedule: false, migrate: false });
  await boss.start();
  try {
    const preConfig = await (await fetch(`${servers[0].baseUrl}/api/init/pre-config`)).json() as { name: string };
    const api = apiClient(servers[0].baseUrl, preConfig.name);
    const { id_token: admin } = await api.post<{ id_token: string }>('/user/auth', { username: DEMO_ACCOUNTS.admin.login, password: DEMO_ACCOUNTS.admin.password, role: 'MANAGER' });
    const { endpoint } = await api.post<{ endpoint: { id: number } }>('/webhooks/endpoints', { url: `http://127.0.0.1:${receiver.port}/events`, events: ['order.created'] }, admin);

    /** `count` messages written into the outbox with their jobs; seconds from the first write to the last arrival. */
    const batch = async (count: number, label: string) => {
      const base = receiver.received();
      const start = performance.now();
      for (let done = 0; done < count; done += BATCH) {
        const n = Math.min(BATCH, count - done);
        const rows = await sql<{ id: string }>`
          insert into webhook_message ("eventId", "endpointId", "event", "lane", "payload")
          select 'msg_bench_' || ${label} || '_' || (${done} + i), ${endpoint.id}, 'order.created', 'bench:' || ${label} || ':' || (${done} + i),
                 jsonb_build_object('type', 'order.created', 'timestamp', now(), 'data', jsonb_build_object('order', jsonb_build_object('autId', ${done} + i)))
          from generate_series(1, ${n}) i returning id`.execute(database.db);
        await boss.insert(WEBHOOK_QUEUE, rows.rows.map((r) => ({ data: { id: Number(r.id), endpointId: endpoint.id } })));
      }
      const queuedAt = performance.now();
      const until = Date.now() + DEADLINE_MS;
      while (receiver.received() - base < count) {
        if (Date.now() > until) throw new Error(`webhooks: ${receiver.received() - base} of ${count} arrived within ${DEADLINE_MS / 1000} s`);
        await sleep(50);
      }
      const seconds = (receiver.last() - start) / 1000;
      return { count, seconds, queueSeconds: (queuedAt - start) / 1000, rate: count / seconds };
    };

    await batch(50, 'warm');
    o.log(`webhooks: ${n0(o.count)} messages, one server process…`);
    const one = await batch(o.count, 'one');
    o.log(`  ${n0(one.count)} in ${f1(one.seconds)} s: ${f1(one.rate)}/s (queued in ${f1(one.queueSeconds)} s)`);
    o.log('webhooks: a second server process on the same schema…');
    servers.push(await startServer(o.root, env));
    await batch(50, 'warm2');
    const two = await batch(o.count, 'two');
    o.log(`  ${n0(two.count)} in ${f1(two.seconds)} s: ${f1(two.rate)}/s`);
    const states = (await sql<{ state: string; n: number }>`select state, count(*)::int as n from webhook_message group by state order by state`.execute(database.db)).rows;
    return ['', `### Webhooks: ${n0(o.count)} messages to a local receiver`, '',
      `Server processes (\`server/main.ts\`) on the portal's PostgreSQL, each with its delivery worker as it comes (screens/webhooks.json: 16 messages at once per process, 4 per endpoint), on a schema of their own (\`${o.schema}\`, dropped after). One endpoint; the receiver is node:http on 127.0.0.1 answering 204. The messages are written into the outbox with their pg-boss jobs in batches of ${BATCH}, each about a record of its own (no per-record waiting); jobs are fetched and settled in batches; each delivery claims its message, resolves and checks the address, signs (HMAC-SHA256), posts over a kept-alive connection to the checked address (a new one only when none is free) and records the attempt.`, '',
      '| figure | value |', '|---|---|',
      `| one process: first write to last arrival | ${n0(one.count)} in ${f1(one.seconds)} s: **${f1(one.rate)} messages/s** |`,
      `| two processes | ${n0(two.count)} in ${f1(two.seconds)} s: **${f1(two.rate)} messages/s** |`,
      `| webhook-ids that arrived twice | ${receiver.duplicates()} |`,
      `| messages afterwards | ${states.map((s) => `${s.state} ${n0(s.n)}`).join(', ')} |`,
      `| load (1 min) at the start / the end | ${loadAtStart} / ${os.loadavg()[0].toFixed(1)} |`];
  } finally {
    await boss.stop({ graceful: false }).catch(() => undefined);
    await database.close();
    for (const server of servers) await server.stop();
    await receiver.close();
    await dropSchema({ databaseUrl: o.databaseUrl, schema: o.schema });
    await dropSchema({ databaseUrl: o.databaseUrl, schema: jobSchema });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { count: { type: 'string' }, schema: { type: 'string' }, quick: { type: 'boolean' } } });
  const quick = values.quick || Boolean(process.env.BENCH_QUICK);
  webhookFigures({
    root: resolve(dirname(fileURLToPath(import.meta.url)), '../..'),
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    schema: values.schema ?? 'bench_webhooks',
    count: values.count ? Number(values.count) : quick ? 1_000 : WEBHOOKS,
    log: (m) => console.log(m),
  }).then((lines) => console.log(lines.join('\n')), (error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
