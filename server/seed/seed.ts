/**
 * Demo data for the portal: deterministic (same options → same rows), idempotent (a database that
 * already has any demo account is left alone) and atomic (one transaction: a failed seed leaves
 * nothing behind).
 *
 * Sizes: the default (~120 vehicles, ~300 orders) takes a second or two; `cars: 100000,
 * orders: 1000000` runs the same generate_series statements at scale (minutes on PostgreSQL).
 */
import { seedFleetCosts } from './fleet-costs.ts';
import { seedInspections } from './inspections.ts';
import { resolve } from 'node:path';
import { sql, type Insertable, type Kysely } from 'kysely';
import { hashPassword } from '../auth/password.ts';
import { seedBulk, seedInvoices } from './bulk.ts';
import { CLIENTS, STATIONS } from './data.ts';
import { DEMO_ACCOUNTS, DEMO_VEHICLE, UNINSURED_VEHICLE, seedDemo } from './demo.ts';
import { addDays } from './sql-util.ts';
import { SHOWCASE_ORDERS, seedShowcaseOrders } from './reminder-showcase.ts';
import { readVariantDemos, seedVariantDemos, variantDemoSizes } from './variant-demos.ts';
import type { AppUser, DB } from '../db/types.generated.ts';

export { DEMO_ACCOUNTS, DEMO_VEHICLE, UNINSURED_VEHICLE } from './demo.ts';

export interface SeedOptions {
  /** Vehicles in total, including the two named demo vehicles and the variants' own (default 120). */
  cars?: number;
  /** Orders in total, including the five named demo orders and the variants' own (default 300; one in ten is a damage). */
  orders?: number;
  /** Seed of the pseudo-random choices (default 1). */
  seed?: number;
  /** Invoices (default max(40, 60 % of cars)). */
  invoices?: number;
  /** Login history rows (default max(200, orders / 10)). */
  loginHistory?: number;
  /** Anchor date YYYY-MM-DD for relative dates (default: today in the database's time zone). */
  today?: string;
  /** Progress messages (the CLI prints them). */
  log?: (message: string) => void;
  /** Where client-variants/ is, whose demo.json files add each variant's client (default: this checkout). */
  root?: string;
}

export interface SeedResult {
  skipped: boolean;
  reason?: string;
  today?: string;
  /** The clients with generated data (vehicles, cards, contracts, invoices, …). */
  clients: string[];
  /** The clients of the variants' demo.json files: only what each file names. */
  variantClients: string[];
  stations: string[];
  pojazdId?: { WZ12345: number; WZ67890: number };
  counts?: Record<string, number>;
}

const DEMO_LOGINS = Object.values(DEMO_ACCOUNTS).map((a) => a.login);
/** Password of the additional (non-demo) accounts. */
export const EXTRA_PASSWORD = 'Haslo123!';

export async function seedDatabase(db: Kysely<DB>, options: SeedOptions = {}): Promise<SeedResult> {
  // read (and validated) before anything is written: a broken demo.json seeds nothing
  const variantDemos = readVariantDemos(options.root ?? resolve(import.meta.dirname, '../..'));
  const base = {
    clients: CLIENTS.map((c) => c.klient),
    variantClients: variantDemos.map((d) => d.demo.client.klient),
    stations: STATIONS.map((s) => s.stacjaSerw),
  };
  const existing = await db.selectFrom('app_user').select('login').where(sql<boolean>`lower("login") in (${sql.join(DEMO_LOGINS)})`).execute();
  if (existing.length > 0) {
    return { ...base, skipped: true, reason: `demo accounts already exist: ${existing.map((r) => r.login).join(', ')}` };
  }

  // 120 by default: every client has more than one 30-row block, so scrolling loads the next one.
  // The variants' own vehicles and orders count in the totals (the generated rows make up the rest).
  // Each client's showcase orders for the reminders (reminder-showcase.ts) count in the total too.
  const own = variantDemoSizes(variantDemos);
  const showcaseOrders = SHOWCASE_ORDERS * (CLIENTS.length + variantDemos.length);
  const cars = Math.max(options.cars ?? 120, 2 + CLIENTS.length + own.cars);
  const orders = Math.max(options.orders ?? 300, 5 + own.orders + showcaseOrders);
  const seed = options.seed ?? 1;
  if (!Number.isSafeInteger(seed) || seed < 0 || seed > 1_000_000) throw new Error('seed must be an integer 0…1000000');
  const log = options.log ?? (() => {});
  const today = options.today ?? (await sql<{ d: string }>`select current_date::text as d`.execute(db)).rows[0].d;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(today)) throw new Error(`today must be YYYY-MM-DD, got ${today}`);

  return db.transaction().execute(async (trx) => {
    log(`seeding: ${cars} vehicles, ${orders} orders, seed ${seed}, today ${today}`);
    const demo = await seedDemo(trx, today);
    const bulk = await seedBulk(trx, {
      today,
      salt: seed,
      cars: cars - 2 - own.cars,
      orders: orders - 5 - own.orders - showcaseOrders,
      loginHistory: options.loginHistory ?? Math.max(200, Math.round(orders / 10)),
      leaves: demo.leaves,
      log,
    });
    await seedExtraAccounts(trx, today, [demo.pojazdId.WZ12345, demo.pojazdId.WZ67890]);
    const variantShowcase = await seedVariantDemos(trx, variantDemos, today, EXTRA_PASSWORD);
    await seedShowcaseOrders(trx, today, [...bulk.showcase, ...variantShowcase]);
    await seedInvoices(trx, {
      today, salt: seed, invoices: options.invoices ?? Math.max(40, Math.round(cars * 0.6)), log,
      clients: [...base.clients, ...base.variantClients], generatedClients: base.clients.length,
    });
    await seedFleetCosts(trx, today, demo.pojazdId, CLIENTS[0].klient, options.root ?? resolve(import.meta.dirname, '../..'));
    // issue 47: the driver's weekly inspection is due (the last one eight days ago)
    await seedInspections(trx, today, demo.pojazdId, options.root ?? resolve(import.meta.dirname, '../..'));
    await trx.insertInto('app_setting')
      .values({ key: 'seed', value: JSON.stringify({ cars, orders, seed, today }) })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: sql`excluded.value` })).execute();
    const counts = await countRows(trx);
    log(`done: ${Object.entries(counts).map(([t, n]) => `${t} ${n}`).join(', ')}`);
    return { ...base, skipped: false, today, pojazdId: demo.pojazdId, counts };
  });
}

/**
 * A few more accounts so that lists and isolation tests have neighbours: a manager for client 3,
 * advisors of stations SS02/SS03 and drivers of the first generated vehicles of each client.
 * They share one hash of EXTRA_PASSWORD (hashing is deliberately slow; this is demo data).
 */
async function seedExtraAccounts(db: Kysely<DB>, today: string, excludeCars: number[]) {
  const passwordHash = await hashPassword(EXTRA_PASSWORD);
  const common = { passwordHash, firstLogin: false, dataOd: '2024-01-01', dataDo: addDays(today, 365), pwdDo: '2099-12-31' };
  const rows: Omit<Insertable<AppUser>, keyof typeof common>[] = [
    { login: 'manager3', rola: 'MANAGER', firstName: 'Ewa', lastName: 'Kaczmarek', email: 'ewa.kaczmarek@agrotech.pl', klientSymbol: CLIENTS[2].klient },
    { login: 'doradca2', rola: 'ADVISOR', firstName: 'Paweł', lastName: 'Dudek', email: 'pawel.dudek@motor-krakow.pl', stacjaSerw: 'SS02' },
    { login: 'doradca3', rola: 'ADVISOR', firstName: 'Katarzyna', lastName: 'Mazur', email: 'katarzyna.mazur@pcs-serwis.pl', stacjaSerw: 'SS03' },
  ];
  const drivers = await db.selectFrom('car as c').innerJoin('employee as e', 'e.pracId', 'c.pracId')
    .select(['c.klientSymbol', 'e.pracId', 'e.imie', 'e.nazwisko', 'e.email', 'e.telefonKom'])
    .where('c.pojazdId', 'not in', excludeCars)
    .distinctOn('c.klientSymbol').orderBy('c.klientSymbol').orderBy('c.pojazdId').execute();
  drivers.forEach((d, i) => rows.push({
    login: `kierowca${i + 2}`, rola: 'USER', firstName: d.imie, lastName: d.nazwisko, email: d.email, telefonKom: d.telefonKom,
    klientSymbol: d.klientSymbol, pracId: d.pracId,
  }));
  await db.insertInto('app_user').values(rows.map((r) => ({ ...common, ...r }))).execute();

  // The driver of a vehicle whose last reading is older than the reminders' 90 days (a showcase
  // vehicle of the first client): the journey of "Podaj stan licznika" signs in as him, and no
  // other journey touches his vehicle. He has signed in before (terms accepted).
  const stale = await db.selectFrom('car as c').innerJoin('employee as e', 'e.pracId', 'c.pracId')
    .select(['c.klientSymbol', 'e.pracId', 'e.imie', 'e.nazwisko', 'e.email', 'e.telefonKom'])
    .where('c.klientSymbol', '=', CLIENTS[0].klient).where('c.aktDataLicz', '<', addDays(today, -90))
    .where('c.pojazdId', 'not in', excludeCars).orderBy('c.aktDataLicz').orderBy('c.pojazdId').executeTakeFirst();
  if (stale) {
    const { id } = await db.insertInto('app_user').values({
      ...common, login: STALE_READING_DRIVER, rola: 'USER', firstName: stale.imie, lastName: stale.nazwisko, email: stale.email,
      telefonKom: stale.telefonKom, klientSymbol: stale.klientSymbol, pracId: stale.pracId,
    }).returning('id').executeTakeFirstOrThrow();
    await db.insertInto('terms_acceptance').columns(['userId', 'templateId', 'acceptedAt'])
      .expression((eb) => eb.selectFrom('terms_template').select([sql.lit(id).as('userId'), 'id', sql<string>`now()`.as('acceptedAt')])).execute();
  }
}

/** The driver whose vehicle's last reading is more than 90 days old (password EXTRA_PASSWORD). */
export const STALE_READING_DRIVER = 'kierowca.licznik';

const COUNTED = [
  'client', 'service_station', 'company', 'unit', 'employee', 'app_user', 'car', 'vehicle_assignment', 'mileage_reading',
  'fuel_card', 'contract', 'contract_position', 'tire', 'service_order', 'order_position', 'damage', 'note', 'attachment',
  'invoice', 'invoice_file', 'login_history', 'fuel_transaction', 'invoice_line',
];

async function countRows(db: Kysely<DB>): Promise<Record<string, number>> {
  const union = COUNTED.map((t) => `select '${t}' as t, count(*)::integer as n from ${t}`).join(' union all ');
  const { rows } = await sql.raw<{ t: string; n: number }>(union).execute(db);
  return Object.fromEntries(rows.map((r) => [r.t, r.n]));
}

export const demoFacts = { DEMO_ACCOUNTS, DEMO_VEHICLE, UNINSURED_VEHICLE, clients: CLIENTS.map((c) => c.klient), stations: STATIONS.map((s) => s.stacjaSerw) };
