/**
 * Runs a declared report (issue 46; docs/decisions.md "Reports (issue 46)"): one SQL statement over
 * the facts of the period — the invoices' cost lines and the fuel transactions, each category from
 * the one source schemas/reporting/reporting.json names (fuel invoiced both ways counts once), and
 * per vehicle and month the kilometres of the odometer readings interpolated at the period's ends —
 * joined to the vehicles within the caller's row scope (the car resource's, ACCESS.md), grouped by
 * the chosen dimensions. Totals are the sums of the rows as shown (rounded), so a total always
 * equals the rows behind it; a ratio's total is the ratio of the totals.
 */
import { sql, type Kysely, type RawBuilder, type Expression } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { Dimension, Measure, ReportDecl, ReportingDecl } from '../config/report-declaration.ts';

export interface RunParams {
  from: string;
  to: string;
  groupBy: Dimension[];
  filters: Partial<Record<Dimension, (string | number)[]>>;
}

export interface ReportColumn { id: string; label: string; kind: 'dimension' | 'measure' | 'range'; format?: 'money' | 'km' | 'litres' | 'ratio' | 'kg' | 'count' }
export interface ReportResult {
  columns: ReportColumn[];
  rows: { keys: Record<string, string | number | null>; values: Record<string, string | number | null> }[];
  totals: Record<string, number | null>;
}

export const DIM_KEY: Record<Dimension, string> = {
  vehicle: 'c."pojazdId"', client: 'c."klientSymbol"', mpk: 'e."mpk"', unit: 'e."jednId"',
  month: `to_char(x."month", 'YYYY-MM')`, category: 'x."category"', fuelType: 'x."fuelType"', driver: 'e."pracId"',
  rule: 'x."rule"', explained: 'x."explained"',
};
export const DIM_LABEL: Partial<Record<Dimension, string>> = {
  vehicle: `max(c."rejestr" || coalesce(' ' || c."markaOpis", '') || coalesce(' ' || c."modelOpis", ''))`, client: 'max(cl."klientNazwa")',
  unit: 'max(u."nazwa")', driver: `max(e."nazwisko" || ' ' || e."imie")`,
};
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

export async function runReport(
  db: Kysely<DB>, report: ReportDecl, reporting: ReportingDecl, params: RunParams,
  scopedVehicles: Expression<unknown>, t: (key: string) => string,
): Promise<ReportResult> {
  const { from, to, groupBy, filters } = params;
  const fromTs = `(${lit(from)}::date)::timestamptz`;
  const toTs = `((${lit(to)}::date + 1))::timestamptz`;
  const fuel = fuelOf(reporting, 't."produkt"');
  const bySource = (source: 'invoice' | 'fuel') => reporting.categories.filter((c) => c.source === source).map((c) => lit(c.id));
  const invoiceCats = bySource('invoice');
  const fuelCats = new Set(reporting.categories.filter((c) => c.source === 'fuel').map((c) => c.id));
  const withCategory = groupBy.includes('category') || (filters.category?.length ?? 0) > 0;
  const parts: string[] = [];
  if (report.source === 'costs' && invoiceCats.length) {
    parts.push(`select l."pojazdId", date_trunc('month', l."okres")::date as "month", l."kategoria" as "category", v."rodzajPaliwa" as "fuelType",
      l."netto" as "net", l."brutto" as "gross", 0::numeric as "litres", 0::numeric as "co2", 0::numeric as "km"
      from invoice_line l join scoped s on s."pojazdId" = l."pojazdId" join car v on v."pojazdId" = l."pojazdId"
      where l."okres" >= date_trunc('month', ${lit(from)}::date) and l."okres" <= ${lit(to)}::date and l."kategoria" in (${invoiceCats.join(', ')})`);
  }
  const txCategory = `(case when ${fuel} is not null then ${lit(reporting.fuelCategory)} else ${lit(reporting.otherProductsCategory)} end)`;
  const txWhere = report.source === 'costs'
    ? [fuelCats.has(reporting.fuelCategory) ? `${fuel} is not null` : null, fuelCats.has(reporting.otherProductsCategory) ? `${fuel} is null` : null].filter(Boolean)
    : [`${fuel} is not null`];
  if (txWhere.length) {
    parts.push(`select t."pojazdId", date_trunc('month', t."data")::date as "month", ${txCategory} as "category", coalesce(${fuel}, v."rodzajPaliwa") as "fuelType",
      t."netto" as "net", t."brutto" as "gross", case when ${fuel} is not null then coalesce(t."litry", 0) else 0 end as "litres",
      case when ${fuel} is not null then coalesce(t."litry", 0) * ${factorOf(reporting, fuel)} else 0 end as "co2", 0::numeric as "km"
      from fuel_transaction t join scoped s on s."pojazdId" = t."pojazdId" join car v on v."pojazdId" = t."pojazdId"
      where t."data" >= ${fromTs} and t."data" < ${toTs} and (${txWhere.join(' or ')})`);
  }
  const needsKm = report.measures.some((m) => m === 'km' || m === 'costPerKm' || m === 'l100');
  if (needsKm && !withCategory) {
    // each vehicle's kilometres per month-slice of the period: the odometer is read once at each end
    // (the period's start, each first of a month inside it, the day after its end) and a slice's
    // kilometres are the next end's reading less its own; two index lookups an end, where reading
    // both ends of every slice took four a month (issue 46's bench: 33,333 vehicles × 12 months)
    const ends = `(select ${fromTs} as "at"
        union all select g::timestamptz from generate_series(date_trunc('month', ${lit(from)}::date) + interval '1 month', ${lit(to)}::date, interval '1 month') g
        union all select ${toTs}) e`;
    parts.push(`select k."pojazdId", k."month", null::text as "category", k."fuelType",
      0::numeric, 0::numeric, 0::numeric, 0::numeric, greatest(k."next" - k."odo", 0)::numeric as "km"
      from (select v."pojazdId", v."rodzajPaliwa" as "fuelType", date_trunc('month', e."at")::date as "month", ${odometerValue('e."at"', 'e')} as "odo",
          lead(${odometerValue('e."at"', 'e')}) over (partition by v."pojazdId" order by e."at") as "next",
          lead(e."at") over (partition by v."pojazdId" order by e."at") as "nextAt"
        from scoped s join car v on v."pojazdId" = s."pojazdId" cross join ${ends}
        ${odometer('v."pojazdId"', 'e."at"', 'e')}
        where exists (select 1 from mileage_reading r where r."pojazdId" = v."pojazdId")) k
      where k."nextAt" is not null`);
  }
  const where: string[] = [];
  const values: unknown[] = [];
  for (const [dim, list] of Object.entries(filters) as [Dimension, (string | number)[]][]) {
    if (!list?.length) continue;
    values.push(list.map(String));
    where.push(`(${DIM_KEY[dim]})::text = any(${'$' + values.length}::text[])`);
  }
  const pivotCats = report.pivot ? reporting.categories : [];
  const pivotMeasure = report.pivot?.measure === 'costGross' ? 'gross' : 'net';
  const select = [
    ...groupBy.map((d) => `${DIM_KEY[d]} as "k_${d}"`),
    ...groupBy.filter((d) => DIM_LABEL[d]).map((d) => `${DIM_LABEL[d]} as "l_${d}"`),
    `sum(x."net") as "net"`, `sum(x."gross") as "gross"`, `sum(x."km") as "km"`, `sum(x."litres") as "litres"`, `sum(x."co2") as "co2"`,
    `max(c."rodzajPaliwa") as "vehicleFuel"`,
    ...pivotCats.map((c, i) => `sum(x."${pivotMeasure}") filter (where x."category" = ${lit(c.id)}) as "p${i}"`),
  ];
  // the caller's vehicles first, joined in each part: a manager's report reads his client's rows
  // by their vehicle (the parts' indexes lead with it), not every client's rows of the period
  // before a filter on the sums (docs/benchmarks.md, issue 46)
  const text = `with scoped as materialized (select v."pojazdId" from car v where v."pojazdId" in (__SCOPE__))
    select ${select.join(', ')}
    from (${parts.join('\n union all \n')}) x
    join car c on c."pojazdId" = x."pojazdId"
    left join client cl on cl."klient" = c."klientSymbol"
    left join employee e on e."pracId" = c."pracId"
    left join unit u on u."jednId" = e."jednId"
    where true ${where.map((w) => `and ${w}`).join(' ')}
    group by ${groupBy.map((d) => DIM_KEY[d]).join(', ')}
    order by ${groupBy.map((d) => `${DIM_KEY[d]} nulls last`).join(', ')}`;
  // the scope subquery is kysely's (access/row-scope.ts); the rest is this module's text, its filter values as parameters
  const [head, tail] = text.split('__SCOPE__');
  const rows = (await executeWithValues(db, head, tail, scopedVehicles, values)).rows as Record<string, unknown>[];

  const round = (v: unknown, digits = 2) => (v === null || v === undefined ? null : Math.round(Number(v) * 10 ** digits) / 10 ** digits);
  const label = (d: Dimension, key: unknown, row: Record<string, unknown>): string | number | null => {
    if (key === null || key === undefined) return t('reports:none');
    if (d === 'category') return t(reporting.categories.find((c) => c.id === key)?.label ?? String(key));
    if (d === 'fuelType') return reporting.fuels?.[String(key)] ? t(reporting.fuels[String(key)]) : String(key);
    return (row[`l_${d}`] as string | null) ?? String(key);
  };
  const shown = report.measures;
  const columns: ReportColumn[] = [
    ...groupBy.map((d): ReportColumn => ({ id: d, label: t(report.labels?.[d] ?? `reports:dimensions.${d}`), kind: 'dimension' })),
    ...pivotCats.map((c): ReportColumn => ({ id: `category:${c.id}`, label: t(c.label), kind: 'measure', format: 'money' })),
    ...shown.map((m): ReportColumn => ({ id: m, label: t(report.labels?.[m] ?? `reports:measures.${m}`), kind: 'measure', format: FORMAT[m] })),
  ];
  const ranged = report.range && (groupBy.includes('vehicle') || groupBy.includes('fuelType'));
  if (ranged) columns.push({ id: 'range', label: t('reports:range.column'), kind: 'range' });
  const out = rows.map((row) => {
    const keys: Record<string, string | number | null> = {};
    const vals: Record<string, string | number | null> = {};
    for (const d of groupBy) {
      keys[d] = (row[`k_${d}`] as string | number | null) ?? null;
      vals[d] = label(d, row[`k_${d}`], row);
    }
    pivotCats.forEach((c, i) => { vals[`category:${c.id}`] = round(row[`p${i}`]) ?? 0; });
    const base = { costNet: round(row.net) ?? 0, costGross: round(row.gross) ?? 0, km: round(row.km, 0) ?? 0, litres: round(row.litres) ?? 0, co2: round(row.co2) ?? 0 };
    const ratios = ratiosOf(base);
    for (const m of shown) vals[m] = m in base ? base[m as keyof typeof base] : ratios[m as keyof typeof ratios];
    if (ranged) {
      const fuelType = String((groupBy.includes('fuelType') ? row.k_fuelType : row.vehicleFuel) ?? '');
      const range = reporting.consumption[fuelType];
      const l100 = ratios.l100;
      vals.range = !range || l100 === null ? null : t(`reports:range.${l100 < range.min ? 'below' : l100 > range.max ? 'above' : 'within'}`);
    }
    return { keys, values: vals, base };
  });
  // totals: the sums of the rows as shown; a ratio of the totals
  const sum = (f: (r: (typeof out)[number]) => number) => Math.round(out.reduce((s, r) => s + f(r), 0) * 100) / 100;
  const base = { costNet: sum((r) => r.base.costNet), costGross: sum((r) => r.base.costGross), km: sum((r) => r.base.km), litres: sum((r) => r.base.litres), co2: sum((r) => r.base.co2) };
  const ratios = ratiosOf(base);
  const totals: Record<string, number | null> = {};
  pivotCats.forEach((c) => { totals[`category:${c.id}`] = sum((r) => Number(r.values[`category:${c.id}`] ?? 0)); });
  for (const m of shown) totals[m] = m in base ? base[m as keyof typeof base] : ratios[m as keyof typeof ratios];
  return { columns, rows: out.map(({ keys, values }) => ({ keys, values })), totals };
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

