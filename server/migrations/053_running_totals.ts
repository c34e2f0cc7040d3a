/**
 * 053 — what the fleet cost, kept as running totals per vehicle (issue 46, docs/decisions.md
 * "Reports read running totals").
 *
 * A year of `vehicle-cost` for a manager of 33,333 vehicles summed about 3.5 million fuel
 * transactions, invoice lines and month-slices of kilometres (10 s on the bench); summing kept
 * monthly rows instead still reads twelve rows a vehicle and category (1.8 million, 3 s). So
 * `running_total` keeps, per vehicle and source key, one row whose arrays hold the running total
 * month by month: element i is the sum of everything from "firstMonth" up to and including month
 * "firstMonth" + i − 1. What a vehicle cost over any run of whole months is then two array
 * elements subtracted — one row a vehicle and key, whatever the period's length.
 *
 * - `source` 'fuel': the fuel transactions, `key` the product as the issuers write it, upper-cased
 *   and trimmed (the reports map it to a fuel type and category from configuration at read time,
 *   so a change of schemas/reporting/reporting.json needs no rebuild); 'invoice': the invoice
 *   lines, `key` their category; 'km': the kilometres driven, `key` '', from the odometer readings
 *   interpolated at each first of a month as the report's raw path does (engine.ts).
 * - Amounts in grosze, litres in hundredths, distance in metres: whole numbers, so a running total
 *   is exact (every source value has two decimals) and subtracting two is too.
 * - A month is a number, year × 12 + month − 1, in the portal's time zone (the session's, as every
 *   date of the portal; `running_total_rebuild()` recomputes everything if that zone ever changes).
 * - Past its last element a running total stays at its last value (nothing happened since); before
 *   "firstMonth" it is zero.
 *
 * Kept fresh by statement-level triggers on fuel_transaction, invoice_line and mileage_reading, in
 * the writer's own statement and transaction (as vehicle_mileage, migration 014): an import of a
 * million rows rewrites each touched vehicle's arrays once. Money and litres are applied as
 * differences (the statement's new rows added, its old rows taken away); kilometres are recomputed
 * for the vehicles whose readings changed, because one reading moves the interpolation of the months
 * around it. pg_dump creates triggers after loading data, so a restore does not count twice.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

/** The month number of a timestamp or date, in the session's time zone. */
const monthNo = (x: string) => `(extract(year from ${x}) * 12 + extract(month from ${x}) - 1)::int`;
/** A month number's first instant, in the session's time zone. */
const monthStart = (n: string) => `make_timestamptz((${n}) / 12, (${n}) % 12 + 1, 1, 0, 0, 0)`;
/** The running total of `arr` (from month `first`) at month `m`. */
const at = (arr: string, first: string, m: string) =>
  `(case when ${first} is null or ${m} < ${first} then 0 else coalesce(${arr}[least(${m} - ${first} + 1, cardinality(${arr}))], 0) end)`;

const FUEL_DELTA = (rows: string, sign: string) => `select x."pojazdId", 'fuel' as "source", upper(trim(x."produkt")) as "key", ${monthNo('x."data"')} as "month",
    ${sign} round(x."netto" * 100)::bigint as "net", ${sign} round(x."brutto" * 100)::bigint as "gross", ${sign} round(coalesce(x."litry", 0) * 100)::bigint as "litres"
  from ${rows} x where x."pojazdId" is not null`;
const INVOICE_DELTA = (rows: string, sign: string) => `select x."pojazdId", 'invoice' as "source", x."kategoria" as "key", ${monthNo('x."okres"')} as "month",
    ${sign} round(x."netto" * 100)::bigint as "net", ${sign} round(x."brutto" * 100)::bigint as "gross", 0::bigint as "litres"
  from ${rows} x`;

/**
 * Adds the differences `delta` (rows of "pojazdId", "source", "key", "month", "net", "gross",
 * "litres") to the running totals: each touched row's arrays are rebuilt over the months they now
 * span, their old running total plus the differences up to each month. Vehicles no longer there
 * (a deletion's cascade) are skipped.
 */
const APPLY = (delta: string) => `
  with d as (select x."pojazdId", x."source", x."key", x."month", sum(x."net")::bigint as "net", sum(x."gross")::bigint as "gross", sum(x."litres")::bigint as "litres"
      from (${delta}) x join car c on c."pojazdId" = x."pojazdId"
      group by 1, 2, 3, 4 having sum(x."net") <> 0 or sum(x."gross") <> 0 or sum(x."litres") <> 0),
    g as (select "pojazdId", "source", "key", min("month") as "lo", max("month") as "hi" from d group by 1, 2, 3),
    span as (select g.*, r."firstMonth" as "f0", r."net" as "n0", r."gross" as "g0", r."litres" as "l0",
        least(g."lo", coalesce(r."firstMonth", g."lo")) as "f",
        greatest(g."hi", coalesce(r."firstMonth" + cardinality(r."net") - 1, g."hi")) as "l"
      from g left join running_total r on r."pojazdId" = g."pojazdId" and r."source" = g."source" and r."key" = g."key"),
    cells as (select s."pojazdId", s."source", s."key", s."f", m,
        ${at('s."n0"', 's."f0"', 'm')} as "n", ${at('s."g0"', 's."f0"', 'm')} as "g", ${at('s."l0"', 's."f0"', 'm')} as "l"
      from span s cross join lateral generate_series(s."f", s."l") m),
    summed as (select c."pojazdId", c."source", c."key", c."f", c.m,
        c."n" + sum(coalesce(d."net", 0)) over w as "net", c."g" + sum(coalesce(d."gross", 0)) over w as "gross", c."l" + sum(coalesce(d."litres", 0)) over w as "litres"
      from cells c left join d on d."pojazdId" = c."pojazdId" and d."source" = c."source" and d."key" = c."key" and d."month" = c.m
      window w as (partition by c."pojazdId", c."source", c."key" order by c.m))
  insert into running_total ("pojazdId", "source", "key", "firstMonth", "net", "gross", "litres", "km")
  select "pojazdId", "source", "key", "f", array_agg("net"::bigint order by m), array_agg("gross"::bigint order by m), array_agg("litres"::bigint order by m), '{}'
  from summed group by 1, 2, 3, 4
  on conflict ("pojazdId", "source", "key") do update
    set "firstMonth" = excluded."firstMonth", "net" = excluded."net", "gross" = excluded."gross", "litres" = excluded."litres";`;

/** The odometer at each first of a month in [first reading, last reading], interpolated between the readings around it. */
const ODOMETER_ENDS = (vehicles: string) => `
  select r."pojazdId", e."at",
      case when r."nd" is null or r."nd" = r."data" then r."licznik"::numeric
        else r."licznik" + (r."nl" - r."licznik") * extract(epoch from (e."at" - r."data")) / extract(epoch from (r."nd" - r."data")) end as "odo"
    from (select m."pojazdId", m."data", m."licznik", lead(m."data") over w as "nd", lead(m."licznik") over w as "nl"
          from mileage_reading m where m."pojazdId" in (select "pojazdId" from ${vehicles})
          window w as (partition by m."pojazdId" order by m."data", m."licznik")) r
    cross join lateral (select g as "at" from generate_series(date_trunc('month', r."data") + case when date_trunc('month', r."data") = r."data" then interval '0' else interval '1 month' end,
        coalesce(r."nd", r."data"), interval '1 month') g where r."nd" is null or g < r."nd") e`;

/**
 * Recomputes the kilometres of `vehicles` (a relation with "pojazdId"): per month from the first
 * reading's to the last reading's, the odometer at the next month's start less the odometer at this
 * one's (never below zero, as a slice of the raw path), outside the readings the first or the last.
 */
const KM = (vehicles: string) => `
    delete from running_total where "source" = 'km' and "pojazdId" in (select "pojazdId" from ${vehicles});
    insert into running_total ("pojazdId", "source", "key", "firstMonth", "net", "gross", "litres", "km")
    with v as (select m."pojazdId", min(m."data") as "first", max(m."data") as "last",
          (array_agg(m."licznik" order by m."data", m."licznik"))[1] as "firstOdo", (array_agg(m."licznik" order by m."data" desc, m."licznik" desc))[1] as "lastOdo"
        from mileage_reading m where m."pojazdId" in (select distinct "pojazdId" from ${vehicles}) and m."pojazdId" in (select "pojazdId" from car)
        group by m."pojazdId"),
      inner_ends as (${ODOMETER_ENDS('v')}),
      months as (select v."pojazdId", n as "month", ${monthStart('n')} as "at", v."first", v."last", v."firstOdo", v."lastOdo"
        from v cross join lateral generate_series(${monthNo('v."first"')}, ${monthNo('v."last"')} + 1) n),
      odo as (select m."pojazdId", m."month", coalesce(e."odo", case when m."at" < m."first" then m."firstOdo" else m."lastOdo" end) as "odo"
        from months m left join inner_ends e on e."pojazdId" = m."pojazdId" and e."at" = m."at"),
      slices as (select o."pojazdId", o."month", o."odo", lead(o."odo") over (partition by o."pojazdId" order by o."month") as "next" from odo o),
      km as (select s."pojazdId", s."month", greatest(s."next" - s."odo", 0) as "km" from slices s where s."next" is not null)
    select k."pojazdId", 'km', '', min(k."month"), '{}', '{}', '{}', array_agg(round(k."sumKm" * 1000)::bigint order by k."month")
    from (select km.*, sum(km."km") over (partition by km."pojazdId" order by km."month") as "sumKm" from km) k
    group by k."pojazdId";`;

export const migration053: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create table running_total (
        "pojazdId" integer not null references car on delete cascade,
        "source" text not null check ("source" in ('fuel', 'invoice', 'km')),
        "key" text not null,
        "firstMonth" integer not null,
        "net" bigint[] not null,
        "gross" bigint[] not null,
        "litres" bigint[] not null,
        "km" bigint[] not null,
        primary key ("pojazdId", "source", "key")
      )`,
      `create function running_total_fuel_insert() returns trigger language plpgsql as $$
        begin ${APPLY(FUEL_DELTA('new_rows', '+'))} return null; end $$`,
      `create function running_total_fuel_delete() returns trigger language plpgsql as $$
        begin ${APPLY(FUEL_DELTA('old_rows', '-'))} return null; end $$`,
      // an update that changes none of what is summed (most follow-ups) leaves the totals alone
      `create function running_total_fuel_update() returns trigger language plpgsql as $$
        begin ${APPLY(`${FUEL_DELTA('(select o.* from old_rows o join new_rows n on n."transId" = o."transId" where (o."pojazdId", o."data", o."produkt", o."netto", o."brutto", o."litry") is distinct from (n."pojazdId", n."data", n."produkt", n."netto", n."brutto", n."litry"))', '-')}
          union all ${FUEL_DELTA('(select n.* from old_rows o join new_rows n on n."transId" = o."transId" where (o."pojazdId", o."data", o."produkt", o."netto", o."brutto", o."litry") is distinct from (n."pojazdId", n."data", n."produkt", n."netto", n."brutto", n."litry"))', '+')}`)}
          return null; end $$`,
      `create function running_total_invoice_insert() returns trigger language plpgsql as $$
        begin ${APPLY(INVOICE_DELTA('new_rows', '+'))} return null; end $$`,
      `create function running_total_invoice_delete() returns trigger language plpgsql as $$
        begin ${APPLY(INVOICE_DELTA('old_rows', '-'))} return null; end $$`,
      `create function running_total_invoice_update() returns trigger language plpgsql as $$
        begin ${APPLY(`${INVOICE_DELTA('old_rows', '-')} union all ${INVOICE_DELTA('new_rows', '+')}`)} return null; end $$`,
      `create function running_total_km_insert() returns trigger language plpgsql as $$
        begin ${KM('new_rows')} return null; end $$`,
      `create function running_total_km_delete() returns trigger language plpgsql as $$
        begin ${KM('old_rows')} return null; end $$`,
      `create function running_total_km_update() returns trigger language plpgsql as $$
        begin ${KM('(select "pojazdId" from old_rows union select "pojazdId" from new_rows) as touched')} return null; end $$`,
      ...(['fuel_transaction:fuel', 'invoice_line:invoice', 'mileage_reading:km'] as const).flatMap((pair) => {
        const [table, name] = pair.split(':');
        return [
          `create trigger running_total_insert after insert on ${table} referencing new table as new_rows for each statement execute function running_total_${name}_insert()`,
          `create trigger running_total_delete after delete on ${table} referencing old table as old_rows for each statement execute function running_total_${name}_delete()`,
          `create trigger running_total_update after update on ${table} referencing old table as old_rows new table as new_rows for each statement execute function running_total_${name}_update()`,
        ];
      }),
      // everything again from the sources: what the migration does now, and what an operator runs
      // after changing the portal's time zone (docs/operations.md)
      `create function running_total_rebuild() returns void language plpgsql as $$
        begin
          delete from running_total;
          ${APPLY(`${FUEL_DELTA('fuel_transaction', '+')} union all ${INVOICE_DELTA('invoice_line', '+')}`)}
          ${KM('(select distinct "pojazdId" from mileage_reading) as all_read')}
        end $$`,
      `select running_total_rebuild()`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      ...['fuel_transaction', 'invoice_line', 'mileage_reading'].flatMap((table) =>
        ['insert', 'delete', 'update'].map((op) => `drop trigger running_total_${op} on ${table}`)),
      ...['fuel', 'invoice', 'km'].flatMap((name) => ['insert', 'delete', 'update'].map((op) => `drop function running_total_${name}_${op}()`)),
      'drop function running_total_rebuild()',
      'drop table running_total',
    ]);
  },
};

/** For the report engine: the same expressions the triggers keep the totals with. */
export const RUNNING = { monthNo, monthStart, at };
