import { describe, expect, it } from 'vitest';
import { dateText, dateTimeText, dayText, isoDayText, patternText, readDay } from './date-text';

// the patterns screens/app.json gives each language (config.languages[].datePattern)
const PL = 'DD.MM.YYYY';
const UK = 'DD.MM.YYYY';
const EN = 'DD/MM/YYYY';

describe('dates as the portal writes them', () => {
  it('writes days and months below ten with a leading zero, on the clock of the zone', () => {
    // 1 December 09:20 UTC is 10:20 in Warsaw: the day of a month's first nine days keeps its zero
    expect(dateTimeText(new Date('2026-12-01T09:20:00Z'), 'Europe/Warsaw', PL)).toBe('01.12.2026 10:20');
    expect(dateText(new Date('2026-03-05T23:30:00Z'), 'Europe/Warsaw', PL)).toBe('06.03.2026');
    expect(dateTimeText(new Date('2026-07-09T00:05:00Z'), 'UTC', PL)).toBe('09.07.2026 00:05');
  });

  it('writes midnight as 00, not 24', () => {
    expect(dateTimeText(new Date('2026-01-01T23:00:00Z'), 'Europe/Warsaw', PL)).toBe('02.01.2026 00:00');
  });

  it('writes nothing for an invalid date', () => {
    expect(dateTimeText(new Date('x'), 'Europe/Warsaw', PL)).toBe('');
    expect(dateText(new Date('x'), 'Europe/Warsaw', PL)).toBe('');
  });
});

describe("a day by each language's pattern, written and read back (issue 48)", () => {
  const languages = [
    { id: 'pl', pattern: PL, written: '05.03.2026', letters: { day: 'DD', month: 'MM', year: 'RRRR', hour: 'GG', minute: 'MM' }, shown: 'DD.MM.RRRR' },
    { id: 'en', pattern: EN, written: '05/03/2026', letters: { day: 'DD', month: 'MM', year: 'YYYY', hour: 'HH', minute: 'MM' }, shown: 'DD/MM/YYYY' },
    { id: 'uk', pattern: UK, written: '05.03.2026', letters: { day: 'ДД', month: 'ММ', year: 'РРРР', hour: 'ГГ', minute: 'ХХ' }, shown: 'ДД.ММ.РРРР' },
  ];

  for (const { id, pattern, written, letters, shown } of languages) {
    it(`${id}: writes 5 March 2026 as ${written} and reads it back as 2026-03-05`, () => {
      expect(dayText(2026, 3, 5, pattern)).toBe(written);
      expect(isoDayText('2026-03-05', pattern)).toBe(written);
      expect(dateText(new Date('2026-03-05T10:00:00Z'), 'Europe/Warsaw', pattern)).toBe(written);
      expect(dateTimeText(new Date('2026-03-05T10:00:00Z'), 'Europe/Warsaw', pattern)).toBe(`${written} 11:00`);
      expect(readDay(written, pattern)).toEqual({ day: '2026-03-05', rest: '' });
      expect(readDay(`${written} 11:00`, pattern)).toEqual({ day: '2026-03-05', rest: ' 11:00' });
      // one-digit day and month are read too; a day that does not exist, or another language's separator, is not
      expect(readDay(written.replace('05', '5').replace('03', '3'), pattern)?.day).toBe('2026-03-05');
      expect(readDay(dayText(2026, 2, 31, pattern), pattern)).toBeNull();
      expect(readDay('2026-03-05', pattern)).toBeNull();
    });

    it(`${id}: names the pattern in the language's letters (${shown})`, () => {
      const t = (key: string) => (letters as Record<string, string>)[key.replace('app:datePattern.', '')];
      expect(patternText(pattern, t)).toBe(shown);
      expect(patternText(pattern, t, true)).toBe(`${shown} ${letters.hour}:${letters.minute}`);
    });
  }

  it('reads the English day as day first, never as an American month first', () => {
    expect(readDay('12/03/2026', EN)?.day).toBe('2026-03-12');
    expect(readDay('03/31/2026', EN)).toBeNull();
    expect(readDay('12.03.2026', EN)).toBeNull();
    expect(readDay('12/03/2026', PL)).toBeNull();
  });

  it('follows any order and separator a language configures (YYYY-MM-DD)', () => {
    expect(dayText(2026, 3, 5, 'YYYY-MM-DD')).toBe('2026-03-05');
    expect(readDay('2026-3-5', 'YYYY-MM-DD')?.day).toBe('2026-03-05');
  });
});
