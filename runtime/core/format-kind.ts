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

/** A phone number of nine digits in threes (600 123 456), as the phone input shows it; anything else as stored. */
export function phoneText(value: string): string {
  const digits = value.replace(/\s/g, '');
  return /^\d{9}$/.test(digits) ? digits.replace(/(\d{3})(?=\d)/g, '$1 ') : value;
}
