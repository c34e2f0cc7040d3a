import { describe, expect, it } from 'vitest';
import { dayIn, hourIn } from './today.ts';

describe('the portal\'s day and hour in its zone', () => {
  it('is the zone\'s calendar day, not the server\'s, around midnight', () => {
    const lateInUtc = new Date('2026-12-31T23:30:00Z');
    expect(dayIn(lateInUtc, 'Europe/Warsaw')).toBe('2027-01-01');
    expect(dayIn(lateInUtc, 'UTC')).toBe('2026-12-31');
    expect(dayIn(lateInUtc, 'America/New_York')).toBe('2026-12-31');
  });

  it('keeps each zone apart when asked in turns (a formatter is kept per zone)', () => {
    const at = new Date('2026-06-15T05:00:00Z');
    for (let i = 0; i < 3; i++) {
      expect(hourIn(at, 'Europe/Warsaw')).toBe(7);
      expect(hourIn(at, 'UTC')).toBe(5);
      expect(hourIn(at, 'Asia/Tokyo')).toBe(14);
    }
    expect(hourIn(new Date('2026-06-15T22:00:00Z'), 'Europe/Warsaw')).toBe(0);
  });
});
