import { describe, expect, it } from 'vitest';
import { badgeText, whenText } from './notification-texts';

const t = (key: string, vars?: Record<string, unknown>) => `${key}${vars ? JSON.stringify(vars) : ''}`;
const NOW = Date.parse('2026-03-10T12:00:00Z');

describe('badgeText', () => {
  it('hides the badge at 0 and while the count is not known, caps it at 99+', () => {
    expect(badgeText(0)).toBeNull();
    expect(badgeText(null)).toBeNull();
    expect(badgeText(undefined)).toBeNull();
    expect(badgeText(3)).toBe('3');
    expect(badgeText(99)).toBe('99');
    expect(badgeText(100)).toBe('99+');
  });
});

describe('whenText', () => {
  it('is relative within a day and the Polish date-time (Warsaw clock) after it', () => {
    expect(whenText('2026-03-10T11:59:30Z', NOW, t)).toBe('notifications:bell.justNow');
    expect(whenText('2026-03-10T11:55:00Z', NOW, t)).toBe('notifications:bell.minutesAgo{"count":5}');
    expect(whenText('2026-03-10T09:00:00Z', NOW, t)).toBe('notifications:bell.hoursAgo{"count":3}');
    expect(whenText('2026-03-08T09:05:00Z', NOW, t)).toBe('08.03.2026 10:05');
  });

  it('a clock running behind the server reads as just now; a bad date as nothing', () => {
    expect(whenText('2026-03-10T12:00:30Z', NOW, t)).toBe('notifications:bell.justNow');
    expect(whenText('wczoraj', NOW, t)).toBe('');
  });
});
