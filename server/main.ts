/**
 * `npm start`: opens the database (PGlite in DATA_DIR, ./data by default, or DATABASE_URL),
 * migrates and seeds it on first start, loads the configuration of PORTAL_VARIANT, and listens on
 * PORT (3000); HOST chooses the interface (0.0.0.0). A configuration error stops start-up with file, JSON pointer and reason.
 */
import { readFileSync, watch } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.ts';
import { ConfigError } from './config/load-bundle.ts';
import { loadVariants } from './config/variants.ts';
import { timeZoneOf } from './config/locale.ts';
import { DEFAULT_POOL_LIMITS, openDatabase, withoutStatementTimeout, type PoolLimits } from './db/connect.ts';
import { migrateToLatest } from './db/migrate.ts';
import { seedDatabase } from './seed/seed.ts';
import { stopGracefullyOnSignals } from './shutdown.ts';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;

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

async function main() {
  // The configuration, loaded once: a broken one stops start-up before the database is opened.
  const variant = process.env.PORTAL_VARIANT || undefined;
  // every variant this process serves: PORTAL_VARIANT (the default) and those claiming host names or clients
  const variants = loadVariants({ root, variant, version });
  const bundle = variants.bundles.get(variants.defaultVariant)!;
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = databaseUrl ? undefined : resolve(process.env.DATA_DIR || join(root, 'data'));
  // DATABASE_SCHEMA keeps a PostgreSQL installation's portal in its own schema (tests use it).
  const poolLimits: PoolLimits = { ...DEFAULT_POOL_LIMITS, ...defined({
    connectTimeoutMs: envNumber('DB_CONNECT_TIMEOUT_MS'),
    statementTimeoutMs: envNumber('DB_STATEMENT_TIMEOUT_MS'),
    idleInTransactionTimeoutMs: envNumber('DB_IDLE_IN_TRANSACTION_TIMEOUT_MS'),
    maxQueue: envNumber('DB_POOL_QUEUE'),
    idleTimeoutMs: envNumber('DB_IDLE_TIMEOUT_MS'),
  }) };
  const database = await openDatabase({
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
  try {
    // migrations may build indexes on large tables: no statement time-out for them
    await withoutStatementTimeout(database, async (db) => {
      await migrateToLatest(db);
      await seedDatabase(db, { root });
    });
    const app = await buildApp({
      limits: defined({
        requestTimeoutMs: envNumber('REQUEST_TIMEOUT_MS'),
        maxEventLoopDelayMs: envNumber('MAX_EVENT_LOOP_DELAY_MS') ?? 2_000,
        maxHeapUsedBytes: envNumber('MAX_HEAP_USED_BYTES'),
      }),
      db: database.db,
      root,
      variant,
      version,
      bundle: variants,
      staticDir: join(root, 'dist/runtime'),
      logger: process.env.LOG !== 'off',
      trustProxy: process.env.TRUST_PROXY || undefined,
    });
    app.addHook('onClose', async () => database.close());
    if (process.argv.includes('--dev')) watchConfiguration(app);
    const port = Number(process.env.PORT || 3000);
    await app.listen({ port, host: process.env.HOST || '0.0.0.0' });
    // SIGTERM: finish the requests in flight, close the database, exit 0 (SHUTDOWN_TIMEOUT_MS at most)
    stopGracefullyOnSignals(app, envNumber('SHUTDOWN_TIMEOUT_MS') ?? 10_000);
  } catch (e) {
    await database.close();
    throw e;
  }
}

/** `npm run dev`: a changed JSON file reloads the configuration; a broken one keeps the old and says why. */
function watchConfiguration(app: Awaited<ReturnType<typeof buildApp>>) {
  let timer: NodeJS.Timeout | undefined;
  for (const dir of ['screens', 'schemas', 'locales', 'client-variants']) {
    watch(join(root, dir), { recursive: true }, (_event, file) => {
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
