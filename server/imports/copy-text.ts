/** COPY's text format (PostgreSQL), as the staging of an import run writes it. */

/** A value as a COPY text field: backslash, tab and line breaks escaped, null as \N. */
export function copyField(value: string | null): string {
  if (value === null) return '\\N';
  return value.replace(/\\/g, '\\\\').replace(/\t/g, '\\t').replace(/\n/g, '\\n').replace(/\r/g, '\\r');
}
