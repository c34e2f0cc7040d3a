import { describe, expect, it } from 'vitest';
import type { ReminderRule } from '../../runtime/core/generated/meta.ts';
import { addDays, itemText, leftText, shownDate } from './texts.ts';

const TEXTS: Record<string, string> = {
  'reminders:rules.c.label': 'Limit km kontraktu',
  'reminders:rules.c.message': 'Prognoza na {{date}}: {{projectedKm}} km przy limicie {{limitKm}} km{{excessText}}',
  'reminders:excess': '; nadwyżka {{excessKm}} km ≈ {{excessCost}} zł',
  'reminders:noExcess': '; w limicie',
  'reminders:tooFewReadingsMessage': '{{label}} do {{date}}: za mało odczytów licznika, by prognozować przebieg',
  'reminders:rules.s.message': 'Podaj stan licznika — ostatni odczyt {{daysAgo}} dni temu',
  'reminders:rules.w.message': 'Wykonaj cotygodniową kontrolę pojazdu — ostatnia {{since}}',
  'reminders:rules.w.never': 'Wykonaj cotygodniową kontrolę pojazdu — pojazd nie miał jeszcze kontroli',
  'reminders:rules.d.message': 'Obsługa techniczna przy {{limitKm}} km, {{kmText}}{{projectedText}}',
  'reminders:kmLeft': 'pozostało {{km}} km',
  'reminders:kmOver': 'przekroczono o {{km}} km',
  'reminders:projected': ' (prognoza: {{date}})',
  'reminders:distance.reachedOn': 'przy ostatnim odczycie brakowało {{km}} km, a wg średniego przebiegu limit minął {{date}}',
  'reminders:daysLeft.pastDue': '{{count}} dni po terminie',
  'reminders:daysLeft.today': 'dziś',
  'reminders:daysLeft.left': 'za {{count}} dni',
  'reminders:left.distanceOver': 'przekroczono o {{km}} km',
  'reminders:left.distanceLeft': 'pozostało {{km}} km',
  'reminders:left.distanceLeftUntil': 'pozostało {{km}} km — wg prognozy {{when}}',
  'reminders:left.distancePast': 'wg prognozy {{when}} (przy ostatnim odczycie brakowało {{km}} km)',
  'reminders:left.projectionOver': 'koniec kontraktu {{when}}; prognozowana nadwyżka {{km}} km',
  'reminders:left.projectionWithin': 'koniec kontraktu {{when}}; w limicie, zapas {{km}} km',
};
const t = (key: string, vars: Record<string, unknown> = {}) => (TEXTS[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, n) => String(vars[n] ?? ''));
const projection = { id: 'c', resource: 'contract', due: { kind: 'mileageProjection', end: 'dataDo', limit: 'limitKmOgol' }, thresholds: { urgent: 0, soon: 2000 },
  label: 'reminders:rules.c.label', message: 'reminders:rules.c.message', open: { screen: 'x' } } as ReminderRule;
const none = { kmLeft: null, projectedKm: null, limitKm: null, excessKm: null, excessCost: null };

const weekly = { id: 'w', resource: 'car', due: { kind: 'date', field: 'kontrolaData', afterDays: 7, whenEmpty: { message: 'reminders:rules.w.never' } }, thresholds: { urgent: 0, soon: 1 },
  label: 'reminders:rules.w.label', message: 'reminders:rules.w.message', open: { screen: 'x' } } as ReminderRule;

describe('reminder texts', () => {
  it('tells a record never done by the rule\'s whenEmpty message, due today, and a done one by its last day', () => {
    const never = { ...none, dueDate: null, daysLeft: null };
    expect(itemText(t, weekly, never, null, 'pl-PL', 'DD.MM.YYYY')).toBe('Wykonaj cotygodniową kontrolę pojazdu — pojazd nie miał jeszcze kontroli');
    expect(leftText(t, weekly, never, 'pl-PL')).toBe('dziś');
    const done = { ...none, dueDate: '2031-03-10', daysLeft: 2 };
    expect(itemText(t, weekly, done, null, 'pl-PL', 'DD.MM.YYYY')).toBe('Wykonaj cotygodniową kontrolę pojazdu — ostatnia 03.03.2031');
    expect(leftText(t, weekly, done, 'pl-PL')).toBe('za 2 dni');
  });

  it('writes days as DD.MM.YYYY and counts days across a month end', () => {
    expect(shownDate('2031-03-01', 'DD.MM.YYYY')).toBe('01.03.2031');
    expect(addDays('2031-03-01', -1)).toBe('2031-02-28');
  });

  it('prices a projected excess in zł with the locale\'s grouping, and says when the projection is within the limit', () => {
    const over = itemText(t, projection, { ...none, dueDate: '2031-06-18', daysLeft: 100, kmLeft: -12_345, projectedKm: 63_345, limitKm: 50_000, excessKm: 12_345, excessCost: 6172.5 }, null, 'pl-PL', 'DD.MM.YYYY');
    expect(over).toBe('Prognoza na 18.06.2031: 63\u00a0345 km przy limicie 50\u00a0000 km; nadwyżka 12\u00a0345 km ≈ 6172,50 zł');
    const within = itemText(t, projection, { ...none, dueDate: '2031-06-18', daysLeft: 100, kmLeft: 500, projectedKm: 50_500, limitKm: 50_000, excessKm: 0, excessCost: 0 }, null, 'pl-PL', 'DD.MM.YYYY');
    expect(within).toMatch(/; w limicie$/);
  });

  it('says there are too few readings instead of a projection', () => {
    const text = itemText(t, projection, { ...none, dueDate: '2031-06-18', daysLeft: 100, kmLeft: 1500, limitKm: 50_000, tooFewReadings: true }, null, 'pl-PL', 'DD.MM.YYYY');
    expect(text).toBe('Limit km kontraktu do 18.06.2031: za mało odczytów licznika, by prognozować przebieg');
  });

  it('says in one sentence which limit of a distance came first: the km over, the projected day past while km were left, or the km left until that day', () => {
    const distance = { ...projection, id: 'd', message: 'reminders:rules.d.message', due: { kind: 'distance', limit: 'otDoKm', reading: 'aktStanLicz' } } as ReminderRule;
    const base = { ...none, limitKm: 90_000 };
    // the last reading was 300 km short, but at the vehicle's average the limit came 94 days ago
    const past = { ...base, dueDate: '2031-03-01', daysLeft: -94, kmLeft: 300 };
    expect(leftText(t, distance, past, 'pl-PL')).toBe('wg prognozy 94 dni po terminie (przy ostatnim odczycie brakowało 300 km)');
    expect(itemText(t, distance, past, null, 'pl-PL', 'DD.MM.YYYY')).toBe('Obsługa techniczna przy 90\u00a0000 km, przy ostatnim odczycie brakowało 300 km, a wg średniego przebiegu limit minął 01.03.2031');
    const over = { ...base, dueDate: null, daysLeft: null, kmLeft: -250 };
    expect(leftText(t, distance, over, 'pl-PL')).toBe('przekroczono o 250 km');
    const coming = { ...base, dueDate: '2031-03-21', daysLeft: 20, kmLeft: 12_500 };
    expect(leftText(t, distance, coming, 'pl-PL')).toBe('pozostało 12\u00a0500 km — wg prognozy za 20 dni');
    expect(itemText(t, distance, coming, null, 'pl-PL', 'DD.MM.YYYY')).toBe('Obsługa techniczna przy 90\u00a0000 km, pozostało 12\u00a0500 km (prognoza: 21.03.2031)');
    expect(leftText(t, distance, { ...coming, tooFewReadings: true }, 'pl-PL')).toBe('pozostało 12\u00a0500 km');
  });

  it('says a date\'s days, and a projection\'s days to the contract end with its excess or margin', () => {
    const date = { ...projection, id: 'x', due: { kind: 'date', field: 'ocDataDo' } } as ReminderRule;
    expect(leftText(t, date, { ...none, dueDate: '2031-03-01', daysLeft: -3 }, 'pl-PL')).toBe('3 dni po terminie');
    expect(leftText(t, date, { ...none, dueDate: '2031-03-01', daysLeft: 0 }, 'pl-PL')).toBe('dziś');
    expect(leftText(t, projection, { ...none, dueDate: '2031-06-18', daysLeft: 100, kmLeft: -12_345 }, 'pl-PL')).toBe('koniec kontraktu za 100 dni; prognozowana nadwyżka 12\u00a0345 km');
    expect(leftText(t, projection, { ...none, dueDate: '2031-06-18', daysLeft: 100, kmLeft: 500 }, 'pl-PL')).toBe('koniec kontraktu za 100 dni; w limicie, zapas 500 km');
  });

  it('counts the days since the watched date from the days to the due day', () => {
    const stale = { ...projection, id: 's', message: 'reminders:rules.s.message', due: { kind: 'date', field: 'aktDataLicz', afterDays: 90 } } as ReminderRule;
    expect(itemText(t, stale, { ...none, dueDate: '2031-03-05', daysLeft: -5 }, null, 'pl-PL', 'DD.MM.YYYY')).toBe('Podaj stan licznika — ostatni odczyt 95 dni temu');
  });
});
