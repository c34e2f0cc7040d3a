/**
 * npm run seed [-- --cars 100000 --orders 1000000 --seed 1 --invoices 40 --today 2025-06-30]
 *
 * Migrates and seeds the database of DATABASE_URL (PostgreSQL; DATABASE_SCHEMA selects a schema)
 * or, without it, the PGlite folder DATA_DIR (default ./data) — the same database `npm start` uses. Seeding a database that already
 * has the demo accounts does nothing.
 */
import { parseArgs } from 'node:util';
import { openDatabase } from '../db/connect.ts';
import { migrateToLatest } from '../db/migrate.ts';
import { seedDatabase } from './seed.ts';

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

async function main() {
  const { values } = parseArgs({
    options: {
      cars: { type: 'string' }, orders: { type: 'string' }, seed: { type: 'string' },
      invoices: { type: 'string' }, today: { type: 'string' }, help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log('Usage: npm run seed -- [--cars N] [--orders N] [--seed N] [--invoices N] [--today YYYY-MM-DD]\n' +
      'Database: DATABASE_URL (PostgreSQL, optional DATABASE_SCHEMA) or DATA_DIR (PGlite folder, default ./data).');
    return;
  }
  const databaseUrl = process.env.DATABASE_URL || undefined;
  const dataDir = databaseUrl ? undefined : process.env.DATA_DIR || './data';
  const schema = databaseUrl ? process.env.DATABASE_SCHEMA || undefined : undefined;
  console.log(`database: ${databaseUrl ? databaseUrl.replace(/\/\/[^@/]*@/, '//***@') + (schema ? ` schema ${schema}` : '') : `PGlite in ${dataDir}`}`);
  const handle = await openDatabase({ databaseUrl, dataDir, schema });
  const started = Date.now();
  try {
    const applied = await migrateToLatest(handle.db);
    if (applied.length) console.log(`migrations applied: ${applied.map((m) => m.migrationName).join(', ')}`);
    const result = await seedDatabase(handle.db, {
      cars: positiveInt('cars', values.cars),
      orders: positiveInt('orders', values.orders),
      seed: positiveInt('seed', values.seed),
      invoices: positiveInt('invoices', values.invoices),
      today: values.today,
      log: (m) => console.log(m),
    });
    if (result.skipped) console.log(`nothing to do: ${result.reason}`);
    else console.log(`seeded in ${((Date.now() - started) / 1000).toFixed(1)} s; clients ${result.clients.join(', ')}; stations ${result.stations.join(', ')}; WZ12345 is pojazdId ${result.pojazdId!.WZ12345}`);
  } finally {
    await handle.close();
  }
}

main().catch((err) => {
  console.error(`seed failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
