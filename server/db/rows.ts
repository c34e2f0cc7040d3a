/**
 * Rows leave the server in the shapes their entity schema promises: dates as 'YYYY-MM-DD',
 * date-times as ISO strings, numerics as numbers (drivers return numeric and bigint as text).
 */
import type { JsonSchemaObject as EntitySchema } from '../../runtime/core/json-schema.ts';

/** How one column's value is written out, worked out once per entity schema (every block reads its rows through it). */
type Convert = (value: unknown) => unknown;
const converters = new WeakMap<EntitySchema, Map<string, Convert>>();

function converterOf(entity: EntitySchema, key: string): Convert {
  let perEntity = converters.get(entity);
  if (!perEntity) converters.set(entity, (perEntity = new Map()));
  let convert = perEntity.get(key);
  if (!convert) {
    const schema: EntitySchema = entity.properties?.[key] ?? {};
    const types: (string | undefined)[] = Array.isArray(schema.type) ? schema.type : [schema.type];
    const numeric = types.includes('number') || types.includes('integer');
    const isDate = schema.format === 'date';
    convert = (value) => {
      if (value === null || value === undefined) return null;
      if (value instanceof Date) return isDate ? localDate(value) : value.toISOString();
      if (numeric && typeof value === 'string') return Number(value);
      if (typeof value === 'bigint') return Number(value);
      return value;
    };
    perEntity.set(key, convert);
  }
  return convert;
}

export function normaliseRow(row: Record<string, unknown>, entity: EntitySchema): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key in row) out[key] = converterOf(entity, key)(row[key]);
  return out;
}

/** A DATE read by a driver becomes midnight local time; take the calendar day back from it. */
function localDate(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}
