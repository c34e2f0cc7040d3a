/**
 * The change between two versions of a record, field by field, over the fields an entity schema
 * (or a form) declares: only fields whose value differs are kept. A created record has no before
 * (null), a deleted one no after. Values compare by their JSON, so a Date read back and an ISO
 * string of the same instant are equal, and so are two equal JSON arrays.
 */
import type { Changes } from './record.ts';

type Row = Record<string, unknown> | null | undefined;

const json = (v: unknown) => JSON.stringify(v instanceof Date ? v.toISOString() : v ?? null);
const value = (v: unknown) => (v instanceof Date ? v.toISOString() : v ?? null);

export function diffRows(before: Row, after: Row, fields: readonly string[]): Changes {
  const changes: Changes = {};
  for (const field of fields) {
    const a = before ? before[field] : null;
    const b = after ? after[field] : null;
    if (json(a) !== json(b)) changes[field] = [value(a), value(b)];
  }
  return changes;
}

/** The fields an entity schema declares (its `properties`), for diffRows. */
export function entityFields(schema: unknown): string[] {
  const props = (schema as { properties?: Record<string, unknown> } | undefined)?.properties;
  return props ? Object.keys(props) : [];
}
