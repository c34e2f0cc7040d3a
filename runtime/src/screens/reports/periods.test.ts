import { describe, expect, it } from 'vitest';
import { periodRange } from './periods';

describe('the Raporty periods', () => {
  it('last month of January is December of the year before, to its last day', () => {
    expect(periodRange('lastMonth', '2027-01-15')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(periodRange('lastMonth', '2028-03-01')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
  });
  it('this month, quarter and year run to today', () => {
    expect(periodRange('thisMonth', '2026-12-03')).toEqual({ from: '2026-12-01', to: '2026-12-03' });
    expect(periodRange('quarter', '2026-11-20')).toEqual({ from: '2026-10-01', to: '2026-11-20' });
    expect(periodRange('year', '2026-11-20')).toEqual({ from: '2026-01-01', to: '2026-11-20' });
  });
});
