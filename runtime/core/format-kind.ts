/**
 * Which format a value is shown in (spec §9), decided from its schema property unless a screen
 * names one. Shared by the runtime (grid, fields, CSV) and the server's Excel export, so a column
 * looks the same on screen and in the file.
 */

/**
 * A quantity's kind names its unit, so every quantity is shown with it (docs/decisions.md):
 * km (odometer), money (zł), litres (fuel levels and fuel quantities), mm (tread depth, one decimal).
 */
export type FormatKind = 'text' | 'date' | 'datetime' | 'number' | 'decimal1' | 'km' | 'money' | 'litres' | 'mm' | 'boolean' | 'tn' | 'phone' | 'year';

const FORMAT_KINDS: ReadonlySet<FormatKind> = new Set(['text', 'date', 'datetime', 'number', 'decimal1', 'km', 'money', 'litres', 'mm', 'boolean', 'tn', 'phone', 'year']);

/** The format a value of this schema property is shown in, unless the screen names one. */
export function formatKindFor(property: Record<string, any> | undefined, explicit?: FormatKind | null): FormatKind {
  if (explicit) return explicit;
  if (!property) return 'text';
  // the entity schema names a quantity's unit once, for every screen that shows the field
  if (typeof property['x-format'] === 'string' && FORMAT_KINDS.has(property['x-format'] as FormatKind)) return property['x-format'] as FormatKind;
  const types = ([] as string[]).concat(property.type ?? []);
  if (property.format === 'date') return 'date';
  if (property.format === 'date-time') return 'datetime';
  if (types.includes('boolean')) return 'boolean';
  if (types.includes('integer') || types.includes('number')) return 'number';
  return 'text';
}

/**
 * The geographic area codes of the Polish numbering plan (UKE): a national number that starts with
 * one is a landline, written 2-3-2-2 (22 500 10 00); mobile and service numbers are written in
 * threes (600 123 456, 800 100 100).
 */
const AREA_CODES = new Set([
  '12', '13', '14', '15', '16', '17', '18', '22', '23', '24', '25', '29', '32', '33', '34', '41', '42', '43', '44', '46', '48',
  '52', '54', '55', '56', '58', '59', '61', '62', '63', '65', '67', '68', '71', '74', '75', '76', '77', '81', '82', '83', '84',
  '85', '86', '87', '89', '91', '94', '95',
]);

/** Up to nine digits of a national number grouped as Poles write it (also while they are typed): a landline 2-3-2-2, else in threes. */
export function groupPhoneDigits(digits: string): string {
  if (digits.length > 2 && AREA_CODES.has(digits.slice(0, 2))) {
    return [digits.slice(0, 2), digits.slice(2, 5), digits.slice(5, 7), digits.slice(7, 9)].filter(Boolean).join(' ');
  }
  return digits.replace(/(\d{3})(?=\d)/g, '$1 ');
}

/** A national phone number of nine digits as Poles write it (a landline 22 500 10 00, a mobile 600 123 456), as the phone input shows it; anything else as stored. */
export function phoneText(value: string): string {
  const digits = value.replace(/\s/g, '');
  return /^\d{9}$/.test(digits) ? groupPhoneDigits(digits) : value;
}
