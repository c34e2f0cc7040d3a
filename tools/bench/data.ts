/**
 * The bench database: the bulk seed at the requested size in its own schema, reused by later runs
 * (the seed records its size in app_setting 'seed'; another size drops the schema and seeds anew),
 * then migrated to the latest version and VACUUM ANALYZEd, so plans and index-only scans see
 * current statistics and visibility maps.
 */
import { sql } from 'kysely';
import { dropSchema, openDatabase } from '../../server/db/connect.ts';
import { migrateToLatest } from '../../server/db/migrate.ts';
import { seedDatabase } from '../../server/seed/seed.ts';

export interface BenchSize {
  cars: number;
  orders: number;
}

async function seededSize(databaseUrl: string, schema: string): Promise<BenchSize | 'empty' | 'other'> {
  const { db, close } = await openDatabase({ databaseUrl, schema });
  try {
    const exists = await sql<{ t: string | null }>`select to_regclass('app_setting')::text as t`.execute(db);
    if (!exists.rows[0]?.t) return 'empty';
    const row = await db.selectFrom('app_setting').select('value').where('key', '=', 'seed').executeTakeFirst();
    const seeded = row?.value as { cars?: unknown; orders?: unknown } | null | undefined; // written by seedDatabase
    return seeded ? { cars: Number(seeded.cars), orders: Number(seeded.orders) } : 'other';
  } finally {
    await close();
  }
}

export async function prepareData(databaseUrl: string, schema: string, size: BenchSize, log: (m: string) => void): Promise<void> {
  const found = await seededSize(databaseUrl, schema);
  const reuse = typeof found === 'object' && found.cars === size.cars && found.orders === size.orders;
  if (!reuse && found !== 'empty') {
    log(`schema ${schema} holds other data (${JSON.stringify(found)}); dropping it`);
    await dropSchema({ databaseUrl, schema });
  }
  const { db, close } = await openDatabase({ databaseUrl, schema });
  try {
    const applied = await migrateToLatest(db);
    if (applied.length) log(`migrations applied: ${applied.map((m) => m.migrationName).join(', ')}`);
    if (reuse) log(`reusing the seeded data in schema ${schema}`);
    else {
      log(`seeding ${size.cars} vehicles and ${size.orders} orders into schema ${schema} (a few minutes)`);
      await seedDatabase(db, { ...size, log });
    }
    const tables = await sql<{ t: string }>`select tablename as t from pg_tables where schemaname = ${schema} order by 1`.execute(db);
    const started = Date.now();
    for (const { t } of tables.rows) await sql`vacuum analyze ${sql.id(schema, t)}`.execute(db);
    log(`vacuum analyze: ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    await close();
  }
}
