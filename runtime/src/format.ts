/**
 * How values are shown (spec §9): dates by the reader's language's pattern (config.datePattern:
 * DD.MM.YYYY, DD/MM/YYYY), date-times with HH:mm after it, dates before
 * 1900-01-02 as empty (the back office stores "no date" as 1900-01-01), numbers, kilometres and money
 * in Polish notation, booleans and T/N flags as Tak/Nie. Every screen formats through this module.
 */
import type { FormatKind } from './config/bundle';

import { dayText } from '../core/date-text';
import { phoneText } from '../core/format-kind';
import { formatSettings, onFormatSettings, type FormatSettings } from './format-settings';

export { formatKindFor } from '../core/format-kind';

export type Translate = (key: string, vars?: Record<string, unknown>) => string;

// the locale, time zone and currency every value is shown in (set at start-up: format-settings.ts)
export { configureFormats, type FormatSettings } from './format-settings';

/**
 * An object whose properties are made when first read, each once: building every formatter at
 * load and again at start-up cost the first page ~40 ms of its main thread, four times that on a
 * slow phone, though the login page formats nothing (issue 33).
 */
function madeWhenRead<T extends object>(makers: { [K in keyof T]: () => T[K] }): T {
  const out = {} as T;
  for (const key of Object.keys(makers) as (keyof T)[]) {
    let value: T[typeof key] | undefined;
    Object.defineProperty(out, key, { get: () => (value ??= makers[key]()), enumerable: true });
  }
  return out;
}

function makeFormats({ locale, timeZone, currency, datePattern }: FormatSettings) {
  return madeWhenRead({
    timeZone: () => timeZone,
    datePattern: () => datePattern,
    number: () => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }),
    decimal1: () => new Intl.NumberFormat(locale, { minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    // a report's measures: the same decimals on every row, as its Excel and PDF files write them
    // (server/reports/export.ts DIGITS), never 562,8 under 447,56
    decimal2: () => new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    litres2: () => new Intl.NumberFormat(locale, { style: 'unit', unit: 'liter', minimumFractionDigits: 2, maximumFractionDigits: 2 }),
    km: () => new Intl.NumberFormat(locale, { style: 'unit', unit: 'kilometer', maximumFractionDigits: 0 }),
    money: () => new Intl.NumberFormat(locale, { style: 'currency', currency }),
    // an amount on a chart's axis: the locale's currency format without trailing zeros (12 000 zł, 1,25 zł)
    moneyShort: () => new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 0, maximumFractionDigits: 2 }),
    litres: () => new Intl.NumberFormat(locale, { style: 'unit', unit: 'liter', maximumFractionDigits: 2 }),
    mm: () => new Intl.NumberFormat(locale, { style: 'unit', unit: 'millimeter', minimumFractionDigits: 1, maximumFractionDigits: 1 }),
    // a month of a chart's axis (sty 2026): a calendar month, read in UTC so no zone moves it
    month: () => new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }),
    // wall-clock parts of an instant in the configured zone (en-CA: numeric, 24-hour)
    clock: () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }),
  });
}

let formats = makeFormats(formatSettings());
onFormatSettings((settings) => (formats = makeFormats(settings)));

interface DateParts {
  y: number;
  m: number;
  d: number;
  hh: number;
  mm: number;
}

const pad = (n: number) => String(n).padStart(2, '0');
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** Calendar parts of a date value; an instant (a Date, a value with a zone) is shown on the configured zone's clock. */
function dateParts(value: unknown): DateParts | null {
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return null;
    const parts = Object.fromEntries(formats.clock.formatToParts(value).map((p) => [p.type, p.value]));
    return { y: +parts.year, m: +parts.month, d: +parts.day, hh: +parts.hour, mm: +parts.minute };
  }
  if (typeof value !== 'string') return null;
  const match = ISO.exec(value.trim());
  if (!match) return null;
  if (match[6]) return dateParts(new Date(value.trim()));
  return { y: +match[1], m: +match[2], d: +match[3], hh: +(match[4] ?? 0), mm: +(match[5] ?? 0) };
}

/** The back office's "no date": anything before 1900-01-02. */
function isEmptyDate(p: DateParts): boolean {
  return p.y < 1900 || (p.y === 1900 && p.m === 1 && p.d < 2);
}

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

export function formatDate(value: unknown): string | null {
  const p = dateParts(value);
  return p && !isEmptyDate(p) ? dayText(p.y, p.m, p.d, formats.datePattern) : null;
}

export function formatDateTime(value: unknown): string | null {
  const p = dateParts(value);
  return p && !isEmptyDate(p) ? `${dayText(p.y, p.m, p.d, formats.datePattern)} ${pad(p.hh)}:${pad(p.mm)}` : null;
}

export function formatNumber(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.number.format(n);
}

/** A calendar month given as YYYY-MM (or a date in it): its short name and year, e.g. sty 2026. */
export function formatMonth(value: unknown): string | null {
  const match = typeof value === 'string' ? /^(\d{4})-(\d{2})/.exec(value.trim()) : null;
  if (!match || +match[2] < 1 || +match[2] > 12) return null;
  return formats.month.format(new Date(Date.UTC(+match[1], +match[2] - 1, 1)));
}

/** Exactly one decimal (tread depth 6,5; 7,0). */
export function formatDecimal1(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.decimal1.format(n);
}

/** Exactly two decimals (a report's kilograms of CO2, cost per kilometre, l/100 km). */
export function formatDecimal2(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.decimal2.format(n);
}

/** Litres with exactly two decimals (a report's litres: 167,00 l beside 97,50 l). */
export function formatLitres2(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.litres2.format(n);
}

export function formatKm(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.km.format(n);
}

export function formatMoney(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.money.format(n);
}

/** Money without trailing zeros (12 000 zł, 1,25 zł), where there is no room for ,00. */
export function formatMoneyShort(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.moneyShort.format(n);
}

/** Fuel: 48 l. */
export function formatLitres(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.litres.format(n);
}

/** Tread depth: 6,5 mm. */
export function formatMm(value: unknown): string | null {
  const n = toNumber(value);
  return n === null ? null : formats.mm.format(n);
}

export function formatBoolean(value: unknown, t: Translate): string | null {
  if (value === true) return t('app:yes');
  if (value === false) return t('app:no');
  return null;
}

/** The back office's T/N flags (e.g. cenaWidoczna). */
export function formatTn(value: unknown, t: Translate): string | null {
  if (value === 'T' || value === 't') return t('app:yes');
  if (value === 'N' || value === 'n') return t('app:no');
  return isBlank(value) ? null : String(value);
}

const isBlank = (value: unknown) => value === null || value === undefined || (typeof value === 'string' && value.trim() === '');

/**
 * A value as text; an empty value as `emptyText` (by default app:empty). With `valueLabels`
 * (an i18n key prefix such as "app:roles") a coded value is shown as its label.
 */
export function formatValue(value: unknown, kind: FormatKind, t: Translate, emptyText?: string, valueLabels?: string): string {
  // a code without a label (e.g. a document group added later) is shown as it is
  if (valueLabels && Array.isArray(value)) {
    // a list of codes (a webhook's events): each as its label
    return value.length ? value.map((v) => t(`${valueLabels}.${String(v)}`, { defaultValue: String(v) })).join(', ') : emptyText ?? t('app:empty');
  }
  if (valueLabels && !isBlank(value)) return t(`${valueLabels}.${String(value)}`, { defaultValue: String(value) });
  let text: string | null;
  switch (kind) {
    case 'date': text = formatDate(value); break;
    case 'datetime': text = formatDateTime(value); break;
    case 'number': text = formatNumber(value); break;
    case 'decimal1': text = formatDecimal1(value); break;
    case 'km': text = formatKm(value); break;
    case 'money': text = formatMoney(value); break;
    case 'litres': text = formatLitres(value); break;
    case 'mm': text = formatMm(value); break;
    case 'boolean': text = formatBoolean(value, t); break;
    case 'tn': text = formatTn(value, t); break;
    case 'phone': text = isBlank(value) ? null : phoneText(String(value)); break;
    // a year is a name, not a quantity: 2020 in every language, never 2,020 or 2 020
    case 'year': text = isBlank(value) ? null : String(value); break;
    default: text = isBlank(value) ? null : String(value);
  }
  return text ?? emptyText ?? t('app:empty');
}
