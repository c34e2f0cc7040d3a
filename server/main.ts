/**
 * `npm start`: opens the database (PGlite in DATA_DIR, ./data by default, or DATABASE_URL),
 * migrates and seeds it on first start, loads the configuration of PORTAL_VARIANT, and listens on
 * PORT (3000); HOST chooses the interface (0.0.0.0). A configuration error stops start-up with file, JSON pointer and reason.
 *
 * WORKERS=N (or `auto`, one per core) serves the portal from N worker processes on the same port
 * (server/cluster.ts): this process then migrates and seeds, starts the workers and watches them.
 * Unset, this one process serves, as before. PGlite belongs to one process: WORKERS above 1 needs
 * PostgreSQL, and start-up says so in Polish (locales/pl/app.json, startup.*).
 */
import cluster from 'node:cluster';
import { readFileSync, watch } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError } from './config/load-bundle.ts';
import { loadVariants } from './config/variants.ts';
import { timeZoneOf } from './config/locale.ts';
import { DEFAULT_POOL_LIMITS, openDatabase, withoutStatementTimeout, type DatabaseHandle, type PoolLimits } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { keepRunningTotalsInZone } from './reports/running-totals.ts';
import { oneProcessAtATime } from './db/one-at-a-time.ts';
import { superviseWorkers, workerCount, WorkersSettingError } from './cluster.ts';
import { answerPrimary, askPrimary, machineMetrics } from './metrics/cluster.ts';
import type { MetricsAppOptions } from './metrics/plugin.ts';
import { createMetrics, localExposition } from './metrics/registry.ts';
import { startMetricsServer } from './metrics/server.ts';
import { metricsSettings, MetricsSettingError, type MetricsSettings } from './metrics/settings.ts';
import { openBackupChannel } from './backup/channel.ts';
import type { Bundle } from './config/bundle.ts';
import { seedDatabase } from './seed/seed.ts';
import { stopGracefullyOnSignals } from './shutdown.ts';
import { productionRefusals } from './config/production.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
/** Where screens/, schemas/, locales/ and client-variants/ are read from: CONFIG_DIR, or this checkout. */
const configRoot = resolve(process.env.CONFIG_DIR || root);

/** A whole number of milliseconds (or a count) from the environment; unset keeps the default. */
function envNumber(name: string): number | undefined {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number ≥ 0, not "${raw}"`);
  return value;
}

/** Leaves out unset values so that the defaults of connect.ts / limits.ts apply. */
function defined<T extends object>(values: T): Partial<T> {
  return Object.fromEntries(Object.entries(values).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** A text of locales/pl/app.json (startup.*), with {{name}} filled in: start-up speaks Polish too. */
function startupText(bundle: Bundle, key: string, vars: Record<string, string>): string {
  const texts = (bundle.locales.pl.app as { startup?: Record<string, string> }).startup ?? {};
  return (texts[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name: string) => vars[name] ?? '');
}

async function main() {
  // The configuration, loaded once: a broken one stops start-up before the database is opened.
  const variant = process.env.PORTAL_VARIANT || undefined;
  // every variant this process serves: PORTAL_VARIANT (the default) and those claiming host names or clients
  const variants = loadVariants({ root: configRoot, variant, version });
  const bundle = variants.bundles.get(variants.defaultVariant)!;
  const databaseUrl = process.env.DATABASE_URL || undefined;

  let workers: number | undefined;
  try {
    workers = workerCount(process.env.WORKERS);
  } catch (e) {
    if (!(e instanceof WorkersSettingError)) throw e;
    console.error(startupText(bundle, 'workersInvalid', { value: e.message }));
    process.exit(1);
  }
  if (workers !== undefined && workers > 1 && !databaseUrl) {
    console.error(startupText(bundle, 'workersNeedPostgres', { workers: String(workers) }));
    process.exit(1);
  }
  // production (NODE_ENV=production) without an operator key (the development keys are in the source
  // code) or with the second factor lifted: server/config/production.ts
  const refusals = productionRefusals(process.env);
  if (refusals.length) {
    for (const refusal of refusals) console.error(startupText(bundle, refusal, {}));
    process.exit(1);
  }
  // METRICS_PORT / METRICS_TOKEN (server/metrics/settings.ts): unset, no metrics are served anywhere
  let metricsAt: MetricsSettings | undefined;
  try {
    metricsAt = process.argv.includes('--digest') ? undefined : metricsSettings(process.env);
  } catch (e) {
    if (!(e instanceof MetricsSettingError)) throw e;
    console.error(e.message);
    process.exit(1);
  }
  const shutdownTimeoutMs = envNumber('SHUTDOWN_TIMEOUT_MS') ?? 10_000;
  const publicUrl = publicUrlOf(process.env.PUBLIC_URL, Number(process.env.PORT || 3000));

  if (cluster.isPrimary && workers !== undefined) {
    // the primary: migrate and seed once, then start the workers (they find the database ready)
    const database = await open(bundle, databaseUrl);
    try {
      await prepare(database);
    } finally {
      await database.close();
    }
    // one scrape for the whole machine: the primary gathers its workers' metrics (metrics/cluster.ts);
    // its port opens before any worker starts, so a port in use stops the start-up at once
    const machine = metricsAt ? machineMetrics() : undefined;
    if (machine && metricsAt?.port !== undefined) {
      await startMetricsServer({ port: metricsAt.port, host: metricsAt.host, token: metricsAt.token, exposition: machine.gather });
    }
    superviseWorkers({ workers, shutdownTimeoutMs: shutdownTimeoutMs + 2_000 });
    return;
  }

  // this process's metrics, made before anything else so that a worker answers its primary from the start
  const metrics = metricsAt ? createMetrics({ processMetrics: true }) : undefined;
  if (metrics && cluster.isWorker) answerPrimary(metrics);
  const metricsOptions: MetricsAppOptions | undefined = metrics && {
    instance: metrics,
    // the portal's own port serves them only when no port of their own is given
    token: metricsAt!.port === undefined ? metricsAt!.token : undefined,
    // a worker answers with the whole machine's, which its primary gathers
    exposition: cluster.isWorker && metricsAt!.port === undefined ? askPrimary() : undefined,
  };

  const database = await open(bundle, databaseUrl);
  try {
    // a worker's primary prepared the database already
    if (cluster.isPrimary) await prepare(database);
    const app = await buildApp({
      limits: defined({
        requestTimeoutMs: envNumber('REQUEST_TIMEOUT_MS'),
        // 10 s (2 s until issue 33): with the embedded database, whose queries run on the event
        // loop, the bench's 200 clients lag ~8 s on two busy cores without being overloaded; with
        // PostgreSQL the lag stays under 1 s (docs/benchmarks.md, "Load shedding")
        maxEventLoopDelayMs: envNumber('MAX_EVENT_LOOP_DELAY_MS') ?? 10_000,
        maxHeapUsedBytes: envNumber('MAX_HEAP_USED_BYTES'),
      }),
      db: database.db,
      root: configRoot,
      variant,
      version,
      bundle: variants,
      staticDir: join(root, 'dist/runtime'),
      logger: process.env.LOG !== 'off',
      trustProxy: process.env.TRUST_PROXY || undefined,
      servedBy: process.env.INSTANCE_ID ? `${process.env.INSTANCE_ID}:${process.pid}` : undefined,
      // links in e-mails lead here, never to a request's Host header (issue 25)
      notifications: { publicUrl },
      // webhooks (issue 35): the key their secrets are encrypted under, and the hosts exempt from the address check
      webhooks: { secretKey: process.env.WEBHOOK_SECRET_KEY || undefined, allowHosts: process.env.WEBHOOK_ALLOW_HOSTS || undefined },
      metrics: metricsOptions,
      // two-factor sign-in (issue 36): the key TOTP secrets are sealed under; SECOND_FACTOR_OPTIONAL=1 (demo, tests) lifts the requirement
      secondFactor: { secretKey: process.env.TOTP_SECRET_KEY || undefined, enforce: process.env.SECOND_FACTOR_OPTIONAL !== '1' },
      // web push (issue 47): the VAPID pair (else made once and stored sealed), its subject, and the push hosts exempt from the address check
      push: {
        publicKey: process.env.VAPID_PUBLIC_KEY || undefined, privateKey: process.env.VAPID_PRIVATE_KEY || undefined,
        subject: process.env.VAPID_SUBJECT || undefined, allowHosts: process.env.PUSH_ALLOW_HOSTS || undefined,
      },
    });
    if (!app.secondFactor.enforce) app.log.warn('SECOND_FACTOR_OPTIONAL=1: the second factor the configuration requires is not enforced (demo and tests only)');
    if (app.secondFactor.developmentKey) app.log.warn('TOTP_SECRET_KEY is not set: TOTP secrets are encrypted under the development key');
    app.addHook('onClose', async () => database.close());
    if (process.argv.includes('--digest')) {
      await runDigestOnce(app, process.argv.includes('--now'));
      return;
    }
    if (process.argv.includes('--dev')) watchConfiguration(app);
    if (database.kind === 'pglite') {
      // `npm run backup` asks this process, which holds the folder, for a consistent copy (server/backup/channel.ts)
      const channel = await openBackupChannel({ dataDir: dataDirOf(databaseUrl)!, database });
      app.addHook('preClose', () => channel.close());
    }
    if (metrics && metricsAt?.port !== undefined && cluster.isPrimary) {
      // one process: it serves its own metrics on their port (with WORKERS the primary does)
      const server = await startMetricsServer({
        port: metricsAt.port, host: metricsAt.host, token: metricsAt.token,
        exposition: () => localExposition(metrics), onError: (error) => app.log.error({ err: error }, 'metrics not served'),
      });
      app.addHook('onClose', async () => server.close());
    }
    const port = Number(process.env.PORT || 3000);
    await app.listen({ port, host: process.env.HOST || '0.0.0.0' });
    // SIGTERM: finish the requests in flight, close the database, exit 0 (SHUTDOWN_TIMEOUT_MS at most)
    stopGracefullyOnSignals(app, shutdownTimeoutMs, { worker: cluster.isWorker });
  } catch (e) {
    await database.close();
    throw e;
  }
}

/**
 * PUBLIC_URL: the portal's address as its users reach it (https://portal.example.pl), for links in
 * e-mails. Unset: this machine's port, which serves a fresh clone; a value that is not an http(s)
 * address stops start-up rather than sending broken links.
 */
function publicUrlOf(value: string | undefined, port: number): string {
  if (!value) return `http://localhost:${port}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`PUBLIC_URL must be an http(s) address such as https://portal.example.pl, not "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`PUBLIC_URL must be an http(s) address, not "${value}"`);
  return value.replace(/\/+$/, '');
}

/** The database of DATABASE_URL, or the embedded PGlite in DATA_DIR, with the limits of the environment. */
/** The PGlite folder: DATA_DIR, or ./data of the checkout; none with DATABASE_URL. */
function dataDirOf(databaseUrl: string | undefined): string | undefined {
  return databaseUrl ? undefined : resolve(process.env.DATA_DIR || join(root, 'data'));
}

function open(bundle: Bundle, databaseUrl: string | undefined): Promise<DatabaseHandle> {
  const dataDir = dataDirOf(databaseUrl);
  // DATABASE_SCHEMA keeps a PostgreSQL installation's portal in its own schema (tests use it).
  const poolLimits: PoolLimits = { ...DEFAULT_POOL_LIMITS, ...defined({
    connectTimeoutMs: envNumber('DB_CONNECT_TIMEOUT_MS'),
    statementTimeoutMs: envNumber('DB_STATEMENT_TIMEOUT_MS'),
    idleInTransactionTimeoutMs: envNumber('DB_IDLE_IN_TRANSACTION_TIMEOUT_MS'),
    maxQueue: envNumber('DB_POOL_QUEUE'),
    idleTimeoutMs: envNumber('DB_IDLE_TIMEOUT_MS'),
  }) };
  return openDatabase({
    databaseUrl,
    dataDir,
    schema: databaseUrl ? process.env.DATABASE_SCHEMA || undefined : undefined,
    maxConnections: envNumber('DB_POOL_SIZE'),
    // the database's sessions read dates on the users' wall clock (screens/app.json config.timeZone)
    timeZone: timeZoneOf(bundle.config),
    limits: poolLimits,
    // tells this server's connections apart in pg_stat_activity (the bench's restart drill ends them)
    applicationName: process.env.DB_APPLICATION_NAME || undefined,
  });
}

/**
 * Migrates and seeds, once across every process and machine starting at the same moment (the
 * others wait for their turn and find it done). Migrations may build indexes on large tables:
 * no statement time-out for them.
 */
async function prepare(database: DatabaseHandle): Promise<void> {
  await withoutStatementTimeout(database, (db) => oneProcessAtATime(db, 'migrate-and-seed', async () => {
    await migrateToLatest(db);
    await keepRunningTotalsInZone(db, (message) => console.warn(message));
    await seedDatabase(db, { root: configRoot });
  }));
}

/**
 * `npm run digest [-- --now]`: the daily digest and failure summary once, from the command line
 * (tests, demonstrations; the running portal schedules them itself): `--now` ignores each user's
 * hour. Waits until the messages it queued are delivered (or have failed, to be retried by the
 * portal's worker), then closes. On the default PGlite, stop the portal first: its database belongs
 * to one process.
 */
async function runDigestOnce(app: Awaited<ReturnType<typeof buildApp>>, now: boolean): Promise<void> {
  await app.ready();
  const started = new Date();
  const result = await app.digest.run({ now });
  console.log(app.config.t('notifications:messages.digestRun', { ...result }));
  const deadline = Date.now() + 60_000;
  for (;;) {
    const waiting = await app.db.selectFrom('notification').select((eb) => eb.fn.countAll<string>().as('n'))
      .where('channel', '=', 'email').where('createdAt', '>=', started)
      // at rest: sent, failed (retried later by the portal), or waiting with a reason (no mail server configured)
      .where((eb) => eb.or([eb('state', '=', 'sending'), eb.and([eb('state', '=', 'queued'), eb('lastError', 'is', null)])]))
      .executeTakeFirstOrThrow();
    if (Number(waiting.n) === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  await app.close();
}

/** `npm run dev`: a changed JSON file reloads the configuration; a broken one keeps the old and says why. */
function watchConfiguration(app: Awaited<ReturnType<typeof buildApp>>) {
  let timer: NodeJS.Timeout | undefined;
  for (const dir of ['screens', 'schemas', 'locales', 'client-variants']) {
    watch(join(configRoot, dir), { recursive: true }, (_event, file) => {
      if (!String(file).endsWith('.json')) return;
      clearTimeout(timer);
      timer = setTimeout(() => {
        app.config.reload().then(
          () => console.log(`configuration reloaded (${file})`),
          (e) => console.error(e instanceof ConfigError ? e.message : e),
        );
      }, 150);
    });
  }
}

main().catch((e) => {
  console.error(e instanceof ConfigError ? e.message : e);
  process.exit(1);
});
