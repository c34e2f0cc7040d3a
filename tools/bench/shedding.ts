/**
 * Load shedding's default (issue 33): the server refuses new API calls with 503 while its event
 * loop lags more than MAX_EVENT_LOOP_DELAY_MS (plugins/limits.ts, @fastify/under-pressure: the
 * mean lag of each second). With the embedded database (PGlite runs its queries on the event
 * loop) 2 s tripped on a two-core machine under ordinary load, and a page opened then stayed on
 * "Ładowanie..." while its start-up calls were refused. This part measures, for each limit, what
 * the bench's 50- and 200-client runs of signed table blocks (operations.ts) meet: answers,
 * latency, calls shed, a page's start-up calls refused meanwhile, and the lag itself (the worst
 * second's mean, which is what the limit is compared with, and the longest single stall), read
 * from the server's own metrics (`nodejs_eventloop_lag_*`, scraped every second).
 *
 * Alone, without the rest of the bench (it needs no seeded bulk data):
 *   node --import tsx tools/bench/shedding.ts [--seconds 10] [--limits 0,2000,5000,10000] [--clients 50,200] [--postgres]
 * On PGlite by default (a copy of the seeded demo database, as `npm start` serves it); --postgres:
 * the PostgreSQL of DATABASE_URL (default the local `test` database), in a schema of its own that
 * the server migrates and seeds, dropped after. Prints the markdown for docs/benchmarks.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os, { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { dropSchema } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { seededPGliteDataDir } from '../../server/seed/testing.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import { apiClient } from './http.ts';
import { drive, signedPoster, type LoadResult } from './load.ts';
import { startServer } from './server-process.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

export interface SheddingRow {
  database: string;
  limitMs: number;
  clients: number;
  load: LoadResult;
  /** Table-block calls answered 503 OVERLOADED. */
  shed: number;
  /** A page's start-up calls (pre-configuration, bundle) asked twice a second meanwhile, and how many were refused. */
  startupCalls: number;
  startupRefused: number;
  /** The worst second's mean event-loop lag (what the limit is compared with), and the longest single stall, ms. */
  worstSecondMeanMs: number;
  longestStallMs: number;
  loadAverage: number;
}

/** GET with a bearer token over a plain agent: status and body. */
function get(baseUrl: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(`${baseUrl}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const metric = (text: string, name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? Number.NaN);

/** Runs `inner` while asking every `ms` milliseconds; returns inner's result. */
async function alongside<T>(ms: number, every: () => Promise<void>, inner: () => Promise<T>): Promise<T> {
  let running = true;
  const loop = (async () => {
    while (running) {
      await every().catch(() => undefined);
      await new Promise((r) => setTimeout(r, ms));
    }
  })();
  try {
    return await inner();
  } finally {
    running = false;
    await loop;
  }
}

export async function sheddingRuns(options: { limits: number[]; clients: number[]; seconds: number; postgres?: string; log: (m: string) => void }): Promise<SheddingRow[]> {
  const rows: SheddingRow[] = [];
  const database = options.postgres ? 'PostgreSQL' : 'PGlite';
  for (const limitMs of options.limits) {
    const metricsToken = randomBytes(16).toString('hex');
    let env: Record<string, string>;
    let cleanup = async () => {};
    if (options.postgres) {
      const schema = `bench_shedding_${process.pid}`;
      env = { DATABASE_URL: options.postgres, DATABASE_SCHEMA: schema };
      cleanup = async () => {
        await dropSchema({ databaseUrl: options.postgres!, schema });
        await dropSchema({ databaseUrl: options.postgres!, schema: jobQueueSchema(schema) });
      };
    } else {
      const dataDir = mkdtempSync(join(tmpdir(), 'portal-shedding-'));
      await seededPGliteDataDir(dataDir);
      env = { DATA_DIR: dataDir };
      cleanup = async () => rmSync(dataDir, { recursive: true, force: true });
    }
    options.log(`${database}, MAX_EVENT_LOOP_DELAY_MS=${limitMs}: starting the server…`);
    const server = await startServer(root, { ...env, MAX_EVENT_LOOP_DELAY_MS: String(limitMs), METRICS_TOKEN: metricsToken });
    try {
      const preConfig = JSON.parse((await get(server.baseUrl, '/api/init/pre-config')).text) as { name: string };
      // administrators sign in with the office choice (README, Demo accounts)
      const token = await apiClient(server.baseUrl, preConfig.name).signIn({ username: DEMO_ACCOUNTS.admin.login, password: DEMO_ACCOUNTS.admin.password, role: 'MANAGER' });
      const poster = signedPoster(server.baseUrl, preConfig.name, 256);
      const body = { sortModel: [{ colId: 'rejestr', sort: 'asc' }], filterModel: {}, startRow: 0, endRow: 30 };
      // a refusal is labelled by its status and code: 503 OVERLOADED is the shedding, another 503 is not
      const block = async () => {
        const res = await poster.post('/car/table2', body, token);
        if (res.status === 200) return null;
        return `${res.status} ${(JSON.parse(res.text || '{}') as { code?: string }).code ?? ''}`.trim();
      };
      try {
        for (const clients of options.clients) {
          await drive(clients, 1_000, block);
          await get(server.baseUrl, '/metrics', { authorization: `Bearer ${metricsToken}` }); // the lag counts from here
          let startupCalls = 0;
          let startupRefused = 0;
          let worstSecondMeanMs = 0;
          let longestStallMs = 0;
          const scrape = async () => {
            const text = (await get(server.baseUrl, '/metrics', { authorization: `Bearer ${metricsToken}` })).text;
            // under-pressure's figure: the mean of the 10 ms-resolution samples, less the resolution
            // (no sample since the last scrape: two scrapes answered after one stall, nothing to add)
            const mean = metric(text, 'nodejs_eventloop_lag_mean_seconds') * 1000 - 10;
            const max = metric(text, 'nodejs_eventloop_lag_max_seconds') * 1000;
            if (Number.isFinite(mean)) worstSecondMeanMs = Math.max(worstSecondMeanMs, mean);
            if (Number.isFinite(max)) longestStallMs = Math.max(longestStallMs, max);
          };
          const page = async () => {
            for (const path of ['/api/init/pre-config', '/api/ui/config']) {
              startupCalls++;
              if ((await get(server.baseUrl, path)).status !== 200) startupRefused++;
            }
          };
          options.log(`  ${clients} clients for ${options.seconds} s…`);
          const load = await alongside(1_000, scrape, () => alongside(500, page, () => drive(clients, options.seconds * 1000, block)));
          await scrape();
          rows.push({ database, limitMs, clients, load, shed: load.errorKinds['503 OVERLOADED'] ?? 0, startupCalls, startupRefused, worstSecondMeanMs, longestStallMs, loadAverage: os.loadavg()[0] });
          options.log(`    ${load.perSecond.toFixed(0)}/s p95 ${load.p95.toFixed(0)} ms, shed ${load.errorKinds['503 OVERLOADED'] ?? 0} (${JSON.stringify(load.errorKinds)}), start-up refused ${startupRefused}/${startupCalls}, worst second ${worstSecondMeanMs.toFixed(0)} ms, longest stall ${longestStallMs.toFixed(0)} ms`);
        }
      } finally {
        poster.close();
      }
    } finally {
      await server.stop();
      await cleanup();
    }
  }
  return rows;
}

export function sheddingMarkdown(rows: SheddingRow[], seconds: number): string[] {
  const limit = (ms: number) => (ms === 0 ? 'off' : `${(ms / 1000).toFixed(ms % 1000 ? 1 : 0)} s`);
  return [
    '', '### Load shedding under the 50- and 200-client runs (issue 33)', '',
    `The server in a process of its own (tools/bench/shedding.ts), a fresh copy of the demo database for each limit; admin's first vehicles block (signed POST /api/car/table2), each client sending its next request when the last is answered, for ${seconds} s after 1 s of warm-up; meanwhile a page's start-up calls (GET /api/init/pre-config and /api/ui/config, no session) twice a second. "Worst second": the highest mean event-loop lag of a second — the figure MAX_EVENT_LOOP_DELAY_MS is compared with — read from the server's metrics every second; "longest stall": the longest single delay. Load: the 1-minute load average at the end of the run (2 cores shared with other work, the load generator on the same machine).`,
    '', '| database | MAX_EVENT_LOOP_DELAY_MS | clients | answers/s | p50 | p95 | p99 | shed (503 OVERLOADED) | other refusals | start-up calls refused | worst second | longest stall | load |', '|---|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|',
    ...rows.map((r) => {
      const other = Object.entries(r.load.errorKinds).filter(([kind]) => kind !== '503 OVERLOADED').map(([kind, n]) => `${n} ${kind}`).join(', ') || '0';
      return `| ${r.database} | ${limit(r.limitMs)} | ${r.clients} | ${r.load.perSecond.toFixed(0)} | ${r.load.p50.toFixed(0)} ms | ${r.load.p95.toFixed(0)} ms | ${r.load.p99.toFixed(0)} ms | ${r.shed} of ${r.load.requests} | ${other} | ${r.startupRefused} of ${r.startupCalls} | ${r.worstSecondMeanMs.toFixed(0)} ms | ${r.longestStallMs.toFixed(0)} ms | ${r.loadAverage.toFixed(1)} |`;
    }),
  ];
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { seconds: { type: 'string' }, limits: { type: 'string' }, clients: { type: 'string' }, postgres: { type: 'boolean' } } });
  const numbers = (text: string | undefined, fallback: number[]) => (text ? text.split(',').map(Number) : fallback);
  const seconds = Number(values.seconds ?? 10);
  const rows = await sheddingRuns({
    limits: numbers(values.limits, [0, 2_000, 5_000, 10_000]),
    clients: numbers(values.clients, [50, 200]),
    seconds,
    postgres: values.postgres ? process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test' : undefined,
    log: (m) => console.log(m),
  });
  console.log(sheddingMarkdown(rows, seconds).join('\n'));
}
