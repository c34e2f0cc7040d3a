import { describe, expect, it } from 'vitest';
import { monthText } from './file.ts';

const monthIn = (locale: string) => new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' });

describe('a report file writes a month in the reader\'s language, as the Raporty screen does (issue 46)', () => {
  it('names the month of a YYYY-MM key in Polish, English and Ukrainian', () => {
    expect(monthText('2026-11', monthIn('pl-PL'))).toBe('lis 2026');
    expect(monthText('2026-11', monthIn('en-GB'))).toBe('Nov 2026');
    expect(monthText('2026-01', monthIn('uk-UA'))).toMatch(/^січ\.? 2026/);
  });

  it('leaves anything that is not a month as it is (the rows without one say so in words)', () => {
    expect(monthText('brak', monthIn('pl-PL'))).toBe('brak');
    expect(monthText('2026-13', monthIn('pl-PL'))).toBe('2026-13');
  });
});
