/**
 * The portal's one locale and time zone (screens/app.json config.locale / config.timeZone; a
 * client variant may change them). Code that formats numbers or dates, or reads a calendar day,
 * takes them from here instead of naming 'pl-PL' or 'Europe/Warsaw' itself.
 */
import { DEFAULT_TIME_ZONE } from '../db/time-zone.ts';
import type { Bundle } from './bundle.ts';

export { DEFAULT_TIME_ZONE };

/** Used when the configuration names none (the product's market). */
export const DEFAULT_LOCALE = 'pl-PL';
export const DEFAULT_CURRENCY = 'PLN';
/** The day's pattern of a language that names none (the product's market: spec §9). */
export const DEFAULT_DATE_PATTERN = 'DD.MM.YYYY';

export const localeOf = (config: Bundle['config']): string => (typeof config.locale === 'string' ? config.locale : DEFAULT_LOCALE);
export const timeZoneOf = (config: Bundle['config']): string => (typeof config.timeZone === 'string' ? config.timeZone : DEFAULT_TIME_ZONE);
/** How the reader's language writes a day (config.datePattern, set from the language: language-view.ts). */
export const datePatternOf = (config: Bundle['config']): string => (typeof config.datePattern === 'string' ? config.datePattern : DEFAULT_DATE_PATTERN);
/** ISO 4217 code of money amounts (config.currency). */
export const currencyOf = (config: Bundle['config']): string => (typeof config.currency === 'string' ? config.currency : DEFAULT_CURRENCY);
