/**
 * The facts a confirmation lists under its question (`confirmFacts` of a call action: the order's
 * number, vehicle, type and value), each a field of the record with its label, formatted as every
 * screen formats values (format.ts). Pure: the question's dialog only draws them.
 */
import type { FormatKind } from '../config/bundle';
import { formatValue, type Translate } from '../format';

export interface FactDecl {
  id: string;
  label: string;
  format?: FormatKind;
  valueLabels?: string;
  fallbackField?: string;
  append?: string[];
  emptyText?: string;
}

export interface Fact {
  label: string;
  value: string;
}

type Row = Record<string, unknown> | null | undefined;

const blank = (v: unknown) => v === null || v === undefined || (typeof v === 'string' && v.trim() === '');

/** The value at a field or a dot path (totals.total) of the record. */
export function valueAt(row: Row, path: string): unknown {
  let value: unknown = row;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/** Each declared fact as label and text; an empty one says what its emptiness means (or the empty mark). */
export function factsOf(decls: readonly FactDecl[] | undefined, row: Row, t: Translate): Fact[] {
  return (decls ?? []).map((d) => {
    let value = valueAt(row, d.id);
    if (blank(value) && d.fallbackField) value = valueAt(row, d.fallbackField);
    const empty = d.emptyText ? t(d.emptyText) : undefined;
    let text = formatValue(blank(value) ? null : value, d.format ?? 'text', t, empty, d.valueLabels);
    if (!blank(value)) {
      const extra = (d.append ?? []).map((f) => valueAt(row, f)).filter((v) => !blank(v)).map(String);
      if (extra.length) text = [text, ...extra].join(' ');
    }
    return { label: t(d.label), value: text };
  });
}
