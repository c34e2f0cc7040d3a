import { describe, expect, it } from 'vitest';
import app from '../../locales/pl/app.json';
import {
  configureFormats, formatBoolean, formatDate, formatDateTime, formatDecimal1, formatDecimal2, formatKindFor, formatLitres2, formatKm, formatMoney, formatMoneyShort, formatMonth, formatNumber, formatTn, formatValue,
} from './format';

const t = (key: string) => (app as Record<string, any>)[key.replace('app:', '')] as string;
// Intl separates groups and units with (narrow) no-break spaces; compare with plain ones
const plain = (s: string | null) => s?.replace(/[\u00a0\u202f]/g, ' ') ?? null;

describe('units', () => {
  it('shows fuel in litres and tread depth in millimetres with one decimal', () => {
    expect(plain(formatValue(48, 'litres', t))).toBe('48 l');
    expect(plain(formatValue(6.5, 'mm', t))).toBe('6,5 mm');
    expect(plain(formatValue(7, 'mm', t))).toBe('7,0 mm');
    expect(formatValue(null, 'litres', t, '')).toBe('');
  });

  it('takes the unit from the entity schema (x-format) unless the screen names a format', () => {
    expect(formatKindFor({ type: ['number', 'null'], 'x-format': 'litres' })).toBe('litres');
    expect(formatKindFor({ type: ['number', 'null'], 'x-format': 'litres' }, 'number')).toBe('number');
    expect(formatKindFor({ type: 'number', 'x-format': 'nonsense' })).toBe('number');
  });
});

describe('format', () => {
  it('shows a month of a chart as its short name and year (YYYY-MM or a date in it)', () => {
    expect(formatMonth('2026-01')).toBe('sty 2026');
    expect(formatMonth('2026-05-31')).toBe('maj 2026');
    expect(formatMonth('2026-13')).toBeNull();
    expect(formatMonth(202601)).toBeNull();
  });

  it('shows dates as DD.MM.YYYY and date-times as DD.MM.YYYY HH:mm', () => {
    expect(formatDate('2024-03-07')).toBe('07.03.2024');
    expect(formatDate('2024-03-07T13:45:00')).toBe('07.03.2024');
    expect(formatDateTime('2024-03-07T13:45:10.123')).toBe('07.03.2024 13:45');
    expect(formatDateTime('2024-12-31 08:05')).toBe('31.12.2024 08:05');
    // an instant is shown on the configured zone's clock (Europe/Warsaw by default: UTC+1 in winter)
    expect(formatDateTime(new Date('2024-01-02T08:03:00Z'))).toBe('02.01.2024 09:03');
    expect(formatDateTime('2024-07-02T22:30:00Z')).toBe('03.07.2024 00:30');
  });

  it('takes the locale and time zone from the configuration (screens/app.json config)', () => {
    try {
      expect(configureFormats({ locale: 'en-GB', timeZone: 'UTC', currency: 'EUR' })).toEqual({ locale: 'en-GB', timeZone: 'UTC', currency: 'EUR', datePattern: __FORMAT_DEFAULTS__.datePattern });
      expect(formatNumber(12345.5)).toBe('12,345.5');
      // the currency's symbol and its place are the locale's, never the code's
      expect(formatMoney(12000)).toBe('€12,000.00');
      expect(formatMoneyShort(12000)).toBe('€12,000');
      expect(formatDateTime(new Date('2024-01-02T08:03:00Z'))).toBe('02.01.2024 08:03');
    } finally {
      configureFormats({});
    }
    expect(plain(formatNumber(12345.5))).toBe('12 345,5');
  });

  it("writes dates by the reader's language's pattern (config.datePattern): 07/03/2024 in English", () => {
    try {
      configureFormats({ locale: 'en-GB', datePattern: 'DD/MM/YYYY' });
      expect(formatDate('2024-03-07')).toBe('07/03/2024');
      expect(formatDateTime('2024-12-31 08:05')).toBe('31/12/2024 08:05');
      expect(formatValue('2024-03-07', 'date', t)).toBe('07/03/2024');
      configureFormats({ locale: 'uk-UA', datePattern: 'DD.MM.YYYY' });
      expect(formatDate('2024-03-07')).toBe('07.03.2024');
    } finally {
      configureFormats({});
    }
    expect(formatDate('2024-03-07')).toBe('07.03.2024');
  });

  it('writes a year by its digits alone in every language (a production year is 2020, never 2,020 or 2 020)', () => {
    expect(formatKindFor({ type: ['integer', 'null'], 'x-format': 'year' })).toBe('year');
    try {
      for (const locale of ['en-GB', 'uk-UA', 'pl-PL']) {
        configureFormats({ locale });
        expect(formatValue(2020, 'year', t), locale).toBe('2020');
      }
      configureFormats({ locale: 'en-GB' });
      expect(formatValue(2020, 'number', t)).toBe('2,020');
    } finally {
      configureFormats({});
    }
    expect(formatValue(null, 'year', t)).toBe('—');
  });

  it('treats dates before 1900-01-02 as empty', () => {
    expect(formatDate('1900-01-01')).toBeNull();
    expect(formatDate('1899-12-31')).toBeNull();
    expect(formatDate('1900-01-02')).toBe('02.01.1900');
    expect(formatValue('1900-01-01', 'date', t)).toBe('—');
  });

  it('treats missing and unreadable dates as empty', () => {
    expect(formatDate(null)).toBeNull();
    expect(formatDate('')).toBeNull();
    expect(formatDate('jutro')).toBeNull();
  });

  it('formats numbers, kilometres and money the Polish way', () => {
    expect(plain(formatNumber(1234567.5))).toBe('1 234 567,5');
    expect(plain(formatKm(125000))).toBe('125 000 km');
    expect(plain(formatKm('98765'))).toBe('98 765 km');
    expect(plain(formatMoney(1234.5))).toBe('1234,50 zł');
    expect(plain(formatMoney(25000))).toBe('25 000,00 zł');
    expect(formatNumber(null)).toBeNull();
    expect(formatNumber('abc')).toBeNull();
  });

  it('shows a tread depth with exactly one decimal', () => {
    expect(formatDecimal1(6.5)).toBe('6,5');
    expect(formatDecimal1(7)).toBe('7,0');
    expect(formatDecimal1('5.25')).toBe('5,3');
    expect(formatValue(null, 'decimal1', t, '')).toBe('');
  });

  it('shows a report\'s measures with two decimals on every row, as its Excel and PDF files (562,80 under 447,56)', () => {
    expect([formatDecimal2(447.56), formatDecimal2(562.8), formatDecimal2(8), formatDecimal2('0.825')]).toEqual(['447,56', '562,80', '8,00', '0,83']);
    expect([plain(formatLitres2(167)), plain(formatLitres2(97.5)), plain(formatLitres2(12345.678))]).toEqual(['167,00 l', '97,50 l', '12 345,68 l']);
    expect(formatDecimal2(null)).toBeNull();
  });

  it('shows booleans and T/N flags as Tak/Nie', () => {
    expect(formatBoolean(true, t)).toBe('Tak');
    expect(formatBoolean(false, t)).toBe('Nie');
    expect(formatBoolean(null, t)).toBeNull();
    expect(formatTn('T', t)).toBe('Tak');
    expect(formatTn('N', t)).toBe('Nie');
  });

  it('shows a nine-digit phone number as Poles write it (a mobile in threes, a landline 2-3-2-2) and any other number as stored', () => {
    expect(formatValue('600123456', 'phone', t)).toBe('600 123 456');
    // a Warsaw landline, stored as typed: the grid, the form and the export write it alike
    expect(formatValue('22 500 10 00', 'phone', t)).toBe('22 500 10 00');
    expect(formatValue('124223000', 'phone', t)).toBe('12 422 30 00');
    expect(formatValue('600 123 456', 'phone', t)).toBe('600 123 456');
    expect(formatValue('+48 22 555 01 01', 'phone', t)).toBe('+48 22 555 01 01');
    expect(formatValue(null, 'phone', t)).toBe('—');
  });

  it('shows an empty value as app:empty unless told otherwise', () => {
    expect(formatValue(null, 'text', t)).toBe('—');
    expect(formatValue('  ', 'text', t)).toBe('—');
    expect(formatValue(undefined, 'km', t, '')).toBe('');
    expect(formatValue('WZ12345', 'text', t)).toBe('WZ12345');
    expect(formatValue(0, 'number', t)).toBe('0');
  });

  it('chooses the format from the schema property unless the screen names one', () => {
    expect(formatKindFor({ type: ['string', 'null'], format: 'date' })).toBe('date');
    expect(formatKindFor({ type: 'string', format: 'date-time' })).toBe('datetime');
    expect(formatKindFor({ type: ['integer', 'null'] })).toBe('number');
    expect(formatKindFor({ type: ['boolean', 'null'] })).toBe('boolean');
    expect(formatKindFor({ type: 'string' })).toBe('text');
    expect(formatKindFor({ type: 'integer' }, 'km')).toBe('km');
    expect(formatKindFor(undefined)).toBe('text');
  });
});

describe('a list of codes with value labels (issue 49: a webhook\'s events)', () => {
  const labels: Record<string, string> = { 'webhooks:eventNames.order.created': 'Zlecenie utworzone', 'webhooks:eventNames.damage.reported': 'Szkoda zgłoszona' };
  const tl = (key: string, vars?: Record<string, unknown>) => labels[key] ?? (vars?.defaultValue as string) ?? key;
  it('shows each code by its label, joined by commas; a code without one as itself', () => {
    expect(formatValue(['order.created', 'damage.reported'], 'text', tl, '', 'webhooks:eventNames')).toBe('Zlecenie utworzone, Szkoda zgłoszona');
    expect(formatValue(['order.created', 'new.event'], 'text', tl, '', 'webhooks:eventNames')).toBe('Zlecenie utworzone, new.event');
  });
  it('shows an empty list as the empty text the screen gives ("wszyscy")', () => {
    expect(formatValue([], 'text', tl, 'wszyscy', 'webhooks:eventNames')).toBe('wszyscy');
  });
});
