/**
 * A report of source `anomalies` (issue 46, schemas/reports/fuel-anomalies.json): the fuel
 * anomalies of the period (by the moment of their transaction), of the caller's vehicles (the car
 * resource's row scope, as every report), counted — all, not yet explained, explained — and grouped
 * by the declared dimensions (vehicle, client, cost centre, unit, month, driver, rule, explained).
 * One statement; the totals are the sums of the rows, so a total equals the rows behind it.
 */
import type { Expression, Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { Dimension, ReportDecl } from '../config/report-declaration.ts';
import { DIM_FORMAT, DIM_KEY, DIM_LABEL, FORMAT, executeWithValues, type ReportColumn, type ReportResult, type RunParams } from './engine.ts';
import { labelCase, pagedSelect } from './paging.ts';

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;

export async function runAnomalyReport(
  db: Kysely<DB>, report: ReportDecl, params: RunParams, scopedVehicles: Expression<unknown>, t: (key: string) => string,
  ruleLabels: Record<string, string>,
): Promise<ReportResult> {
  const { from, to, groupBy, filters } = params;
  const where: string[] = [];
  const values: unknown[] = [];
  for (const [dim, list] of Object.entries(filters) as [Dimension, (string | number)[]][]) {
    if (!list?.length) continue;
    values.push(list.map(String));
    where.push(`(${DIM_KEY[dim]})::text = any(${'$' + values.length}::text[])`);
  }
  const select = [
    ...groupBy.map((d) => `${DIM_KEY[d]} as "k_${d}"`),
    ...groupBy.filter((d) => DIM_LABEL[d]).map((d) => `${DIM_LABEL[d]} as "l_${d}"`),
    'count(*) as "n"', 'count(*) filter (where not x."explained") as "open"', 'count(*) filter (where x."explained") as "done"',
  ];
  const grouped = `select ${select.join(', ')}
    from (select a."pojazdId", date_trunc('month', a."data")::date as "month", a."regula" as "rule", a."wyjasniona" as "explained"
          from fuel_anomaly a
          where a."data" >= (${lit(from)}::date)::timestamptz and a."data" < ((${lit(to)}::date + 1))::timestamptz) x
    join car c on c."pojazdId" = x."pojazdId"
    left join client cl on cl."klient" = c."klientSymbol"
    left join employee e on e."pracId" = c."pracId"
    left join unit u on u."jednId" = e."jednId"
    where c."pojazdId" in (__SCOPE__) ${where.map((w) => `and ${w}`).join(' ')}
    group by ${groupBy.map((d) => DIM_KEY[d]).join(', ')}`;
  const { page } = params;
  const measureOrder: Record<string, string> = { anomalies: 'g."n"', anomaliesOpen: 'g."open"', anomaliesExplained: 'g."done"' };
  const orderOf = (column: string) => {
    if (measureOrder[column]) return measureOrder[column];
    const d = column as Dimension;
    if (!groupBy.includes(d)) return undefined;
    if (DIM_LABEL[d]) return `g."l_${d}"`;
    if (d === 'rule') return labelCase(`g."k_${d}"`, Object.entries(ruleLabels).map(([k, l]) => [k, t(l)]));
    if (d === 'explained') return labelCase(`g."k_${d}"`, [['true', t('reports:explained.yes')], ['false', t('reports:explained.no')]]);
    return `g."k_${d}"`;
  };
  const sortBy = page?.sort ? orderOf(page.sort.column) : undefined;
  const text = !page
    ? `${grouped} order by ${groupBy.map((d) => `${DIM_KEY[d]} nulls last`).join(', ')}`
    : `with g as materialized (${grouped})
      ${pagedSelect({
    totals: ['n', 'open', 'done'].map((c) => `coalesce(sum(g."${c}"), 0) as "t_${c}"`),
    order: sortBy ? `${sortBy} ${page.sort!.direction} nulls last` : null,
    keys: groupBy.map((d) => `k_${d}`), page, top: report.chart ? orderOf(report.chart.measure) : undefined,
  })}`;
  const [head, tail] = text.split('__SCOPE__');
  const answer = (await executeWithValues(db, head, tail, scopedVehicles, values)).rows as Record<string, unknown>[];
  const rows = page ? answer.filter((r) => r.part === 'page') : answer;

  const label = (d: Dimension, key: unknown, row: Record<string, unknown>): string | number | null => {
    if (key === null || key === undefined) return t('reports:none');
    if (d === 'rule') return ruleLabels[String(key)] ? t(ruleLabels[String(key)]) : String(key);
    if (d === 'explained') return t(`reports:explained.${key ? 'yes' : 'no'}`);
    return (row[`l_${d}`] as string | null) ?? String(key);
  };
  const columns: ReportColumn[] = [
    ...groupBy.map((d): ReportColumn => ({ id: d, label: t(report.labels?.[d] ?? `reports:dimensions.${d}`), kind: 'dimension', ...(DIM_FORMAT[d] ? { format: DIM_FORMAT[d] } : {}) })),
    ...report.measures.map((m): ReportColumn => ({ id: m, label: t(report.labels?.[m] ?? `reports:measures.${m}`), kind: 'measure', format: FORMAT[m] })),
  ];
  const figures = (row: Record<string, unknown>): Record<string, number> => ({
    anomalies: Number(row.n), anomaliesOpen: Number(row.open), anomaliesExplained: Number(row.done),
  });
  const rowOf = (row: Record<string, unknown>) => {
    const keys: Record<string, string | number | null> = {};
    const vals: Record<string, string | number | null> = {};
    for (const d of groupBy) {
      const key = row[`k_${d}`];
      keys[d] = key === null || key === undefined ? null : typeof key === 'boolean' ? String(key) : (key as string | number);
      vals[d] = label(d, key, row);
    }
    const f = figures(row);
    for (const m of report.measures) vals[m] = f[m] ?? null;
    return { keys, values: vals };
  };
  const out = rows.map(rowOf);
  const totals: Record<string, number | null> = {};
  if (page) {
    // the totals over every row, counted by the statement
    const first = answer[0] ?? {};
    const all = figures({ n: first.t_n ?? 0, open: first.t_open ?? 0, done: first.t_done ?? 0 });
    for (const m of report.measures) totals[m] = all[m] ?? null;
    return { columns, rows: out, totals, rowCount: Number(first.rowCount ?? 0), ...(page.top ? { top: answer.filter((r) => r.part === 'top').map(rowOf) } : {}) };
  }
  for (const m of report.measures) totals[m] = out.reduce((s, r) => s + Number(r.values[m] ?? 0), 0);
  return { columns, rows: out, totals, rowCount: out.length };
}
