import { afterEach, describe, expect, it } from 'vitest';
import { configureFormats } from '../format';
import { keptTime } from './kept-time';

describe('the time of answers shown offline', () => {
  afterEach(() => configureFormats({ locale: 'pl-PL', timeZone: 'Europe/Warsaw', currency: 'PLN' }));

  it('is the clock time on the day they came, in the configured zone, not the phone’s', () => {
    configureFormats({ locale: 'pl-PL', timeZone: 'Europe/Warsaw', currency: 'PLN' });
    // 11:04 UTC is 12:04 in Warsaw in December
    expect(keptTime(Date.parse('2026-12-03T11:04:00Z'), Date.parse('2026-12-03T15:00:00Z'))).toBe('12:04');
  });

  it('names the day when they came on an earlier one', () => {
    configureFormats({ locale: 'pl-PL', timeZone: 'Europe/Warsaw', currency: 'PLN' });
    expect(keptTime(Date.parse('2026-12-02T11:04:00Z'), Date.parse('2026-12-03T15:00:00Z'))).toBe('02.12.2026 12:04');
  });
});
