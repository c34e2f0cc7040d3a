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

export const localeOf = (config: Bundle['config']): string => (typeof config.locale === 'string' ? config.locale : DEFAULT_LOCALE);
export const timeZoneOf = (config: Bundle['config']): string => (typeof config.timeZone === 'string' ? config.timeZone : DEFAULT_TIME_ZONE);
/** ISO 4217 code of money amounts (config.currency). */
export const currencyOf = (config: Bundle['config']): string => (typeof config.currency === 'string' ? config.currency : DEFAULT_CURRENCY);
