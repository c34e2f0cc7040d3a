import { describe, expect, it } from 'vitest';
import { dateText, dateTimeText } from './date-text';

describe('dates as the portal writes them', () => {
  it('writes days and months below ten with a leading zero, on the clock of the zone', () => {
    // 1 December 09:20 UTC is 10:20 in Warsaw: the day of a month's first nine days keeps its zero
    expect(dateTimeText(new Date('2026-12-01T09:20:00Z'), 'Europe/Warsaw')).toBe('01.12.2026 10:20');
    expect(dateText(new Date('2026-03-05T23:30:00Z'), 'Europe/Warsaw')).toBe('06.03.2026');
    expect(dateTimeText(new Date('2026-07-09T00:05:00Z'), 'UTC')).toBe('09.07.2026 00:05');
  });

  it('writes midnight as 00, not 24', () => {
    expect(dateTimeText(new Date('2026-01-01T23:00:00Z'), 'Europe/Warsaw')).toBe('02.01.2026 00:00');
  });

  it('writes nothing for an invalid date', () => {
    expect(dateTimeText(new Date('x'), 'Europe/Warsaw')).toBe('');
    expect(dateText(new Date('x'), 'Europe/Warsaw')).toBe('');
  });
});
