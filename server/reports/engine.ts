/**
 * Runs a declared report (issue 46; docs/decisions.md "Reports (issue 46)"): one SQL statement over
 * the facts of the period — the invoices' cost lines and the fuel transactions, each category from
 * the one source schemas/reporting/reporting.json names (fuel invoiced both ways counts once), and
 * per vehicle and month the kilometres of the odometer readings interpolated at the period's ends —
 * joined to the vehicles within the caller's row scope (the car resource's, ACCESS.md), grouped by
 * the chosen dimensions. Totals are the sums of the rows as shown (rounded), so a total always
 * equals the rows behind it; a ratio's total is the ratio of the totals. A row appears when
 * something was counted for it (a vehicle with no cost, fuel or kilometre in the period does not).
 *
 * The whole months of a period are read from the running totals kept per vehicle (migration 053,
 * docs/decisions.md "Reports read running totals"): two array elements a vehicle and key instead
 * of every row of the period. The days before the first whole month and after the last are read
 * from the rows themselves (unless nothing is dated after the period's end: its last month is then
 * read whole from the totals), as is everything when `runningTotals` is false (the reference the
 * running totals are tested against, server/reports/engine.test.ts). Invoice lines count for their
 * whole month and always come from the totals.
 */
import { sql, type Kysely, type RawBuilder, type Expression } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { Dimension, Measure, ReportDecl, ReportingDecl } from '../config/report-declaration.ts';
import { RUNNING } from '../migrations/053_running_totals.ts';
import { labelCase, pagedSelect, type Paging } from './paging.ts';

export interface RunParams {
  from: string;
  to: string;
  groupBy: Dimension[];
  filters: Partial<Record<Dimension, (string | number)[]>>;
  /** A page of the rows in an order (POST /api/reports/{id}/run); none: every row, by the grouping's keys. */
  page?: Paging;
}

export interface ReportColumn { id: string; label: string; kind: 'dimension' | 'measure' | 'range'; format?: 'money' | 'km' | 'litres' | 'ratio' | 'kg' | 'count' | 'month' }
export interface ReportResult {
  columns: ReportColumn[];
  rows: { keys: Record<string, string | number | null>; values: Record<string, string | number | null> }[];
  totals: Record<string, number | null>;
  /** How many rows there are in all (the page's rows are some of them). */
  rowCount: number;
  /** The chart's rows when asked (Paging.top): the largest by the report's chart measure. */
  top?: ReportResult['rows'];
}

/** The columns a report's run may be sorted by: its grouping's dimensions, its category columns and its measures (not the derived range). */
export function sortableColumns(report: ReportDecl, reporting: ReportingDecl | undefined, groupBy: Dimension[]): string[] {
  return [...groupBy, ...(report.pivot && reporting ? reporting.categories.map((c) => `category:${c.id}`) : []), ...report.measures];
}

export const DIM_KEY: Record<Dimension, string> = {
  vehicle: 'c."pojazdId"', client: 'c."klientSymbol"', mpk: 'e."mpk"', unit: 'e."jednId"',
  month: `to_char(x."month", 'YYYY-MM')`, category: 'x."category"', fuelType: 'x."fuelType"', driver: 'e."pracId"',
  rule: 'x."rule"', explained: 'x."explained"',
};
/** A dimension's label on one vehicle's row. */
export const DIM_ROW_LABEL: Partial<Record<Dimension, string>> = {
  vehicle: `c."rejestr" || coalesce(' ' || c."markaOpis", '') || coalesce(' ' || c."modelOpis", '')`, client: 'cl."klientNazwa"',
  unit: 'u."nazwa"', driver: `e."nazwisko" || ' ' || e."imie"`,
};
/** A dimension's label on a group of rows (one value: each depends on the vehicle). */
export const DIM_LABEL: Partial<Record<Dimension, string>> = Object.fromEntries(
  Object.entries(DIM_ROW_LABEL).map(([d, label]) => [d, `max(${label})`]),
);
/** How a dimension's value is written where it is shown (its value stays the key: a month is YYYY-MM, sorted as a date). */
export const DIM_FORMAT: Partial<Record<Dimension, ReportColumn['format']>> = { month: 'month' };
export const FORMAT: Record<Measure, ReportColumn['format']> = {
  costNet: 'money', costGross: 'money', km: 'km', costPerKm: 'ratio', litres: 'litres', l100: 'ratio', co2: 'kg',
  anomalies: 'count', anomaliesOpen: 'count', anomaliesExplained: 'count',
};

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;

/** The fuel type of a product name as the issuers write it (null: no fuel). */
function fuelOf(reporting: ReportingDecl, column: string): string {
  const pairs = Object.entries(reporting.products);
  if (!pairs.length) return 'null::text';
  return `(case upper(trim(${column})) ${pairs.map(([p, f]) => `when ${lit(p.toUpperCase())} then ${lit(f)}`).join(' ')} else null end)`;
}

function factorOf(reporting: ReportingDecl, fuel: string): string {
  const pairs = Object.entries(reporting.emissionFactors.kgPerLitre);
  return pairs.length ? `(case ${fuel} ${pairs.map(([f, k]) => `when ${lit(f)} then ${k}`).join(' ')} else 0 end)` : '0';
}

/** The odometer at a moment, interpolated between the readings around it (clamped at the first and last). */
function odometer(vehicle: string, at: string, alias: string): string {
  return `left join lateral (select r."licznik", r."data" from mileage_reading r where r."pojazdId" = ${vehicle} and r."data" <= ${at} order by r."data" desc limit 1) ${alias}p on true
    left join lateral (select r."licznik", r."data" from mileage_reading r where r."pojazdId" = ${vehicle} and r."data" >= ${at} order by r."data" limit 1) ${alias}n on true`;
}
function odometerValue(at: string, alias: string): string {
  return `(case when ${alias}p."data" is null then ${alias}n."licznik" when ${alias}n."data" is null or ${alias}n."data" = ${alias}p."data" then ${alias}p."licznik"
    else ${alias}p."licznik" + (${alias}n."licznik" - ${alias}p."licznik") * extract(epoch from (${at} - ${alias}p."data")) / extract(epoch from (${alias}n."data" - ${alias}p."data")) end)`;
}

/** A month number (year × 12 + month − 1, as migration 053 keeps them) and its first day. */
const monthOf = (iso: string) => Number(iso.slice(0, 4)) * 12 + Number(iso.slice(5, 7)) - 1;
const firstDay = (n: number) => `${Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}-01`;
const dayAfter = (iso: string) => new Date(Date.parse(`${iso}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
const ts = (iso: string) => `(${lit(iso)}::date)::timestamptz`;
const lastDayOf = (month: number) => new Date(Date.parse(`${firstDay(month + 1)}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);

/**
 * Whether no fuel transaction (`fuel`) and no odometer reading (`km`) is dated on or after `day`,
 * in the whole table: a few dozen kilobytes of BRIN index read (migration 058), then the pages of
 * the ranges whose latest moment is after the day until a first such row (none, usually).
 */
export async function nothingDatedFrom(db: Kysely<DB>, day: string, sources: { fuel: boolean; km: boolean }): Promise<boolean> {
  const found = [
    sources.fuel ? `exists (select 1 from fuel_transaction where "data" >= ${ts(day)})` : null,
    sources.km ? `exists (select 1 from mileage_reading where "data" >= ${ts(day)})` : null,
  ].filter(Boolean);
  if (!found.length) return true;
  const { rows } = await db.transaction().execute(async (trx) => {
    // Read through the BRIN indexes whatever the planner expects of them: where the rows lie in no
    // order of time (the bench's generated fills), it prices the index as reading every range and
    // scans the whole table instead (~1 s for ten million) — yet the ranges it reads are only those
    // whose latest moment is after the day, usually none.
    for (const setting of ['enable_seqscan', 'enable_indexscan', 'enable_indexonlyscan']) await sql.raw(`set local ${setting} = off`).execute(trx);
    await sql`set local max_parallel_workers_per_gather = 0`.execute(trx);
    return sql.raw<{ any: boolean }>(`select ${found.join(' or ')} as "any"`).execute(trx);
  });
  return !rows[0]!.any;
}

/**
 * The period cut where the running totals can answer it: the whole months inside it (`first` to
 * `last`, month numbers; none when `first` > `last`) and the days before and after them, read from
 * the rows themselves (`head`, `tail`: a day range, `to` exclusive).
 */
export function periodParts(from: string, to: string): { first: number; last: number; head: { from: string; to: string } | null; tail: { from: string; to: string } | null } {
  const end = dayAfter(to);
  const first = monthOf(from) + (from.endsWith('-01') ? 0 : 1);
  const last = monthOf(end) - 1;
  if (first > last) return { first, last, head: { from, to: end }, tail: null };
  return {
    first, last,
    head: from.endsWith('-01') ? null : { from, to: firstDay(first) },
    tail: end.endsWith('-01') ? null : { from: firstDay(last + 1), to: end },
  };
}

export async function runReport(
  db: Kysely<DB>, report: ReportDecl, reporting: ReportingDecl, params: RunParams,
  scopedVehicles: Expression<unknown>, t: (key: string) => string,
  /** false: every month from the rows themselves (the reference the running totals are tested against) */
  { runningTotals = true }: { runningTotals?: boolean } = {},
): Promise<ReportResult> {
  const { from, to, groupBy, filters } = params;
  const fuel = fuelOf(reporting, 't."produkt"');
  const bySource = (source: 'invoice' | 'fuel') => reporting.categories.filter((c) => c.source === source).map((c) => lit(c.id));
  const invoiceCats = bySource('invoice');
  const fuelCats = new Set(reporting.categories.filter((c) => c.source === 'fuel').map((c) => c.id));
  const withCategory = groupBy.includes('category') || (filters.category?.length ?? 0) > 0;
  const used = (d: Dimension) => groupBy.includes(d) || (filters[d]?.length ?? 0) > 0;
  const needsKm = report.measures.some((m) => m === 'km' || m === 'costPerKm' || m === 'l100') && !withCategory;
  const invoices = report.source === 'costs' && invoiceCats.length > 0;
  // which transactions count: a costs report takes the fuel category's and the other products' as
  // schemas/reporting/reporting.json gives them to the fuel source; a fuel report only fuel
  const txWhere = (fuelExpr: string) => (report.source === 'costs'
    ? [fuelCats.has(reporting.fuelCategory) ? `${fuelExpr} is not null` : null, fuelCats.has(reporting.otherProductsCategory) ? `${fuelExpr} is null` : null].filter(Boolean)
    : [`${fuelExpr} is not null`]) as string[];
  const txCategory = (fuelExpr: string) => `(case when ${fuelExpr} is not null then ${lit(reporting.fuelCategory)} else ${lit(reporting.otherProductsCategory)} end)`;
  // every part's measures in whole numbers — grosze, hundredths of a litre, milligrams of CO2,
  // metres — summed as bigint (cheaper than numeric over a large client's rows) and put back in
  // złote, litres, kilograms and kilometres for the answer
  const parts: string[] = [];

  // the vehicle's own fuel type is read only where the report shows or filters by it (a join of
  // the client's vehicles to every part otherwise: ~0.1 s each for a large client)
  const withFuelType = used('fuelType');
  const vehicleFuel = (alias: string) => (withFuelType ? `${alias}."rodzajPaliwa"` : 'null::text');
  const vehicleJoin = (alias: string, on: string) => (withFuelType ? `join car ${alias} on ${alias}."pojazdId" = ${on}` : '');

  /**
   * The rows themselves of the days [lo, hi): fuel transactions by their moment and, when
   * `withInvoices`, invoice lines by their month — every line of each month the days touch.
   */
  const rawParts = (lo: string, hi: string, withInvoices: boolean) => {
    if (invoices && withInvoices) {
      parts.push(`select l."pojazdId", date_trunc('month', l."okres")::date as "month", l."kategoria" as "category", ${vehicleFuel('v')} as "fuelType",
        round(l."netto" * 100)::bigint as "net", round(l."brutto" * 100)::bigint as "gross", 0::bigint as "litres", 0::bigint as "co2", 0::bigint as "km"
        from invoice_line l join scoped s on s."pojazdId" = l."pojazdId" ${vehicleJoin('v', 'l."pojazdId"')}
        where l."okres" >= date_trunc('month', ${lit(lo)}::date) and l."okres" < date_trunc('month', ${lit(hi)}::date - 1) + interval '1 month'
          and l."kategoria" in (${invoiceCats.join(', ')})`);
    }
    const where = txWhere(fuel);
    if (where.length) {
      parts.push(`select t."pojazdId", date_trunc('month', t."data")::date as "month", ${txCategory(fuel)} as "category", ${withFuelType ? `coalesce(${fuel}, v."rodzajPaliwa")` : 'null::text'} as "fuelType",
        round(t."netto" * 100)::bigint as "net", round(t."brutto" * 100)::bigint as "gross", case when ${fuel} is not null then round(coalesce(t."litry", 0) * 100)::bigint else 0 end as "litres",
        case when ${fuel} is not null then round(coalesce(t."litry", 0) * ${factorOf(reporting, fuel)} * 1000000)::bigint else 0 end as "co2", 0::bigint as "km"
        from fuel_transaction t join scoped s on s."pojazdId" = t."pojazdId" ${vehicleJoin('v', 't."pojazdId"')}
        where t."data" >= ${ts(lo)} and t."data" < ${ts(hi)} and (${where.join(' or ')})`);
    }
    if (needsKm) {
      // each vehicle's kilometres per month-slice of [lo, hi): the odometer is read once at each end
      // (lo, each first of a month inside, hi) and a slice's kilometres are the next end's reading
      // less its own
      const ends = `(select ${ts(lo)} as "at"
          union all select g::timestamptz from generate_series(date_trunc('month', ${lit(lo)}::date) + interval '1 month', ${lit(hi)}::date - 1, interval '1 month') g
          union all select ${ts(hi)}) e`;
      parts.push(`select k."pojazdId", k."month", null::text as "category", k."fuelType",
        0::bigint, 0::bigint, 0::bigint, 0::bigint, round(greatest(k."next" - k."odo", 0) * 1000)::bigint as "km"
        from (select s."pojazdId", ${vehicleFuel('v')} as "fuelType", date_trunc('month', e."at")::date as "month", ${odometerValue('e."at"', 'e')} as "odo",
            lead(${odometerValue('e."at"', 'e')}) over (partition by s."pojazdId" order by e."at") as "next",
            lead(e."at") over (partition by s."pojazdId" order by e."at") as "nextAt"
          from scoped s ${vehicleJoin('v', 's."pojazdId"')} cross join ${ends}
          ${odometer('s."pojazdId"', 'e."at"', 'e')}
          where exists (select 1 from vehicle_mileage r where r."pojazdId" = s."pojazdId")) k
        where k."nextAt" is not null`);
    }
  };

  /**
   * Months from the running totals (migration 053), in one pass over the caller's vehicles' rows:
   * fuel and kilometres of the whole months [first, last], invoice lines of [invoiceFirst,
   * invoiceLast] (every month the period touches: a line counts for its whole month). A row a
   * vehicle and key — the total at its range's last month less the total before its first — or,
   * when the report is by month, a row a month the totals span (the total at the month less the
   * one before). A range with its first after its last reads nothing of its sources.
   */
  const keptPart = (first: number, last: number, invoiceFirst: number, invoiceLast: number) => {
    const byMonth = used('month');
    const wholeMonths = first <= last;
    const withInvoices = invoices && invoiceFirst <= invoiceLast;
    // a measure's difference of running totals over a range of months; an array a row does not keep is empty, and its difference zero
    const diffOver = (arr: string, lo: number, hi: number) => {
      const atMonth = (m: string) => RUNNING.at(`r."${arr}"`, 'r."firstMonth"', m);
      return `(${byMonth ? `${atMonth('mm.m')} - ${atMonth('mm.m - 1')}` : `${atMonth(String(hi))} - ${atMonth(String(lo - 1))}`})`;
    };
    const diff = (arr: string) => diffOver(arr, first, last);
    // each vehicle's rows read by its key (a nested loop from the caller's vehicles: hashing every
    // client's rows costs more), the product's fuel worked out once a row
    const keyFuel = 'r."fuel"';
    const fuelWhere = wholeMonths ? txWhere(keyFuel) : [];
    const withKm = wholeMonths && needsKm;
    const sources = [
      withInvoices ? `(r."source" = 'invoice' and r."key" in (${invoiceCats.join(', ')}))` : null,
      fuelWhere.length ? `(r."source" = 'fuel' and (${fuelWhere.join(' or ')}))` : null,
      withKm ? `r."source" = 'km'` : null,
    ].filter(Boolean);
    if (!sources.length) return;
    // each measure only from the rows that keep it (a kilometres row has no money, a money row no
    // kilometres), and the litres worked out once: the CO2 is computed from them a level up
    const counted = `case when r."source" = 'fuel' and ${keyFuel} is not null then ${diff('litres')} else 0 end`;
    const money = (arr: string) => (withInvoices
      ? `case r."source" when 'invoice' then ${diffOver(arr, invoiceFirst, invoiceLast)} when 'fuel' then ${diff(arr)} else 0 end`
      : `case when r."source" <> 'km' then ${diff(arr)} else 0 end`);
    // by month, the months as a list (not generate_series): the planner then knows how many a row there are, and hashes the sums
    const lo = Math.min(...[wholeMonths ? first : Infinity, withInvoices ? invoiceFirst : Infinity]);
    const hi = Math.max(...[wholeMonths ? last : -Infinity, withInvoices ? invoiceLast : -Infinity]);
    const list = Array.from({ length: hi - lo + 1 }, (_, i) => `(${lo + i})`).join(', ');
    // (an invoice row's months may reach past the whole months', a fuel or kilometres row's may not)
    const inRange = withInvoices && (invoiceFirst < first || invoiceLast > last)
      ? ` and (case when r."source" = 'invoice' then mm.m between ${invoiceFirst} and ${invoiceLast} else mm.m between ${first} and ${last} end)`
      : '';
    const months = byMonth ? `join (values ${list}) mm(m) on mm.m >= r."firstMonth" and mm.m < r."firstMonth" + greatest(cardinality(r."net"), cardinality(r."km"))${inRange}` : '';
    parts.push(`select k."pojazdId", k."month", k."category", k."fuelType", k."net", k."gross", k."litres",
        round(k."litres" * ${factorOf(reporting, 'k."fuel"')} * 10000)::bigint as "co2", k."km"
      from (select r."pojazdId", ${byMonth ? 'make_date(mm.m / 12, mm.m % 12 + 1, 1)' : 'null::date'} as "month",
        case r."source" when 'invoice' then r."key" when 'fuel' then ${txCategory(keyFuel)} end as "category",
        ${used('fuelType') ? `case when r."source" = 'fuel' then coalesce(${keyFuel}, v."rodzajPaliwa") else v."rodzajPaliwa" end` : 'null::text'} as "fuelType",
        ${money('net')} as "net", ${money('gross')} as "gross", ${counted} as "litres", ${keyFuel} as "fuel",
        case when r."source" = 'km' then ${diff('km')} else 0 end as "km"
      from scoped s cross join lateral (select r0.*, case when r0."source" = 'fuel' then ${fuelOf(reporting, 'r0."key"')} end as "fuel"
          from running_total r0 where r0."pojazdId" = s."pojazdId" and r0."source" in (${[withInvoices ? "'invoice'" : null, fuelWhere.length ? "'fuel'" : null, withKm ? "'km'" : null].filter(Boolean).join(', ')}) offset 0) r
        ${used('fuelType') ? 'join car v on v."pojazdId" = r."pojazdId"' : ''} ${months}
      where (${sources.join(' or ')}) offset 0) k`); // (a month without change adds zeros; a row of zeros is left out below)
  };

  if (runningTotals) {
    // fuel and kilometres: the whole months from the totals, the days around them from the rows;
    // invoice lines (a month each) wholly from the totals. A period that ends inside a month it
    // covers from the first (this month, quarter or year, ending today) has that month's element
    // of the totals as its days when nothing of the month is dated after its end: the month is
    // then read whole from the totals.
    const end = dayAfter(to);
    const lastMonthFrom = firstDay(monthOf(to));
    const wholeLastMonth = !end.endsWith('-01') && from <= lastMonthFrom
      && await nothingDatedFrom(db, end, { fuel: txWhere(fuel).length > 0, km: needsKm });
    const period = periodParts(from, wholeLastMonth ? lastDayOf(monthOf(to)) : to);
    if (period.head) rawParts(period.head.from, period.head.to, false);
    keptPart(period.first, period.last, monthOf(from), monthOf(to));
    if (period.tail) rawParts(period.tail.from, period.tail.to, false);
  } else {
    rawParts(from, dayAfter(to), true);
  }
  // the sums per vehicle (and month, category, fuel type where the report needs them) before the
  // vehicles' dimensions are joined: the joins and labels then work on one row a vehicle, not on
  // every source row
  const inner = (['month', 'category', 'fuelType'] as Dimension[]).filter(used);
  // a report by month and fuel type alone (CO2) needs nothing of the vehicles' tables: its sums are
  // grouped straight away, not per vehicle first (320,000 vehicle-months of a large client, 24 rows)
  const byVehicle = (['vehicle', 'client', 'mpk', 'unit', 'driver'] as Dimension[]).some(used);
  const where: string[] = [];
  const values: unknown[] = [];
  for (const [dim, list] of Object.entries(filters) as [Dimension, (string | number)[]][]) {
    if (!list?.length) continue;
    values.push(list.map(String));
    where.push(`(${DIM_KEY[dim]})::text = any(${'$' + values.length}::text[])`);
  }
  const pivotCats = report.pivot ? reporting.categories : [];
  const pivotMeasure = report.pivot?.measure === 'costGross' ? 'gross' : 'net';
  // grouped by the vehicle, and by nothing of the inner sums that is not shown, each row of the
  // inner sums is a row of the report (client, cost centre, unit and driver follow the vehicle):
  // it is taken as it is, not sorted and grouped again (a large client's year: ~10 % of the statement)
  const rowEach = groupBy.includes('vehicle') && inner.every((d) => groupBy.includes(d));
  const agg = (fn: 'sum' | 'max', expr: string) => (rowEach ? expr : `${fn}(${expr})`);
  const { page } = params;
  // A page of rows that are each one vehicle's, with nothing of the vehicles' tables grouped or
  // filtered and the page not ordered by a label: the vehicles' labels are joined to the page's and
  // the chart's rows only, not to every row the totals add up (a large client's year: 33,333 rows
  // joined for 110 shown, about a tenth of the statement).
  const vehicleTables: Dimension[] = ['vehicle', 'client', 'mpk', 'unit', 'driver'];
  const sortedByLabel = page?.sort !== undefined && groupBy.includes(page.sort.column as Dimension) && DIM_LABEL[page.sort.column as Dimension] !== undefined;
  const labelsLater = Boolean(page) && rowEach && byVehicle && groupBy.every((d) => !vehicleTables.includes(d) || d === 'vehicle')
    && vehicleTables.every((d) => !(filters[d]?.length)) && !sortedByLabel;
  const select = [
    ...groupBy.map((d) => `${labelsLater && d === 'vehicle' ? 'x."pojazdId"' : DIM_KEY[d]} as "k_${d}"`),
    ...(labelsLater ? [] : groupBy.filter((d) => DIM_ROW_LABEL[d]).map((d) => `${rowEach ? DIM_ROW_LABEL[d] : DIM_LABEL[d]} as "l_${d}"`)),
    // kilometres and kilograms rounded as the row shows them (whole km, hundredths of a kg), here,
    // so that the totals over all rows — summed in SQL when paged — add up to the rows shown
    `${agg('sum', 'x."net"')} as "net"`, `${agg('sum', 'x."gross"')} as "gross"`, `floor((${agg('sum', 'x."km"')} + 500) / 1000)::bigint as "km"`,
    `${agg('sum', 'x."litres"')} as "litres"`, `floor((${agg('sum', 'x."co2"')} + 5000) / 10000)::bigint as "co2"`,
    ...(labelsLater ? [] : [byVehicle ? `${agg('max', 'c."rodzajPaliwa"')} as "vehicleFuel"` : 'null as "vehicleFuel"']),
    ...pivotCats.map((_, i) => `${agg('sum', `x."p${i}"`)} as "p${i}"`),
  ];
  const counted = ['net', 'gross', 'km', 'litres'].map((m) => `${agg('sum', `x."${m}"`)} <> 0`).join(' or ');
  // a pivot's columns are summed per vehicle already, so that the category is not a key of the inner sums
  const innerPivot = pivotCats.map((c, i) => `, sum(x."${pivotMeasure}") filter (where x."category" = ${lit(c.id)}) as "p${i}"`).join('');
  // the caller's vehicles first, joined in each part: a manager's report reads his client's rows
  // by their vehicle (the parts' indexes lead with it), not every client's rows of the period
  // before a filter on the sums (docs/benchmarks.md, issue 46)
  const grouped = `select ${select.join(', ')}
    from (select ${[...(byVehicle ? ['pojazdId'] : []), ...inner].map((d) => `x."${d}", `).join('')}sum(x."net") as "net", sum(x."gross") as "gross", sum(x."km") as "km", sum(x."litres") as "litres", sum(x."co2") as "co2"${innerPivot}
      from (${parts.join('\n union all \n')}
        offset 0) x -- (each row's category and differences worked out once, not again in each sum that reads them)
      ${byVehicle || inner.length ? `group by ${[...(byVehicle ? ['pojazdId'] : []), ...inner].map((d) => `x."${d}"`).join(', ')}` : ''}) x
    ${byVehicle && !labelsLater ? `join car c on c."pojazdId" = x."pojazdId"
    left join client cl on cl."klient" = c."klientSymbol"
    left join employee e on e."pracId" = c."pracId"
    left join unit u on u."jednId" = e."jednId"` : ''}
    where true ${where.map((w) => `and ${w}`).join(' ')}
    ${rowEach ? `and (${counted})` : `group by ${groupBy.map((d) => DIM_KEY[d]).join(', ')} having ${counted}`}`;
  // the caller's vehicles in their order, as the running totals' key leads: each vehicle's rows are
  // then read next to the one before's (out of order, the manager's year took a fifth longer)
  const scoped = 'with scoped as materialized (select s."pojazdId" from (__SCOPE__) s order by 1)';
  // a measure's value in g's columns (whole units, as summed): what a page is sorted by
  const measureOrder: Record<string, string> = {
    costNet: 'g."net"', costGross: 'g."gross"', km: 'g."km"', litres: 'g."litres"', co2: 'g."co2"',
    costPerKm: 'case when g."km" > 0 then g."net"::numeric / g."km" end', l100: 'case when g."km" > 0 and g."litres" > 0 then g."litres"::numeric / g."km" end',
  };
  pivotCats.forEach((c, i) => { measureOrder[`category:${c.id}`] = `coalesce(g."p${i}", 0)`; });
  const dimensionOrder = (d: Dimension) => {
    if (DIM_LABEL[d]) return `g."l_${d}"`;
    if (d === 'category') return labelCase(`g."k_${d}"`, reporting.categories.map((c) => [c.id, t(c.label)]));
    if (d === 'fuelType') return labelCase(`g."k_${d}"`, Object.entries(reporting.fuels ?? {}).map(([f, l]) => [f, t(l)]));
    return `g."k_${d}"`;
  };
  const orderOf = (column: string) => (groupBy.includes(column as Dimension) ? dimensionOrder(column as Dimension) : measureOrder[column]);
  const paged = page && pagedSelect({
    totals: ['net', 'gross', 'km', 'litres', 'co2', ...pivotCats.map((_, i) => `p${i}`)].map((c) => `coalesce(sum(g."${c}"), 0) as "t_${c}"`),
    order: page.sort && orderOf(page.sort.column) ? `${orderOf(page.sort.column)} ${page.sort.direction} nulls last` : null,
    keys: groupBy.map((d) => `k_${d}`), page, top: report.chart ? orderOf(report.chart.measure) : undefined,
  });
  const text = !paged
    ? `${scoped} ${grouped} order by ${groupBy.map((d) => `${DIM_KEY[d]} nulls last`).join(', ')}`
    : labelsLater
      ? `${scoped}, g as materialized (${grouped})
        select p.*, ${DIM_ROW_LABEL.vehicle} as "l_vehicle", c."rodzajPaliwa" as "vehicleFuel"
        from (${paged}) p left join car c on c."pojazdId" = p."k_vehicle"
        order by p."part", p."pageRow"`
      : `${scoped}, g as materialized (${grouped})
      ${paged}`;
  // the scope subquery is kysely's (access/row-scope.ts); the rest is this module's text, its filter values as parameters
  const [head, tail] = text.split('__SCOPE__');
  const answer = (await db.transaction().execute(async (trx) => {
    // a report sums some hundred thousand rows a large client: in memory, not in temporary files (the default 4 MB spills)
    await sql`set local work_mem = '64MB'`.execute(trx);
    return executeWithValues(trx, head, tail, scopedVehicles, values);
  })).rows as Record<string, unknown>[];
  const rows = page ? answer.filter((r) => r.part === 'page') : answer;

  const round = (v: unknown, digits = 2) => (v === null || v === undefined ? null : Math.round(Number(v) * 10 ** digits) / 10 ** digits);
  // the rows' column names worked out once, not again in every row: a whole answer is up to 100,000
  // rows, and making these strings per row and category was most of its time outside the database
  const labelKey = Object.fromEntries(groupBy.map((d) => [d, `l_${d}`])) as Record<Dimension, string>;
  const keyColumns = groupBy.map((d) => `k_${d}`);
  const pivotIds = pivotCats.map((c) => `category:${c.id}`);
  const pivotColumns = pivotCats.map((_, i) => `p${i}`);
  const label = (d: Dimension, key: unknown, row: Record<string, unknown>): string | number | null => {
    if (key === null || key === undefined) return t('reports:none');
    if (d === 'category') return t(reporting.categories.find((c) => c.id === key)?.label ?? String(key));
    if (d === 'fuelType') return reporting.fuels?.[String(key)] ? t(reporting.fuels[String(key)]) : String(key);
    return (row[labelKey[d]] as string | null) ?? String(key);
  };
  const shown = report.measures;
  const columns: ReportColumn[] = [
    ...groupBy.map((d): ReportColumn => ({ id: d, label: t(report.labels?.[d] ?? `reports:dimensions.${d}`), kind: 'dimension', ...(DIM_FORMAT[d] ? { format: DIM_FORMAT[d] } : {}) })),
    ...pivotCats.map((c): ReportColumn => ({ id: `category:${c.id}`, label: t(c.label), kind: 'measure', format: 'money' })),
    ...shown.map((m): ReportColumn => ({ id: m, label: t(report.labels?.[m] ?? `reports:measures.${m}`), kind: 'measure', format: FORMAT[m] })),
  ];
  const ranged = report.range && (groupBy.includes('vehicle') || groupBy.includes('fuelType'));
  if (ranged) columns.push({ id: 'range', label: t('reports:range.column'), kind: 'range' });
  const rowOf = (row: Record<string, unknown>) => {
    const keys: Record<string, string | number | null> = {};
    const vals: Record<string, string | number | null> = {};
    for (let j = 0; j < groupBy.length; j++) {
      const key = row[keyColumns[j]];
      keys[groupBy[j]] = (key as string | number | null) ?? null;
      vals[groupBy[j]] = label(groupBy[j], key, row);
    }
    for (let i = 0; i < pivotIds.length; i++) {
      const value = row[pivotColumns[i]];
      vals[pivotIds[i]] = value == null ? 0 : round(Number(value) / 100) ?? 0;
    }
    const base = { costNet: round(Number(row.net) / 100) ?? 0, costGross: round(Number(row.gross) / 100) ?? 0, km: Number(row.km), litres: round(Number(row.litres) / 100) ?? 0, co2: round(Number(row.co2) / 100) ?? 0 };
    const ratios = ratiosOf(base);
    for (const m of shown) vals[m] = m in base ? base[m as keyof typeof base] : ratios[m as keyof typeof ratios];
    if (ranged) {
      const fuelType = String((groupBy.includes('fuelType') ? row.k_fuelType : row.vehicleFuel) ?? '');
      const range = reporting.consumption[fuelType];
      const l100 = ratios.l100;
      vals.range = !range || l100 === null ? null : t(`reports:range.${l100 < range.min ? 'below' : l100 > range.max ? 'above' : 'within'}`);
    }
    return { keys, values: vals, base };
  };
  const out = rows.map(rowOf);
  const totals: Record<string, number | null> = {};
  if (page) {
    // the totals over every row, summed by the statement in the rows' own whole units
    const first = answer[0] ?? {};
    const unit = (c: string, per: number) => round(Number(first[`t_${c}`] ?? 0) / per) ?? 0;
    const base = { costNet: unit('net', 100), costGross: unit('gross', 100), km: unit('km', 1), litres: unit('litres', 100), co2: unit('co2', 100) };
    const ratios = ratiosOf(base);
    pivotCats.forEach((c, i) => { totals[`category:${c.id}`] = unit(`p${i}`, 100); });
    for (const m of shown) totals[m] = m in base ? base[m as keyof typeof base] : ratios[m as keyof typeof ratios];
    const top = answer.filter((r) => r.part === 'top').map(rowOf).map(({ keys, values }) => ({ keys, values }));
    return { columns, rows: out.map(({ keys, values }) => ({ keys, values })), totals, rowCount: Number(first.rowCount ?? 0), ...(page.top ? { top } : {}) };
  }
  // totals: the sums of the rows as shown, in one pass over them (each sum in the rows' order, as a
  // sum of each alone would add them); a ratio of the totals
  const sums = { costNet: 0, costGross: 0, km: 0, litres: 0, co2: 0 };
  const pivotSums = pivotIds.map(() => 0);
  for (const r of out) {
    sums.costNet += r.base.costNet;
    sums.costGross += r.base.costGross;
    sums.km += r.base.km;
    sums.litres += r.base.litres;
    sums.co2 += r.base.co2;
    for (let i = 0; i < pivotIds.length; i++) pivotSums[i] += Number(r.values[pivotIds[i]] ?? 0);
  }
  const cents = (v: number) => Math.round(v * 100) / 100;
  const base = { costNet: cents(sums.costNet), costGross: cents(sums.costGross), km: cents(sums.km), litres: cents(sums.litres), co2: cents(sums.co2) };
  const ratios = ratiosOf(base);
  pivotIds.forEach((id, i) => { totals[id] = cents(pivotSums[i]); });
  for (const m of shown) totals[m] = m in base ? base[m as keyof typeof base] : ratios[m as keyof typeof ratios];
  return { columns, rows: out.map(({ keys, values }) => ({ keys, values })), totals, rowCount: out.length };
}

function ratiosOf(b: { costNet: number; km: number; litres: number }) {
  return {
    costPerKm: b.km > 0 ? Math.round((b.costNet / b.km) * 100) / 100 : null,
    l100: b.km > 0 && b.litres > 0 ? Math.round((b.litres / b.km) * 10000) / 100 : null,
  };
}

/** The statement with its filter values as parameters and the scope's subquery in place. */
export async function executeWithValues(db: Kysely<DB>, head: string, tail: string, scope: Expression<unknown>, values: unknown[]) {
  const pieces = (text: string) => {
    const out: RawBuilder<unknown>[] = [];
    let last = 0;
    for (const m of text.matchAll(/\$(\d+)/g)) {
      out.push(sql.raw(text.slice(last, m.index)), sql`${values[Number(m[1]) - 1]}`);
      last = m.index! + m[0].length;
    }
    out.push(sql.raw(text.slice(last)));
    return sql.join(out, sql``);
  };
  return sql`${pieces(head)}${scope}${pieces(tail)}`.execute(db);
}

