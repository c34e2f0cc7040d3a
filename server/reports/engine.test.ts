/**
 * A report read from the running totals (migration 053) answers exactly what the rows themselves
 * answer, for every declared costs and fuel report, every grouping the screen offers, with and
 * without filters, over periods of whole months, of days cutting into months at either end, and
 * within one month; and the period is cut where it should be.
 */
import { resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../config/load-bundle.ts';
import type { Dimension } from '../config/report-declaration.ts';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';
import { nothingDatedFrom, periodParts, runReport, type ReportResult, type RunParams } from './engine.ts';

const bundle = loadBundle({ root: resolve(import.meta.dirname, '../..') });

describe('periodParts', () => {
  it('reads whole months from the running totals and the days around them from the rows', () => {
    const m = (y: number, month: number) => y * 12 + month - 1;
    expect(periodParts('2026-01-01', '2026-12-31')).toEqual({ first: m(2026, 1), last: m(2026, 12), head: null, tail: null });
    expect(periodParts('2025-12-15', '2026-02-10')).toEqual({ first: m(2026, 1), last: m(2026, 1), head: { from: '2025-12-15', to: '2026-01-01' }, tail: { from: '2026-02-01', to: '2026-02-11' } });
    expect(periodParts('2026-02-03', '2026-02-27')).toEqual({ first: m(2026, 3), last: m(2026, 1), head: { from: '2026-02-03', to: '2026-02-28' }, tail: null });
    expect(periodParts('2026-02-01', '2026-02-28')).toEqual({ first: m(2026, 2), last: m(2026, 2), head: null, tail: null });
    expect(periodParts('2024-02-01', '2024-02-28')).toEqual({ first: m(2024, 2), last: m(2024, 1), head: { from: '2024-02-01', to: '2024-02-29' }, tail: null });
  });
});

describe('a report from the running totals', () => {
  let t: TestDatabase;
  let today: string;
  const day = (offset: number) => new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await openTestDatabase({ seed: true });
    const seed = await t.db.selectFrom('app_setting').select('value').where('key', '=', 'seed').executeTakeFirstOrThrow();
    today = (typeof seed.value === 'string' ? JSON.parse(seed.value) : seed.value).today;
  }, 120_000);
  afterAll(async () => t?.close());

  const every = sql`(select "pojazdId" from car)`;
  const run = (id: string, params: RunParams, runningTotals: boolean) =>
    runReport(t.db, bundle.reports[id]!, bundle.reporting!, params, every, (k) => k, { runningTotals });
  /** Kilometres are kept in metres: a row's rounded kilometres may differ by one where the rows' own sum sits on a half. */
  const near = (r: ReportResult) => ({
    columns: r.columns,
    rows: r.rows.map((row) => ({ keys: row.keys, values: Object.fromEntries(Object.entries(row.values).map(([k, v]) => [k, typeof v === 'number' && ['km', 'costPerKm', 'l100'].includes(k) ? expect.closeTo(v, -0.5) : v])) })),
    totals: Object.fromEntries(Object.entries(r.totals).map(([k, v]) => [k, typeof v === 'number' && ['km', 'costPerKm', 'l100'].includes(k) ? expect.closeTo(v, -1) : v])),
    rowCount: r.rowCount,
  });

  it('by the vehicle, a row is the vehicle\'s months added up, and the totals are those of any other grouping', async () => {
    const period = { from: day(-400), to: day(0), filters: {} };
    const byVehicle = await run('vehicle-cost', { ...period, groupBy: ['vehicle'] }, true);
    const byMonth = await run('vehicle-cost', { ...period, groupBy: ['month', 'vehicle'] }, true);
    const months = new Map<string, number>();
    for (const row of byMonth.rows) months.set(String(row.keys.vehicle), (months.get(String(row.keys.vehicle)) ?? 0) + Number(row.values.costNet));
    expect(byVehicle.rows.length).toBeGreaterThan(10);
    expect(byVehicle.rows.map((row) => String(row.keys.vehicle)).sort()).toEqual([...months.keys()].sort());
    for (const row of byVehicle.rows) expect(row.values.costNet).toBeCloseTo(months.get(String(row.keys.vehicle))!, 2);
    for (const groupBy of [['client'], ['mpk'], ['unit']] as Dimension[][]) {
      const other = await run('vehicle-cost', { ...period, groupBy }, true);
      expect(other.totals.costNet, groupBy[0]).toBeCloseTo(Number(byVehicle.totals.costNet), 2);
    }
    // months chosen in the filter, not in the grouping: the vehicle's months are added up again, to one row each
    const chosen = [...new Set(byMonth.rows.map((row) => String(row.keys.month)))].slice(0, 2);
    expect(chosen).toHaveLength(2);
    const inMonths = await run('vehicle-cost', { ...period, groupBy: ['vehicle'], filters: { month: chosen } }, true);
    const expected = new Map<string, number>();
    for (const row of byMonth.rows.filter((r) => chosen.includes(String(r.keys.month)))) expected.set(String(row.keys.vehicle), (expected.get(String(row.keys.vehicle)) ?? 0) + Number(row.values.costNet));
    expect(inMonths.rows.map((row) => String(row.keys.vehicle)).sort()).toEqual([...expected.keys()].sort());
    for (const row of inMonths.rows) expect(row.values.costNet).toBeCloseTo(expected.get(String(row.keys.vehicle))!, 2);
  }, 60_000);

  it('answers as the rows do, for every report, grouping and period', async () => {
    const periods = [
      { from: day(-400), to: day(0) }, // days at both ends
      { from: `${day(-365).slice(0, 7)}-01`, to: `${day(-31).slice(0, 7)}-01` }, // from a first to a first: the tail is one day
      { from: `${day(-200).slice(0, 7)}-01`, to: day(-1 - Number(day(0).slice(8, 10))) }, // whole months only
      { from: day(-40), to: day(-35) }, // within a month or across one end
      { from: `${day(0).slice(0, 7)}-01`, to: day(0) }, // this month until today: read whole from the totals
      { from: `${day(-200).slice(0, 7)}-01`, to: day(0) }, // months until today
    ];
    let compared = 0;
    for (const id of ['vehicle-cost', 'cost-centre', 'fuel-consumption', 'co2-emissions']) {
      const report = bundle.reports[id]!;
      const groupings: Dimension[][] = [report.defaults.groupBy as Dimension[], ...report.dimensions.map((d) => [d as Dimension]), ['month', 'vehicle']];
      for (const period of periods) {
        for (const groupBy of groupings) {
          const params = { ...period, groupBy, filters: {} };
          const kept = await run(id, params, true);
          const rows = await run(id, params, false);
          expect(kept, `${id} ${JSON.stringify(params)}`).toEqual(near(rows));
          if (kept.rows.length) compared++;
        }
      }
      // a filter on a dimension of the car and one of the sums' own
      const firstVehicle = (await run(id, { ...periods[0]!, groupBy: ['vehicle'], filters: {} }, false)).rows[0]?.keys.vehicle;
      for (const filters of [{ vehicle: [firstVehicle!] }, ...(report.filters?.includes('fuelType') ? [{ fuelType: ['ON'] }] : []), ...(report.filters?.includes('category') ? [{ category: ['leasing', 'paliwo'] }] : [])]) {
        const params = { ...periods[0]!, groupBy: report.defaults.groupBy as Dimension[], filters };
        expect(await run(id, params, true), `${id} ${JSON.stringify(filters)}`).toEqual(near(await run(id, params, false)));
      }
    }
    expect(compared).toBeGreaterThan(40); // the seed's costs, fuel and readings are in these periods
  }, 120_000);

  it('reads a month until today whole from the totals while nothing is dated after today, and from the rows once something is', async () => {
    // the seed has nothing after today: "this month" is its totals' element
    expect(await nothingDatedFrom(t.db, day(1), { fuel: true, km: true })).toBe(true);
    const car = await t.db.selectFrom('fuel_card').select(['kartaId', 'pojazdId']).where('pojazdId', 'is not', null).orderBy('kartaId').executeTakeFirstOrThrow();
    const params = { from: `${day(0).slice(0, 7)}-01`, to: day(0), groupBy: ['vehicle'] as Dimension[], filters: { vehicle: [car.pojazdId!] } };
    const before = await run('vehicle-cost', params, true);
    // a fill dated tomorrow (an issuer's wrong date): not in a period that ends today, either way
    const { transId } = await t.db.insertInto('fuel_transaction').values({
      kartaId: car.kartaId, pojazdId: car.pojazdId, nrTransakcji: 'TEST-TOMORROW', data: new Date(Date.parse(`${day(1)}T10:00:00Z`)),
      stacja: 'ORLEN 1', produkt: 'ON', litry: 40, cenaJedn: 6, netto: 240, brutto: 295.2,
    }).returning('transId').executeTakeFirstOrThrow();
    try {
      expect(await nothingDatedFrom(t.db, day(1), { fuel: true, km: false })).toBe(false);
      expect(await nothingDatedFrom(t.db, day(1), { fuel: false, km: true })).toBe(true);
      const after = await run('vehicle-cost', params, true);
      expect(after).toEqual(near(await run('vehicle-cost', params, false)));
      expect(after.totals.costNet).toBeCloseTo(Number(before.totals.costNet ?? 0), 2);
      // a period until tomorrow counts it
      const withIt = await run('vehicle-cost', { ...params, to: day(1) }, true);
      expect(Number(withIt.totals.costNet)).toBeGreaterThanOrEqual(Number(before.totals.costNet ?? 0) + 240 - 0.005);
    } finally {
      await t.db.deleteFrom('fuel_transaction').where('transId', '=', transId).execute();
    }
  }, 60_000);

  it('counts an invoice line for its whole month: a period that touches the month counts it, whatever day the line names', async () => {
    const invoice = await t.db.selectFrom('invoice_line').select(['faktId', 'pojazdId', 'okres']).orderBy('liniaId').executeTakeFirstOrThrow();
    const month = day(-60).slice(0, 7);
    const previous = day(-90).slice(0, 7);
    const vehicle = { vehicle: [invoice.pojazdId] };
    const cost = async (from: string, to: string, runningTotals: boolean) =>
      Number((await run('vehicle-cost', { from, to, groupBy: ['vehicle'], filters: vehicle }, runningTotals)).totals.costNet ?? 0);
    const periods: [string, string][] = [
      [`${month}-01`, `${month}-05`], // days of the month before the line's day
      [`${previous}-10`, `${month}-05`], // the month as the period's tail
      [`${month}-25`, day(0)], // the month as the period's head, after the line's day
    ];
    const before = await Promise.all(periods.map(([from, to]) => cost(from, to, true)));
    const untouched = await cost(`${previous}-01`, `${previous}-28`, true);
    const { liniaId } = await t.db.insertInto('invoice_line')
      .values({ faktId: invoice.faktId, pojazdId: invoice.pojazdId, okres: `${month}-20`, kategoria: 'szkody', netto: 1234.56, vat: 283.95, brutto: 1518.51 })
      .returning('liniaId').executeTakeFirstOrThrow();
    try {
      for (const [i, [from, to]] of periods.entries()) {
        expect(await cost(from, to, true), `${from} – ${to}`).toBeCloseTo(before[i]! + 1234.56, 2);
        expect(await cost(from, to, false), `${from} – ${to}, from the rows`).toBeCloseTo(before[i]! + 1234.56, 2);
      }
      // a period that does not touch the month does not count it
      expect(await cost(`${previous}-01`, `${previous}-28`, true)).toBeCloseTo(untouched, 2);
    } finally {
      await t.db.deleteFrom('invoice_line').where('liniaId', '=', liniaId).execute();
    }
  }, 60_000);
});
