/**
 * Which format a value is shown in (spec §9), decided from its schema property unless a screen
 * names one. Shared by the runtime (grid, fields, CSV) and the server's Excel export, so a column
 * looks the same on screen and in the file.
 */

export type FormatKind = 'text' | 'date' | 'datetime' | 'number' | 'decimal1' | 'km' | 'money' | 'boolean' | 'tn';

/** The format a value of this schema property is shown in, unless the screen names one. */
export function formatKindFor(property: Record<string, any> | undefined, explicit?: FormatKind | null): FormatKind {
  if (explicit) return explicit;
  if (!property) return 'text';
  const types = ([] as string[]).concat(property.type ?? []);
  if (property.format === 'date') return 'date';
  if (property.format === 'date-time') return 'datetime';
  if (types.includes('boolean')) return 'boolean';
  if (types.includes('integer') || types.includes('number')) return 'number';
  return 'text';
}
