/**
 * Rows leave the server in the shapes their entity schema promises: dates as 'YYYY-MM-DD',
 * date-times as ISO strings, numerics as numbers (drivers return numeric and bigint as text).
 */
export function normaliseRow(row: Record<string, unknown>, entity: Record<string, any>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(row)) {
    const schema = entity.properties?.[key] ?? {};
    const types: string[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    if (value === null || value === undefined) out[key] = null;
    else if (value instanceof Date) out[key] = schema.format === 'date' ? localDate(value) : value.toISOString();
    else if ((types.includes('number') || types.includes('integer')) && typeof value === 'string') out[key] = Number(value);
    else if (typeof value === 'bigint') out[key] = Number(value);
    else out[key] = value;
  }
  return out;
}

/** A DATE read by a driver becomes midnight local time; take the calendar day back from it. */
function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
