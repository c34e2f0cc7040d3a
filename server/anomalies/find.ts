/**
 * The fuel anomaly rules (screens/fuel-anomalies.json) run over a batch of fuel transactions, in
 * SQL, set-based: one INSERT … SELECT per rule over the batch (a temporary table of transaction
 * ids), never a row at a time in the process, so an import of 1,000,000 transactions costs a few
 * statements (docs/decisions.md "Fuel anomalies (issue 46)"). Each finding is one row of
 * fuel_anomaly keyed `<rule>:<transId>` (the monthly limit: `<rule>:<card>:<month>`, once per card
 * and month); `on conflict do nothing`, so the same transactions again find nothing new.
 *
 * Works on a plain query function: the import's own connection inside the transaction that writes
 * the rows (server/imports/engine.ts, follow-up `fuelAnomalies`), or kysely's for the seed.
 */
import type { FuelAnomaliesFile } from '../../runtime/core/generated/meta.ts';
import type { ReportingDecl } from '../config/report-declaration.ts';

export type AnomalyRule = FuelAnomaliesFile['rules'][number];
export type Query = (text: string) => Promise<{ rows: unknown[]; rowCount?: number | null }>;

const lit = (v: string) => `'${v.replace(/'/g, "''")}'`;
const num = (v: number) => {
  if (!Number.isFinite(v)) throw new Error(`not a number: ${v}`);
  return String(v);
};

/** The fuel type of a product as the issuers write it (reporting.json `products`, case-insensitive); null: no fuel. */
export function fuelTypeSql(reporting: ReportingDecl, column: string): string {
  const pairs = Object.entries(reporting.products);
  if (!pairs.length) return 'null::text';
  return `(case upper(trim(${column})) ${pairs.map(([p, f]) => `when ${lit(p.toUpperCase())} then ${lit(f)}`).join(' ')} else null end)`;
}

/** The SELECT of one rule's findings over the batch `batch` (a table with "transId"): klucz, regula, pojazdId, transId, data, wartosc, granica. */
export function ruleSelect(rule: AnomalyRule, reporting: ReportingDecl, batch: string): string {
  const fuel = (alias: string) => fuelTypeSql(reporting, `${alias}."produkt"`);
  const id = lit(rule.id);
  const key = (rest: string) => `${id} || ':' || ${rest}`;
  const inBatch = `from ${batch} b join fuel_transaction t on t."transId" = b."transId"`;
  switch (rule.kind) {
    case 'overTank': {
      const share = num(rule.share ?? 1);
      return `select ${key('t."transId"')}, ${id}, t."pojazdId", t."transId", t."data", t."litry", round(c."pojZbiornika" * ${share}, 2)
        ${inBatch} join car c on c."pojazdId" = t."pojazdId"
        where ${fuel('t')} is not null and c."pojZbiornika" is not null and t."litry" > c."pojZbiornika" * ${share}`;
    }
    case 'wrongFuel': {
      const vehicleFuel = `coalesce(${fuelTypeSql(reporting, 'c."rodzajPaliwa"')}, upper(trim(c."rodzajPaliwa")))`;
      return `select ${key('t."transId"')}, ${id}, t."pojazdId", t."transId", t."data", t."litry", null::numeric
        ${inBatch} join car c on c."pojazdId" = t."pojazdId"
        where ${fuel('t')} is not null and nullif(trim(c."rodzajPaliwa"), '') is not null and upper(${fuel('t')}) <> ${vehicleFuel}`;
    }
    case 'fillsWithin': {
      const window = `make_interval(secs => ${num(rule.hours * 3600)})`;
      // the batch's fills and the stored fills after each of them within the window: a fill
      // imported late makes the one after it a second fill too
      return `select ${key('l."transId"')}, ${id}, l."pojazdId", l."transId", l."data",
          round((extract(epoch from (l."data" - p."data")) / 3600)::numeric, 2), ${num(rule.hours)}
        from (select b."transId" from ${batch} b
              union
              select n."transId" from ${batch} b join fuel_transaction e on e."transId" = b."transId"
                join fuel_transaction n on n."pojazdId" = e."pojazdId" and n."data" >= e."data" and n."data" < e."data" + ${window} and n."transId" <> e."transId") k
        join fuel_transaction l on l."transId" = k."transId"
        cross join lateral (select e."data" from fuel_transaction e
          where e."pojazdId" = l."pojazdId" and (e."data", e."transId") < (l."data", l."transId") and ${fuel('e')} is not null
          order by e."data" desc, e."transId" desc limit 1) p
        where l."pojazdId" is not null and ${fuel('l')} is not null and l."data" - p."data" < ${window}`;
    }
    case 'cardMonthLimit': {
      const share = num(rule.share ?? 1);
      // each card and month the batch touches, its transactions in order with the running gross sum:
      // the one that takes the sum above the limit is the anomaly (once per card and month)
      return `select ${key(`x."kartaId" || ':' || to_char(x."month", 'YYYY-MM')`)}, ${id}, x."pojazdId", x."transId", x."data", x."total", x."limit"
        from (select t."transId", t."kartaId", t."pojazdId", t."data", t."brutto", m."month", round(k."limWaMiePal" * ${share}, 2) as "limit",
                sum(t."brutto") over (partition by t."kartaId", m."month" order by t."data", t."transId") as "total"
              from (select distinct t."kartaId", date_trunc('month', t."data") as "month" ${inBatch}) m
              join fuel_card k on k."kartaId" = m."kartaId" and k."limWaMiePal" is not null
              join fuel_transaction t on t."kartaId" = m."kartaId" and t."data" >= m."month" and t."data" < m."month" + interval '1 month') x
        where x."pojazdId" is not null and x."total" > x."limit" and x."total" - x."brutto" <= x."limit"`;
    }
    case 'consumption': {
      const minKm = num(rule.minKm ?? 50);
      const ranges = rule.range ? { '*': rule.range } : reporting.consumption;
      const bound = (side: 'min' | 'max') => rule.range
        ? num(rule.range[side])
        : `(case ${fuel('l')} ${Object.entries(ranges).map(([f, r]) => `when ${lit(f)} then ${num(r[side])}`).join(' ')} else null end)`;
      if (!rule.range && !Object.keys(ranges).length) return `select null::text, null::text, null::integer, null::bigint, null::timestamptz, null::numeric, null::numeric where false`;
      // the batch's fills with an odometer, and for each the next such fill (its interval changed)
      const withOdometer = (a: string) => `${a}."licznik" is not null and ${fuelTypeSql(reporting, `${a}."produkt"`)} is not null`;
      return `select ${key('y."transId"')}, ${id}, y."pojazdId", y."transId", y."data", y."l100",
          case when y."l100" < y."min" then y."min" else y."max" end
        from (select l."transId", l."pojazdId", l."data", ${bound('min')} as "min", ${bound('max')} as "max",
                round((100 * q."litres" / (l."licznik" - p."licznik"))::numeric, 2) as "l100", l."licznik" - p."licznik" as "km"
              from (select b."transId" from ${batch} b
                    union
                    select nx."transId" from ${batch} b join fuel_transaction e on e."transId" = b."transId"
                      cross join lateral (select n."transId" from fuel_transaction n where n."pojazdId" = e."pojazdId"
                        and (n."data", n."transId") > (e."data", e."transId") and ${withOdometer('n')}
                        order by n."data", n."transId" limit 1) nx
                    where ${withOdometer('e')}) k
              join fuel_transaction l on l."transId" = k."transId"
              cross join lateral (select e."data", e."transId", e."licznik" from fuel_transaction e
                where e."pojazdId" = l."pojazdId" and (e."data", e."transId") < (l."data", l."transId") and ${withOdometer('e')}
                order by e."data" desc, e."transId" desc limit 1) p
              cross join lateral (select sum(coalesce(f."litry", 0)) as "litres" from fuel_transaction f
                where f."pojazdId" = l."pojazdId" and (f."data", f."transId") > (p."data", p."transId") and (f."data", f."transId") <= (l."data", l."transId")
                  and ${fuel('f')} is not null) q
              where l."pojazdId" is not null and ${withOdometer('l')} and l."licznik" - p."licznik" >= ${minKm}) y
        where y."l100" < y."min" or y."l100" > y."max"`;
    }
  }
}

/**
 * Runs every rule over the transactions `batch` names (a table or subquery with "transId") and
 * stores what is new, marked with the run (`runId`, null for the seed). Answers how many are new.
 */
export async function findAnomalies(query: Query, file: FuelAnomaliesFile, reporting: ReportingDecl, batch: string, runId: number | null): Promise<number> {
  let added = 0;
  for (const rule of file.rules) {
    const result = await query(`insert into fuel_anomaly ("klucz", "regula", "pojazdId", "transId", "data", "wartosc", "granica", "runId")
      select f.*, ${runId === null ? 'null::bigint' : num(runId)} from (${ruleSelect(rule, reporting, batch)}) f
      on conflict ("klucz") do nothing`);
    added += Number(result.rowCount ?? 0);
  }
  return added;
}

/** The configuration's rules file, if it declares one. */
export function anomaliesFile(screens: Record<string, unknown>): FuelAnomaliesFile | undefined {
  return screens['fuel-anomalies'] as FuelAnomaliesFile | undefined;
}
