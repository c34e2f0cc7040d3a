import { describe, expect, it } from 'vitest';
import type { ReminderRule } from '../../runtime/core/generated/meta.ts';
import { addDays, itemText, shownDate } from './texts.ts';

const TEXTS: Record<string, string> = {
  'reminders:rules.c.label': 'Limit km kontraktu',
  'reminders:rules.c.message': 'Prognoza na {{date}}: {{projectedKm}} km przy limicie {{limitKm}} km{{excessText}}',
  'reminders:excess': '; nadwyżka {{excessKm}} km ≈ {{excessCost}} zł',
  'reminders:noExcess': '; w limicie',
  'reminders:tooFewReadingsMessage': '{{label}} do {{date}}: za mało odczytów licznika, by prognozować przebieg',
  'reminders:rules.s.message': 'Podaj stan licznika — ostatni odczyt {{daysAgo}} dni temu',
};
const t = (key: string, vars: Record<string, unknown> = {}) => (TEXTS[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, n) => String(vars[n] ?? ''));
const projection = { id: 'c', resource: 'contract', due: { kind: 'mileageProjection', end: 'dataDo', limit: 'limitKmOgol' }, thresholds: { urgent: 0, soon: 2000 },
  label: 'reminders:rules.c.label', message: 'reminders:rules.c.message', open: { screen: 'x' } } as ReminderRule;
const none = { kmLeft: null, projectedKm: null, limitKm: null, excessKm: null, excessCost: null };

describe('reminder texts', () => {
  it('writes days as DD.MM.YYYY and counts days across a month end', () => {
    expect(shownDate('2031-03-01')).toBe('01.03.2031');
    expect(addDays('2031-03-01', -1)).toBe('2031-02-28');
  });

  it('prices a projected excess in zł with the locale\'s grouping, and says when the projection is within the limit', () => {
    const over = itemText(t, projection, { ...none, dueDate: '2031-06-18', daysLeft: 100, kmLeft: -12_345, projectedKm: 63_345, limitKm: 50_000, excessKm: 12_345, excessCost: 6172.5 }, null, 'pl-PL');
    expect(over).toBe('Prognoza na 18.06.2031: 63\u00a0345 km przy limicie 50\u00a0000 km; nadwyżka 12\u00a0345 km ≈ 6172,50 zł');
    const within = itemText(t, projection, { ...none, dueDate: '2031-06-18', daysLeft: 100, kmLeft: 500, projectedKm: 50_500, limitKm: 50_000, excessKm: 0, excessCost: 0 }, null, 'pl-PL');
    expect(within).toMatch(/; w limicie$/);
  });

  it('says there are too few readings instead of a projection', () => {
    const text = itemText(t, projection, { ...none, dueDate: '2031-06-18', daysLeft: 100, kmLeft: 1500, limitKm: 50_000, tooFewReadings: true }, null, 'pl-PL');
    expect(text).toBe('Limit km kontraktu do 18.06.2031: za mało odczytów licznika, by prognozować przebieg');
  });

  it('counts the days since the watched date from the days to the due day', () => {
    const stale = { ...projection, id: 's', message: 'reminders:rules.s.message', due: { kind: 'date', field: 'aktDataLicz', afterDays: 90 } } as ReminderRule;
    expect(itemText(t, stale, { ...none, dueDate: '2031-03-05', daysLeft: -5 }, null, 'pl-PL')).toBe('Podaj stan licznika — ostatni odczyt 95 dni temu');
  });
});
