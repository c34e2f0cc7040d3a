/**
 * What the fleet costs at the issue's size (issue 46): with 10,000,000 fuel transactions and
 * 5,000,000 invoice lines over the bench's 100,000 vehicles, how long a year of `vehicle-cost`
 * takes for a fleet manager (one client; target p95 ≤ 500 ms) and for an administrator (every
 * client; ≤ 2 s), over HTTP as the Raporty screen asks; `co2-emissions` of the year beside them.
 *
 * The rows are generated in SQL (generate_series), once: a later run with the same counts reuses
 * them (`app_setting` 'bench-fleet-costs'). Fuel transactions: on every card that has a vehicle,
 * in turn, over the last two years (so a year holds about half), the card's fuel, 25–54 litres;
 * invoice lines: every vehicle, in each month its client has an invoice, four categories (lease,
 * service, insurance, tyres), until the count is reached. The 1,000,000 transactions' import is
 * measured by tools/bench/imports.ts (`--fuel`).
 *
 * In the full run (tools/bench/index.ts) the part uses the bench's server and data. Alone, on a
 * seed of its own (schema bench_costs, 100,000 vehicles, 100,000 orders):
 *   node --import tsx tools/bench/fleet-costs.ts [--transactions 10000000] [--lines 5000000] [--repetitions 20]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { databaseSettings } from './database-settings.ts';
import type { DB } from '../../server/db/types.generated.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import { periodRange } from '../../runtime/src/screens/reports/periods.ts';
import type { Api } from './http.ts';
import { runStandalone } from './standalone.ts';
import { latency, timed } from './stats.ts';

export const FUEL_TRANSACTIONS = 10_000_000;
export const INVOICE_LINES = 5_000_000;
const f1 = (n: number) => n.toFixed(1);
const n0 = (n: number) => n.toLocaleString('en-US');
const CHUNK = 1_000_000;

/** One statement without the serving pool's time limit. */
async function long(db: Kysely<DB>, statement: ReturnType<typeof sql>): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`set local statement_timeout = 0`.execute(trx);
    await statement.execute(trx);
  });
}

/** Fills fuel_transaction and invoice_line with generated rows (once; the same counts later are reused). */
export async function prepareFleetCosts(db: Kysely<DB>, size: { transactions: number; lines: number }, log: (m: string) => void): Promise<void> {
  const setting = await db.selectFrom('app_setting').select('value').where('key', '=', 'bench-fleet-costs').executeTakeFirst();
  const was = setting?.value as { transactions?: number; lines?: number } | undefined;
  if (was?.transactions === size.transactions && was?.lines === size.lines) {
    log(`fleet costs: reusing ${n0(size.transactions)} fuel transactions and ${n0(size.lines)} invoice lines`);
    return;
  }
  const started = Date.now();
  log('fleet costs: removing the bench\'s earlier generated rows');
  await long(db, sql`delete from fuel_anomaly where "transId" in (select "transId" from fuel_transaction where "nrTransakcji" like 'BENCH-%')`);
  await long(db, sql`delete from fuel_transaction where "nrTransakcji" like 'BENCH-%'`);
  await long(db, sql`delete from invoice_line where "liniaId" >= 1000000000`);
  // the cards with a vehicle, numbered, so transaction g goes to card 1 + g % n
  await long(db, sql`create table if not exists bench_card as
    select row_number() over (order by k."kartaId") as rn, k."kartaId", k."pojazdId", coalesce(k."katPal", 'ON') as fuel
    from fuel_card k where k."pojazdId" is not null`);
  const cards = Number((await sql<{ n: string }>`select count(*) as n from bench_card`.execute(db)).rows[0]!.n);
  if (!cards) throw new Error('fleet costs bench: no fuel card has a vehicle');
  log(`fleet costs: ${n0(size.transactions)} fuel transactions on ${n0(cards)} cards (generate_series)…`);
  for (let from = 1; from <= size.transactions; from += CHUNK) {
    const to = Math.min(size.transactions, from + CHUNK - 1);
    await long(db, sql`
      insert into fuel_transaction ("kartaId", "nrTransakcji", "pojazdId", "data", "stacja", "produkt", "litry", "cenaJedn", "netto", "brutto")
      select k."kartaId", 'BENCH-' || g, k."pojazdId",
        date_trunc('day', now()) - ((g * 7919) % 730) * interval '1 day' + (360 + g % 840) * interval '1 minute',
        'ORLEN ' || (g % 900), k.fuel, 25 + g % 30, 6.05, round((25 + g % 30) * 6.05, 2), round((25 + g % 30) * 6.05 * 1.23, 2)
      from generate_series(${from}::bigint, ${to}::bigint) g
      join bench_card k on k.rn = 1 + g % ${cards}`);
    log(`fleet costs: ${n0(to)} transactions (${f1((Date.now() - started) / 1000)} s)`);
  }
  await long(db, sql`drop table bench_card`);
  // each client's first invoice of each month carries its vehicles' lines of that month
  log(`fleet costs: ${n0(size.lines)} invoice lines…`);
  await long(db, sql`
    insert into invoice_line ("liniaId", "faktId", "pojazdId", "okres", "kategoria", "netto", "vat", "brutto")
    select 1000000000 + row_number() over (), x."faktId", x."pojazdId", x.okres, x.kategoria, x.netto, round(x.netto * 0.23, 2), round(x.netto * 1.23, 2)
    from (
      select i."faktId", c."pojazdId", i.okres, cat.k as kategoria, (cat.base + c."pojazdId" % 200)::numeric(12,2) as netto
      from (select distinct on ("klientSymbol", date_trunc('month', "faktDataWyst")) "klientSymbol", "faktId", date_trunc('month', "faktDataWyst")::date as okres
            from invoice order by "klientSymbol", date_trunc('month', "faktDataWyst"), "faktId") i
      join car c on c."klientSymbol" = i."klientSymbol"
      cross join (values ('leasing', 1500), ('serwis', 150), ('ubezpieczenie', 250), ('opony', 60)) cat(k, base)
      limit ${size.lines}
    ) x`);
  for (const table of ['fuel_transaction', 'invoice_line']) {
    await db.connection().execute(async (c) => {
      await sql`set statement_timeout = 0`.execute(c);
      await sql`vacuum analyze ${sql.table(table)}`.execute(c);
      await sql`reset statement_timeout`.execute(c);
    });
  }
  await db.insertInto('app_setting').values({ key: 'bench-fleet-costs', value: JSON.stringify(size) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify(size) })).execute();
  log(`fleet costs: generated and analysed in ${f1((Date.now() - started) / 1000)} s`);
}

interface Figure { label: string; median: number; p95: number; target: number; rows: string }
interface Answer { rows: unknown[]; totals: Record<string, number | null>; rowCount?: number }

/** The figures, as markdown lines for docs/benchmarks.md. */
export async function fleetCostFigures(o: {
  api: Api; db: Kysely<DB>; admin: string; manager: string; transactions: number; lines: number; repetitions: number; log: (m: string) => void; today?: Date;
}): Promise<string[]> {
  await prepareFleetCosts(o.db, { transactions: o.transactions, lines: o.lines }, o.log);
  const today = o.today ?? new Date();
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  // "a year" of issue 46: the last twelve whole months, which the running totals answer alone; the
  // screen's "Rok" (1 January to today, runtime/src/screens/reports/periods.ts) and "Bieżący
  // miesiąc" are measured beside it: their days of this month come from the totals too while
  // nothing is dated after today, from the rows otherwise (server/reports/engine.ts)
  const thisYear = periodRange('year', iso(today));
  const thisMonth = periodRange('thisMonth', iso(today));
  const year = { from: iso(new Date(Date.UTC(today.getUTCFullYear() - 1, today.getUTCMonth(), 1))), to: iso(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), 0))) };
  const month = { from: iso(new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() - 1, 1))), to: year.to };
  const figures: Figure[] = [];
  const measure = async (label: string, target: number, call: () => Promise<Answer>) => {
    for (let i = 0; i < 3; i++) await call(); // warm-up
    const samples: number[] = [];
    let answer: Answer | undefined;
    for (let i = 0; i < o.repetitions; i++) samples.push(await timed(async () => { answer = await call(); }));
    const { costNet, co2 } = answer!.totals;
    const total = costNet != null ? `total net ${n0(Math.round(costNet))} zł` : `total ${n0(Math.round(Number(co2 ?? 0)))} kg CO2`;
    const count = answer!.rowCount !== undefined && answer!.rowCount !== answer!.rows.length ? `${n0(answer!.rows.length)} of ${n0(answer!.rowCount)} rows` : `${n0(answer!.rows.length)} rows`;
    const figure = { label, target, ...latency(samples), rows: `${count}, ${total}` };
    o.log(`fleet costs: ${label}: median ${f1(figure.median)} ms, p95 ${f1(figure.p95)} ms (${figure.rows})`);
    figures.push(figure);
  };
  const run = (report: string, period: { from: string; to: string }, token: string) => () => o.api.post<Answer>(`/reports/${report}/run`, period, token);
  // as the Raporty screen asks since the report is paged: a page of 100 rows, the chart's 10 largest, totals over all rows
  const screen = (report: string, period: { from: string; to: string }, token: string) => () =>
    o.api.post<Answer>(`/reports/${report}/run`, { ...period, page: { offset: 0, limit: 100 }, top: 10 }, token);
  const sorted = (report: string, period: { from: string; to: string }, token: string) => () =>
    o.api.post<Answer>(`/reports/${report}/run`, { ...period, page: { offset: 100, limit: 100 }, sort: { column: 'vehicle', direction: 'desc' }, top: 10 }, token);
  await measure('vehicle-cost of the last 12 months, MANAGER, the screen\'s page', 500, screen('vehicle-cost', year, o.manager));
  await measure('vehicle-cost of last month, MANAGER, the screen\'s page', 500, screen('vehicle-cost', month, o.manager));
  await measure('vehicle-cost of this year (the screen\'s "Rok"), MANAGER, the screen\'s page', 500, screen('vehicle-cost', thisYear, o.manager));
  await measure('vehicle-cost of this month until today (the screen\'s "Bieżący miesiąc"), MANAGER, the screen\'s page', 500, screen('vehicle-cost', thisMonth, o.manager));
  await measure('vehicle-cost of the last 12 months, MANAGER, 2nd page sorted by vehicle', 500, sorted('vehicle-cost', year, o.manager));
  await measure('vehicle-cost of the last 12 months, ADMIN, the screen\'s page', 2_000, screen('vehicle-cost', year, o.admin));
  await measure('vehicle-cost of the last 12 months, MANAGER (one client)', 500, run('vehicle-cost', year, o.manager));
  await measure('vehicle-cost of last month, MANAGER', 500, run('vehicle-cost', month, o.manager));
  await measure('co2-emissions of the last 12 months, MANAGER', 500, run('co2-emissions', year, o.manager));
  await measure('vehicle-cost of the last 12 months, ADMIN (every client)', 2_000, run('vehicle-cost', year, o.admin));
  await measure('co2-emissions of the last 12 months, ADMIN', 2_000, run('co2-emissions', year, o.admin));
  const count = async (table: string) => n0(Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(o.db)).rows[0]!.n));
  const managerClient = (await o.db.selectFrom('app_user').select('klientSymbol').where('login', '=', DEMO_ACCOUNTS.manager.login).executeTakeFirstOrThrow()).klientSymbol;
  const managerCars = n0(Number((await sql<{ n: string }>`select count(*) as n from car where "klientSymbol" = ${managerClient}`.execute(o.db)).rows[0]!.n));
  return [
    '', `### What the fleet costs: ${await count('car')} vehicles, ${await count('fuel_transaction')} fuel transactions, ${await count('invoice_line')} invoice lines (issue 46)`, '',
    '| report | median | p95 | target p95 | answer |', '|---|---:|---:|---:|---|',
    ...figures.map((f) => `| ${f.label} | ${f1(f.median)} ms | ${f1(f.p95)} ms ${f.p95 <= f.target ? '✓' : '✗'} | ${n0(f.target)} ms | ${f.rows} |`),
    '',
    `Database: ${await databaseSettings(o.db)}.`, '',
    `${o.repetitions} calls each after 3 warm-up calls, over HTTP with a real session (tools/bench/fleet-costs.ts); the manager's client has ${managerCars} vehicles. Period: ${year.from} – ${year.to} (last month ${month.from} – ${month.to}; "Rok" ${thisYear.from} – ${thisYear.to}; "Bieżący miesiąc" ${thisMonth.from} – ${thisMonth.to}). The rows are generated in SQL: transactions over the last two years on every card with a vehicle, lines for each vehicle in each month its client was invoiced (four categories). See docs/decisions.md "Fleet costs and reports (issue 46)".`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { transactions: { type: 'string' }, lines: { type: 'string' }, repetitions: { type: 'string' }, schema: { type: 'string' } } });
  await runStandalone(values.schema ?? 'bench_costs', { cars: 100_000, orders: 100_000 }, (signed) => fleetCostFigures({
    ...signed, transactions: Number(values.transactions ?? FUEL_TRANSACTIONS), lines: Number(values.lines ?? INVOICE_LINES), repetitions: Number(values.repetitions ?? 20),
  }));
}
