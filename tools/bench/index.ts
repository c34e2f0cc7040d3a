/**
 * npm run bench [-- --cars 100000 --orders 1000000 --repetitions 40 --warmup 5 --seconds 5 --schema bench]
 *
 * BENCH_QUICK=1 (or --quick): 10 repetitions and 2-second load runs, 1 000 notifications, to try a
 * change; the committed docs/benchmarks.md is always a full run. One part alone, without the rest:
 * `node --import tsx tools/bench/notifications.ts` (e-mail notifications; its header says how),
 * `node --import tsx tools/bench/shedding.ts` (the load-shedding limit, issue 33),
 * `node --import tsx tools/bench/webhooks.ts` (webhooks to a local receiver, issue 35),
 * `node --import tsx tools/bench/imports.ts` (vehicles and readings from CSV, issue 34),
 * `node --import tsx tools/bench/audit.ts` (the audit trail's histories and first page, issue 37),
 * `node --import tsx tools/bench/fleet-costs.ts` (the reports over 10M fuel transactions, issue 46).
 *
 * Seeds (once; later runs reuse the data) the bulk demo data into its own schema of the
 * PostgreSQL at DATABASE_URL (default postgres://postgres@127.0.0.1:5432/test), starts the real
 * server on a free port, signs in, and measures every section over HTTP side by side with the
 * same SQL run directly; prints the figures and writes docs/benchmarks.md. Never part of npm test:
 * timings belong here, not in assertions (DESIGN.md §6).
 */
import { execSync } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { buildApp } from '../../server/app.ts';
import { DEFAULT_POOL_LIMITS, openDatabase } from '../../server/db/connect.ts';
import { DEFAULT_COUNT_CAP } from '../../server/resources/table-queries.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import { prepareData } from './data.ts';
import { configRootWithExportLimit, exportMeasurement, EXPORT_ROWS } from './export.ts';
import { apiClient } from './http.ts';
import { runMeasurement, type Measurement, type Result } from './measure.ts';
import { cockpitMeasurements } from './cockpit.ts';
import { reportMeasurements } from './reports.ts';
import { orderMeasurements } from './orders.ts';
import { orderWriteMeasurements } from './order-writes.ts';
import { operations } from './operations.ts';
import { notificationFigures, NOTIFICATIONS } from './notifications.ts';
import { webhookFigures, WEBHOOKS } from './webhooks.ts';
import { importFigures, IMPORT_CARS, IMPORT_FUEL, IMPORT_READINGS } from './imports.ts';
import { digestFigures, DIGEST_MANAGERS } from './digest.ts';
import { auditFigures, AUDIT_ENTRIES } from './audit.ts';
import { databaseSettings } from './database-settings.ts';
import { fleetCostFigures, FUEL_TRANSACTIONS, INVOICE_LINES } from './fleet-costs.ts';
import { sheddingMarkdown, sheddingRuns } from './shedding.ts';
import { renderReport } from './report.ts';
import { directConnection, SqlRecorder } from './sql.ts';
import { EXPLANATION, RATIO_NOTE } from './explanation.ts';
import { runtimeIsStale } from '../build-if-stale.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const log = (m: string) => console.log(m);

function count(name: string, value: string | undefined, fallback: number): number {
  const n = value === undefined ? fallback : Number(value);
  if (!Number.isSafeInteger(n) || n < 1) throw new Error(`--${name} must be a positive integer, got "${value}"`);
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      cars: { type: 'string' }, orders: { type: 'string' }, repetitions: { type: 'string' }, warmup: { type: 'string' },
      schema: { type: 'string' }, out: { type: 'string' }, seconds: { type: 'string' }, quick: { type: 'boolean' },
    },
  });
  const quick = values.quick || Boolean(process.env.BENCH_QUICK);
  const size = { cars: count('cars', values.cars, 100_000), orders: count('orders', values.orders, 1_000_000) };
  const repetitions = count('repetitions', values.repetitions, quick ? 10 : 40);
  const seconds = count('seconds', values.seconds, quick ? 2 : 5);
  const warmup = count('warmup', values.warmup, 5);
  const schema = values.schema ?? 'bench';
  const out = resolve(root, values.out ?? 'docs/benchmarks.md');
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const loadAtStart = os.loadavg();

  // bytes on the wire and the start-up figures read the built runtime: build it first when it is
  // missing or older than its sources (a fresh clone has no dist/)
  if (runtimeIsStale(root)) {
    log('building the runtime first (dist/runtime is missing or stale)');
    execSync('npm run build', { cwd: root, stdio: 'inherit' });
  }
  await prepareData(databaseUrl, schema, size, log);

  const recorder = new SqlRecorder();
  // the serving pool of npm start (warm connections, its time limits), as the server runs
  const database = await openDatabase({ databaseUrl, schema, log: recorder.log, limits: DEFAULT_POOL_LIMITS });
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  // the project's configuration with a client variant that raises the export limit to what is measured
  const config = configRootWithExportLimit(root, EXPORT_ROWS);
  // the demo administrator signs in with a password alone: a second factor is not what the bench measures
  const app = await buildApp({ db: database.db, root: config.root, variant: config.variant, version, logger: false, secondFactor: { enforce: false } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('the server did not report its port');
  const direct = await directConnection(databaseUrl, schema);
  const results: Result[] = [];
  try {
    const baseUrl = `http://127.0.0.1:${address.port}`;
    const api = apiClient(baseUrl, app.config.bundle.app.name);
    const signIn = (a: { login: string; password: string }) => api.signIn({ username: a.login, password: a.password, role: 'MANAGER' });
    const admin = await signIn(DEMO_ACCOUNTS.admin);
    const manager = await signIn(DEMO_ACCOUNTS.manager);
    await api.post('/terms/accept-current', {}, manager); // a manager's table calls wait for the terms

    const measurements: Measurement[] = [
      exportMeasurement(api, baseUrl, admin, Math.min(repetitions, 10), { databaseUrl, schema, config }),
      ...(await orderMeasurements(api, [{ label: 'ADMIN (all rows)', token: admin }, { label: 'MANAGER (one client)', token: manager }])),
      ...(await orderWriteMeasurements(api, manager)),
      ...cockpitMeasurements(api, [{ label: 'ADMIN (all rows)', token: admin, p95Ms: 100 }, { label: 'MANAGER (one client)', token: manager, p95Ms: 50 }]),
      ...reportMeasurements(api, [{ label: 'ADMIN (all rows)', token: admin, p95Ms: 500 }, { label: 'MANAGER (one client)', token: manager, p95Ms: 200 }]),
    ];
    for (const m of measurements) results.push(await runMeasurement(m, { warmup, repetitions, recorder, direct, log }));
    const operatorFigures = await operations({
      root, databaseUrl, schema, preConfigName: app.config.bundle.app.name, api, db: database.db, recorder, adminToken: admin, seconds, log,
    });
    // issue 25: e-mail notifications, on a schema of their own beside the bench data (alone: tools/bench/notifications.ts)
    operatorFigures.push(...(await notificationFigures({ root, databaseUrl, schema: `${schema}_notifications`, count: quick ? 1_000 : NOTIFICATIONS, log })));
    // issue 35: webhooks to a local receiver, one process and two (alone: tools/bench/webhooks.ts)
    operatorFigures.push(...(await webhookFigures({ root, databaseUrl, schema: `${schema}_webhooks`, count: quick ? 1_000 : WEBHOOKS, log })));
    // issue 34: vehicles and readings from CSV through the import jobs, with the other users' table calls meanwhile (alone: tools/bench/imports.ts)
    operatorFigures.push(...(await importFigures({ root, databaseUrl, schema: `${schema}_imports`, cars: quick ? 10_000 : IMPORT_CARS, readings: quick ? 100_000 : IMPORT_READINGS, fuel: quick ? 100_000 : IMPORT_FUEL, log })));
    operatorFigures.push(...(await digestFigures(app, { managers: quick ? 100 : DIGEST_MANAGERS, log })));
    // issue 37: a record's history and the first page of Dziennik zmian over 10M generated entries (alone: tools/bench/audit.ts)
    operatorFigures.push(...(await auditFigures({ api, db: database.db, admin, manager, entries: quick ? 1_000_000 : AUDIT_ENTRIES, repetitions, log })));
    // issue 46: the Raporty screen's reports over 10M generated fuel transactions and 5M invoice lines (alone: tools/bench/fleet-costs.ts)
    operatorFigures.push(...(await fleetCostFigures({
      api, db: database.db, admin, manager, log, transactions: quick ? 1_000_000 : FUEL_TRANSACTIONS, lines: quick ? 500_000 : INVOICE_LINES, repetitions: Math.min(repetitions, 5),
    })));
    // issue 33: the load-shedding limit under the 50- and 200-client runs, on PGlite and PostgreSQL (alone: tools/bench/shedding.ts)
    const shedding = [
      ...(await sheddingRuns({ limits: [0, 2_000, 10_000], clients: [50, 200], seconds, log })),
      ...(await sheddingRuns({ limits: [2_000, 10_000], clients: [50, 200], seconds, postgres: databaseUrl, log })),
    ];
    operatorFigures.push(...sheddingMarkdown(shedding, seconds));

    const rows = async (table: string) => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(database.db)).rows[0].n);
    const cpus = os.cpus();
    const report = renderReport({
      date: new Date(),
      facts: [
        ['Machine', `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.type()} ${os.release()}; load average (1/5/15 min) ${loadAtStart.map((l) => l.toFixed(1)).join(' / ')} at the start, ${os.loadavg().map((l) => l.toFixed(1)).join(' / ')} at the end (the machine may be shared with other work, which shows in the p95 figures)`],
        ['Database', `${await databaseSettings(database.db)} (JIT off in the portal's connections), schema \`${schema}\``],
        ['Node.js', process.version],
        ['Data', `${(await rows('car')).toLocaleString('en-US')} vehicles, ${(await rows('service_order')).toLocaleString('en-US')} orders (\`npm run seed -- --cars ${size.cars} --orders ${size.orders}\`), VACUUM ANALYZE before measuring; count cap ${(app.config.bundle.app.tables?.countCap ?? DEFAULT_COUNT_CAP).toLocaleString('en-US')}`],
        ['Configuration', `the project's own, with a client variant raising config.excelExportLimit (screens/app.json) to ${EXPORT_ROWS.toLocaleString('en-US')}`],
        ['Code', `${gitDescription()}${quick ? ' — QUICK RUN (BENCH_QUICK): fewer calls, shorter load runs; not for committing' : ''}`],
      ],
      method: `Each figure: ${warmup} warm-up calls, then ${repetitions} calls of the API over HTTP (signed POST with a real session, as the browser sends it, response parsed) interleaved with ${repetitions} runs of the same SQL — the statements the server ran for that call, recorded from its query log — one after another on one direct connection (the server runs a first block's count beside its rows, on a second connection). Times in milliseconds; API / SQL is the ratio of the medians, API − SQL their difference.`,
      results,
      explanation: EXPLANATION,
      ratioNote: RATIO_NOTE,
      operations: operatorFigures,
    });
    writeFileSync(out, report);
    log(`\nwrote ${out}`);
  } finally {
    await direct.end();
    await app.close();
    await database.close();
    rmSync(config.root, { recursive: true, force: true });
  }
}

function gitDescription(): string {
  try {
    return `commit ${execSync('git rev-parse --short HEAD', { cwd: root }).toString().trim()}${execSync('git status --porcelain', { cwd: root }).toString().trim() ? ' (with uncommitted changes)' : ''}`;
  } catch {
    return 'unknown';
  }
}

main().catch((e) => {
  console.error(e instanceof Error ? e.stack : e);
  process.exit(1);
});
