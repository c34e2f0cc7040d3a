/**
 * A report a page at a time (issue 46): the pages of a sorted run, read one after another, hold
 * every row of the unpaged run exactly once — also when many rows tie in the sorted column — in
 * the order asked for; the totals of every page are those over all rows and equal the sum of all
 * pages' rows; the chart's rows are the largest by the chart's measure. On the seeded demo, on
 * PGlite and (DATABASE_URL) PostgreSQL.
 */
import { resolve } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadBundle } from '../config/load-bundle.ts';
import type { Dimension } from '../config/report-declaration.ts';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';
import { runReport, type ReportResult, type RunParams } from './engine.ts';
import { runAnomalyReport } from './anomalies.ts';
import type { Paging } from './paging.ts';

const bundle = loadBundle({ root: resolve(import.meta.dirname, '../..') });

describe('a report a page at a time', () => {
  let t: TestDatabase;
  let today: string;
  const day = (offset: number) => new Date(Date.parse(`${today}T12:00:00Z`) + offset * 86_400_000).toISOString().slice(0, 10);

  beforeAll(async () => {
    t = await openTestDatabase({ seed: true });
    const seed = await t.db.selectFrom('app_setting').select('value').where('key', '=', 'seed').executeTakeFirstOrThrow();
    today = (typeof seed.value === 'string' ? JSON.parse(seed.value) : seed.value).today;
  }, 600_000);
  afterAll(async () => t?.close());

  const every = sql`(select "pojazdId" from car)`;
  const run = (id: string, params: RunParams) => (bundle.reports[id]!.source === 'anomalies'
    ? runAnomalyReport(t.db, bundle.reports[id]!, params, every, (k) => k, {})
    : runReport(t.db, bundle.reports[id]!, bundle.reporting!, params, every, (k) => k));
  const keyOf = (row: ReportResult['rows'][number]) => JSON.stringify(row.keys);
  /** Every page of `size` rows in the order asked for, read until the row count. */
  const pages = async (id: string, params: RunParams, size: number, sort?: Paging['sort']) => {
    const read: ReportResult[] = [];
    for (let offset = 0; ; offset += size) {
      const page = await run(id, { ...params, page: { offset, limit: size, sort } });
      read.push(page);
      if (offset + size >= page.rowCount) return read;
    }
  };

  const cases: { id: string; groupBy: Dimension[]; sort: Paging['sort']; ties: string }[] = [
    // most vehicles bought no tyres in the period: thousands of zeros tie
    { id: 'vehicle-cost', groupBy: ['vehicle'], sort: { column: 'category:opony', direction: 'desc' }, ties: 'category:opony' },
    { id: 'vehicle-cost', groupBy: ['fuelType'], sort: { column: 'fuelType', direction: 'asc' }, ties: 'fuelType' },
    { id: 'vehicle-cost', groupBy: ['vehicle'], sort: { column: 'costPerKm', direction: 'asc' }, ties: 'costPerKm' },
    { id: 'cost-centre', groupBy: ['mpk', 'category'], sort: { column: 'category', direction: 'desc' }, ties: 'category' },
    { id: 'fuel-consumption', groupBy: ['vehicle'], sort: { column: 'vehicle', direction: 'desc' }, ties: 'vehicle' },
    // by a measure, each row a vehicle's: the labels and the vehicle's fuel (the range) are joined to the page's rows only
    { id: 'fuel-consumption', groupBy: ['vehicle'], sort: { column: 'l100', direction: 'desc' }, ties: 'l100' },
    { id: 'fuel-anomalies', groupBy: ['rule', 'explained'], sort: { column: 'anomalies', direction: 'desc' }, ties: 'anomalies' },
  ];

  for (const c of cases) {
    it(`${c.id} by ${c.groupBy.join(', ')}, sorted by ${c.sort!.column} ${c.sort!.direction}: the pages hold every row once, in order, and the totals are all rows'`, async () => {
      const params: RunParams = { from: day(-400), to: day(0), groupBy: c.groupBy, filters: {} };
      const all = await run(c.id, params);
      // pages of five rows, of one where the seed has few (fuel types, anomalies)
      const size = all.rows.length > 10 ? 5 : 1;
      expect(all.rows.length, 'the seed has rows for it').toBeGreaterThan(1);
      const read = await pages(c.id, params, size, c.sort);
      const rows = read.flatMap((p) => p.rows);
      // no row twice, none left out
      expect(rows.length).toBe(all.rows.length);
      expect(new Set(rows.map(keyOf)).size).toBe(rows.length);
      expect(new Set(rows.map(keyOf))).toEqual(new Set(all.rows.map(keyOf)));
      // the same row's values either way
      const byKey = new Map(all.rows.map((r) => [keyOf(r), r]));
      for (const row of rows) expect(row).toEqual(byKey.get(keyOf(row)));
      // in the order asked for (empty values last)
      const values = rows.map((r) => r.values[c.ties]);
      const filled = values.filter((v) => v !== null);
      expect(values.slice(filled.length).every((v) => v === null), 'empty values last').toBe(true);
      const sign = c.sort!.direction === 'desc' ? -1 : 1;
      for (let i = 1; i < filled.length; i++) {
        const [a, b] = [filled[i - 1]!, filled[i]!];
        // numbers by their value; texts by the database's collation, so only: equal texts are next to each other
        if (typeof a === 'number' && typeof b === 'number') expect(sign * (a - b), `${a} before ${b}`).toBeLessThanOrEqual(0);
        else if (a !== b) expect(filled.slice(i).includes(a), `${a} again after ${b}`).toBe(false);
      }
      // every page's totals are over all rows: the unpaged run's, and the sum of all pages' rows
      for (const page of read) {
        expect(page.rowCount).toBe(all.rows.length);
        expect(page.totals).toEqual(all.totals);
      }
      for (const column of all.columns.filter((col) => col.kind === 'measure' && !['costPerKm', 'l100'].includes(col.id))) {
        const sum = Math.round(rows.reduce((s, r) => s + Number(r.values[column.id] ?? 0), 0) * 100) / 100;
        expect(read[0]!.totals[column.id], column.id).toBe(sum);
      }
    }, 300_000);
  }

  it('ties really tie: many vehicles share the sorted value', async () => {
    const all = await run('vehicle-cost', { from: day(-400), to: day(0), groupBy: ['vehicle'], filters: {} });
    const zeros = all.rows.filter((r) => r.values['category:opony'] === 0).length;
    expect(zeros).toBeGreaterThan(2);
  });

  it('a page past the last row is empty and still has the totals; the chart\'s rows are the largest by the chart measure', async () => {
    const params: RunParams = { from: day(-400), to: day(0), groupBy: ['vehicle'], filters: {} };
    const all = await run('vehicle-cost', params);
    const past = await run('vehicle-cost', { ...params, page: { offset: all.rows.length + 10, limit: 5 } });
    expect(past.rows).toEqual([]);
    expect(past.rowCount).toBe(all.rows.length);
    expect(past.totals).toEqual(all.totals);
    const withTop = await run('vehicle-cost', { ...params, page: { offset: 0, limit: 2, top: 3 } });
    const measure = bundle.reports['vehicle-cost']!.chart!.measure;
    const largest = all.rows.map((r) => r.values[measure]).filter((v): v is number => typeof v === 'number').sort((a, b) => b - a).slice(0, 3);
    expect(withTop.top!.map((r) => r.values[measure])).toEqual(largest);
    // each chart row named and valued as in the whole answer
    const byKey = new Map(all.rows.map((r) => [keyOf(r), r]));
    for (const row of withTop.top!) expect(row.values).toEqual(byKey.get(keyOf(row))!.values);
    expect(withTop.rows).toHaveLength(2);
  });
});
