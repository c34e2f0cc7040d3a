/**
 * running_total follows the fuel transactions, invoice lines and readings in the writer's own
 * statement (migration 053): after inserts, updates that move a row to another month, key or
 * vehicle, and deletes, the running total at every month equals the sum of the source rows up to
 * it; the kilometres equal the odometer interpolated at each month's start, as the report's raw path
 * reads them; and running_total_rebuild() gives the same arrays from scratch.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';

describe('running_total', () => {
  let t: TestDatabase;
  let car1: number;
  let car2: number;
  let card: number;
  let invoice: number;

  beforeAll(async () => {
    t = await openTestDatabase({ migrate: true });
    await sql`set time zone 'Europe/Warsaw'`.execute(t.db);
    await t.db.insertInto('client').values({ klient: 'K1', klientNazwa: 'Klient' }).execute();
    car1 = (await t.db.insertInto('car').values({ klientSymbol: 'K1', rejestr: 'WX1' }).returning('pojazdId').executeTakeFirstOrThrow()).pojazdId;
    car2 = (await t.db.insertInto('car').values({ klientSymbol: 'K1', rejestr: 'WX2' }).returning('pojazdId').executeTakeFirstOrThrow()).pojazdId;
    card = (await t.db.insertInto('fuel_card').values({ klientSymbol: 'K1', nrKarty: '7001', pojazdId: car1 }).returning('kartaId').executeTakeFirstOrThrow()).kartaId;
    invoice = (await t.db.insertInto('invoice').values({ klientSymbol: 'K1', faktNrCaly: 'FV/1/2026', faktDataWyst: '2026-01-31' } as never).returning('faktId').executeTakeFirstOrThrow()).faktId;
  }, 60_000);
  afterAll(async () => t?.close());

  /** Every (vehicle, source, key): the kept running total and the sources' sum at each month from two before to two after. */
  async function compare(): Promise<{ kept: unknown[]; raw: unknown[] }> {
    const rows = await sql<{ pojazdId: number; source: string; key: string; month: number; kept: string; raw: string }>`
      with src as (
        select "pojazdId", 'fuel' as source, upper(trim("produkt")) as key, (extract(year from "data") * 12 + extract(month from "data") - 1)::int as month,
          round("netto" * 100) as net, round("brutto" * 100) as gross, round(coalesce("litry", 0) * 100) as litres
        from fuel_transaction where "pojazdId" is not null
        union all
        select "pojazdId", 'invoice', "kategoria", (extract(year from "okres") * 12 + extract(month from "okres") - 1)::int, round("netto" * 100), round("brutto" * 100), 0
        from invoice_line),
      keys as (select "pojazdId", source, key, min(month) - 2 as lo, max(month) + 2 as hi from src group by 1, 2, 3
        union select "pojazdId", source, key, "firstMonth" - 2, "firstMonth" + cardinality("net") + 1 from running_total where source <> 'km'),
      cells as (select k."pojazdId", k.source, k.key, m as month from keys k cross join lateral generate_series(k.lo, k.hi) m)
      select c."pojazdId", c.source, c.key, c.month,
        coalesce((select (case when c.month < r."firstMonth" then 0 else r."net"[least(c.month - r."firstMonth" + 1, cardinality(r."net"))] end)
          || '/' || (case when c.month < r."firstMonth" then 0 else r."gross"[least(c.month - r."firstMonth" + 1, cardinality(r."gross"))] end)
          || '/' || (case when c.month < r."firstMonth" then 0 else r."litres"[least(c.month - r."firstMonth" + 1, cardinality(r."litres"))] end)
          from running_total r where r."pojazdId" = c."pojazdId" and r.source = c.source and r.key = c.key), '0/0/0') as kept,
        (select coalesce(sum(net), 0) || '/' || coalesce(sum(gross), 0) || '/' || coalesce(sum(litres), 0)
          from src s where s."pojazdId" = c."pojazdId" and s.source = c.source and s.key = c.key and s.month <= c.month) as raw
      from cells c order by 1, 2, 3, 4`.execute(t.db);
    return { kept: rows.rows.map((r) => [r.pojazdId, r.source, r.key, r.month, r.kept]), raw: rows.rows.map((r) => [r.pojazdId, r.source, r.key, r.month, r.raw]) };
  }

  /** The kilometres of each month (metres), from the kept running total. */
  async function keptKm(pojazdId: number): Promise<Record<number, number>> {
    const row = await t.db.selectFrom('running_total').select(['firstMonth', 'km']).where('pojazdId', '=', pojazdId).where('source', '=', 'km').executeTakeFirst();
    if (!row) return {};
    const cum = (row.km as (string | number)[]).map(Number);
    return Object.fromEntries(cum.map((v, i) => [row.firstMonth + i, v - (i ? cum[i - 1]! : 0)]));
  }

  it('adds what a statement inserts, per product and month, and takes away what it deletes or moves', async () => {
    await t.db.insertInto('fuel_transaction').values([
      { kartaId: card, nrTransakcji: 'T1', pojazdId: car1, data: '2026-01-05T10:00:00Z', produkt: 'ON', litry: '40.50', netto: '200.10', brutto: '246.12' },
      { kartaId: card, nrTransakcji: 'T2', pojazdId: car1, data: '2026-01-31T23:30:00Z', produkt: ' on ', litry: '10', netto: '50', brutto: '61.5' }, // 1 February in Warsaw
      { kartaId: card, nrTransakcji: 'T3', pojazdId: car1, data: '2026-04-10T10:00:00Z', produkt: 'Kawa', litry: null, netto: '12.20', brutto: '15' },
      { kartaId: card, nrTransakcji: 'T4', pojazdId: null, data: '2026-03-10T10:00:00Z', produkt: 'ON', litry: '30', netto: '150', brutto: '184.5' },
    ] as never).execute();
    await t.db.insertInto('invoice_line').values([
      { faktId: invoice, pojazdId: car1, okres: '2026-01-01', kategoria: 'leasing', netto: '1500', vat: '345', brutto: '1845' },
      { faktId: invoice, pojazdId: car2, okres: '2026-03-01', kategoria: 'serwis', netto: '300.99', vat: '69.23', brutto: '370.22' },
    ] as never).execute();
    let { kept, raw } = await compare();
    expect(kept).toEqual(raw);
    const feb = 2026 * 12 + 1;
    const on = await t.db.selectFrom('running_total').selectAll().where('pojazdId', '=', car1).where('key', '=', 'ON').executeTakeFirstOrThrow();
    expect([on.firstMonth, on.net.map(Number)]).toEqual([feb - 1, [20010, 25010]]); // January, then January and February

    // a transaction gets its vehicle (the import's follow-up), another moves a month and changes product, a line its amount
    await t.db.updateTable('fuel_transaction').set({ pojazdId: car2 }).where('nrTransakcji', '=', 'T4').execute();
    await t.db.updateTable('fuel_transaction').set({ data: '2025-11-20T10:00:00Z', produkt: 'PB95' } as never).where('nrTransakcji', '=', 'T1').execute();
    await t.db.updateTable('invoice_line').set({ netto: '1400', brutto: '1722' } as never).where('kategoria', '=', 'leasing').execute();
    ({ kept, raw } = await compare());
    expect(kept).toEqual(raw);

    await t.db.deleteFrom('fuel_transaction').where('nrTransakcji', 'in', ['T2', 'T3']).execute();
    await t.db.deleteFrom('invoice_line').where('pojazdId', '=', car2).execute();
    ({ kept, raw } = await compare());
    expect(kept).toEqual(raw);
  });

  it('keeps the kilometres of each month as the odometer interpolated at its first instant', async () => {
    await t.db.insertInto('mileage_reading').values([
      { pojazdId: car1, licznik: 10_000, data: '2026-01-16T00:00:00+01:00' },
      { pojazdId: car1, licznik: 13_100, data: '2026-03-17T00:00:00+01:00' },
      { pojazdId: car1, licznik: 13_000, data: '2026-04-01T00:00:00+02:00' }, // lower than the one before: a slice never counts below zero
    ]).execute();
    // 16 January → 17 March is 60 days: the odometer on 1 February (day 16) 10,826.667, on 1 March (day 44) 12,273.333;
    // 1 April is the last reading itself; before the first reading and after the last it stays at them
    const jan = 2026 * 12;
    expect(await keptKm(car1)).toEqual({ [jan]: 826_667, [jan + 1]: 1_446_666, [jan + 2]: 726_667, [jan + 3]: 0 });

    await t.db.deleteFrom('mileage_reading').where('licznik', '=', 13_000).execute();
    const after = await keptKm(car1);
    expect(Object.values(after).reduce((a, b) => a + b, 0)).toBe(3_100_000);
    await t.db.deleteFrom('mileage_reading').where('pojazdId', '=', car1).execute();
    expect(await keptKm(car1)).toEqual({});
  });

  it('gives the same totals when rebuilt from the sources', async () => {
    await t.db.insertInto('fuel_transaction').values([
      { kartaId: card, nrTransakcji: 'T5', pojazdId: car2, data: '2025-12-03T10:00:00Z', produkt: 'LPG', litry: '33.3', netto: '99.9', brutto: '122.88' },
    ] as never).execute();
    await t.db.insertInto('mileage_reading').values([
      { pojazdId: car2, licznik: 500, data: '2025-12-03T08:00:00Z' }, { pojazdId: car2, licznik: 2500, data: '2026-02-20T08:00:00Z' },
    ]).execute();
    const before = await compare();
    const km = [await keptKm(car1), await keptKm(car2)];
    await sql`select running_total_rebuild()`.execute(t.db);
    const after = await compare();
    // the same sums at every month (a rebuild leaves out what was emptied by deletes: nothing but zeros)
    expect(before.kept).toEqual(before.raw);
    expect(after.kept).toEqual(after.raw);
    expect([await keptKm(car1), await keptKm(car2)]).toEqual(km);
    expect(Object.values(km[1]!).reduce((a, b) => a + b, 0)).toBe(2_000_000);
  });

  it('goes with its vehicle', async () => {
    await t.db.deleteFrom('fuel_transaction').execute();
    await t.db.deleteFrom('fuel_card').execute();
    await t.db.deleteFrom('car').where('pojazdId', '=', car2).execute();
    expect(await t.db.selectFrom('running_total').select('pojazdId').where('pojazdId', '=', car2).execute()).toEqual([]);
    expect(await compare()).toEqual({ kept: expect.any(Array), raw: expect.any(Array) });
  });
});
