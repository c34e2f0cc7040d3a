import { describe, expect, it } from 'vitest';
import { changesStatistics } from './statistics.ts';

describe('an import\'s statistics', () => {
  it('are gathered anew by autovacuum\'s rule: 50 rows and a tenth of the table', () => {
    expect(changesStatistics(50, 0)).toBe(true);
    expect(changesStatistics(49, 0)).toBe(false);
    expect(changesStatistics(100_000, 120)).toBe(true);
    expect(changesStatistics(10_049, 100_000)).toBe(false);
    expect(changesStatistics(10_050, 100_000)).toBe(true);
  });

  it('are left to autovacuum by a run that wrote nothing', () => {
    expect(changesStatistics(0, 0)).toBe(false);
  });
});
