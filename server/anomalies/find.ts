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
      // Each vehicle the batch touches, its fuel fills in order, each with the fill before it and
      // whether a fill of the batch lies within the window up to it: a fill imported late makes the
      // one after it a second fill too. Windows over the vehicles' fills read each fill once, where
      // a lookup per fill read the index a million times for a million fills.
      return `select ${key('x."transId"')}, ${id}, x."pojazdId", x."transId", x."data",
          round((extract(epoch from (x."data" - x."before")) / 3600)::numeric, 2), ${num(rule.hours)}
        from (select f."transId", f."pojazdId", f."data", f."inBatch",
                lag(f."data") over (partition by f."pojazdId" order by f."data", f."transId") as "before",
                count(f."inBatch") over (partition by f."pojazdId" order by f."data" range between ${window} preceding and current row) as "batchNear"
              from (select t."transId", t."pojazdId", t."data", b."transId" as "inBatch"
                    from fuel_transaction t
                    join (select distinct t."pojazdId" ${inBatch} where t."pojazdId" is not null) v on v."pojazdId" = t."pojazdId"
                    left join ${batch} b on b."transId" = t."transId"
                    where ${fuel('t')} is not null) f) x
        where x."data" - x."before" < ${window} and (x."inBatch" is not null or x."batchNear" > 0)`;
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
      // Each vehicle the batch touches, its fuel fills in order with the litres and the batch's fills
      // up to each (running sums); of those with an odometer, each with the one before it. An interval
      // is judged when the batch changed it: a fill of the batch in it (its litres, with an odometer
      // or without) or at its start. Windows read each fill once, where three lookups per fill read
      // the index three million times for a million fills.
      return `select ${key('y."transId"')}, ${id}, y."pojazdId", y."transId", y."data", y."l100",
          case when y."l100" < y."min" then y."min" else y."max" end
        from (select l."transId", l."pojazdId", l."data", ${bound('min')} as "min", ${bound('max')} as "max",
                round((100 * (l."litresUpTo" - l."litresBefore") / (l."licznik" - l."odometerBefore"))::numeric, 2) as "l100"
              from (select o.*, lag(o."licznik") over w as "odometerBefore", lag(o."litresUpTo") over w as "litresBefore",
                      lag(o."batchUpTo") over w as "batchBefore", lag(o."inBatch") over w as "startInBatch"
                    from (select t."transId", t."pojazdId", t."data", t."licznik", t."produkt", b."transId" is not null as "inBatch",
                            sum(coalesce(t."litry", 0)) over u as "litresUpTo",
                            count(b."transId") over u as "batchUpTo"
                          from fuel_transaction t
                          join (select distinct t."pojazdId" ${inBatch} where t."pojazdId" is not null) v on v."pojazdId" = t."pojazdId"
                            -- a vehicle whose fills never had an odometer typed has no interval to judge
                            and exists (select 1 from fuel_transaction r where r."pojazdId" = v."pojazdId" and r."licznik" is not null)
                          left join ${batch} b on b."transId" = t."transId"
                          where ${fuel('t')} is not null
                          window u as (partition by t."pojazdId" order by t."data", t."transId" rows unbounded preceding)) o
                    where o."licznik" is not null
                    window w as (partition by o."pojazdId" order by o."data", o."transId")) l
              where l."odometerBefore" is not null and l."licznik" - l."odometerBefore" >= ${minKm}
                and (l."batchUpTo" > l."batchBefore" or l."startInBatch")) y
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
