import { describe, expect, it } from 'vitest';
import { chartRows, type Column, type Result, type Row } from './chart-rows';

const month: Column = { id: 'month', label: 'Miesiąc', kind: 'dimension', format: 'month' };
const cost: Column = { id: 'costNet', label: 'Koszt netto', kind: 'measure', format: 'money' };
const row = (m: string, value: number): Row => ({ keys: { month: m }, values: { month: m, costNet: value } });
const rest = (count: number) => `Pozostałe (${count})`;
const all = (count: number) => `Wszystkie (${count})`;

describe("the report chart's rows", () => {
  it('shows every month from the first when the table on the page is sorted by cost', () => {
    const sortedByCost = [row('2026-03', 900), row('2026-01', 500), row('2026-02', 100)];
    const result: Result = { columns: [month, cost], rows: sortedByCost, totals: { costNet: 1500 }, rowCount: 3 };
    const drawn = chartRows(result, cost, rest, all);
    expect(drawn.topOnly).toBe(false);
    expect(drawn.rows.map((r) => r.keys.month)).toEqual(['2026-01', '2026-02', '2026-03']);
    // the table's own rows keep the order the reader chose
    expect(result.rows.map((r) => r.keys.month)).toEqual(['2026-03', '2026-01', '2026-02']);
  });

  it('orders keys sent as text that are numbers as numbers, an empty key last', () => {
    const vehicle: Column = { id: 'vehicle', label: 'Pojazd', kind: 'dimension' };
    const byVehicle = (id: string | null, value: number): Row => ({ keys: { vehicle: id }, values: { vehicle: `WA ${id}`, costNet: value } });
    const result: Result = { columns: [vehicle, cost], rows: [byVehicle('10', 1), byVehicle(null, 2), byVehicle('9', 3)], totals: { costNet: 6 }, rowCount: 3 };
    expect(chartRows(result, cost, rest, all).rows.map((r) => r.keys.vehicle)).toEqual(['9', '10', null]);
  });

  it('shows the largest rows and the rest of the total when there are more rows than a page', () => {
    const result: Result = {
      columns: [month, cost], rows: [row('2026-01', 500)], totals: { costNet: 1600 }, rowCount: 4,
      top: [row('2026-03', 900), row('2026-01', 500)],
    };
    const drawn = chartRows(result, cost, rest, all);
    expect(drawn.topOnly).toBe(true);
    expect(drawn.rows.map((r) => [r.values.month, r.values.costNet])).toEqual([['2026-03', 900], ['2026-01', 500], ['Pozostałe (2)', 200]]);
  });
});
