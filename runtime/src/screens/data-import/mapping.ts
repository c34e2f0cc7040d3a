/**
 * The column mapping of an import (step 3), as pure functions: the mapping a file starts with
 * (the remembered one for the columns it knows, else the server's suggestion by header and
 * aliases), and what stops the user going on (a required field with no column, a field given
 * two columns). The server checks the same again; this only says it before a run is sent.
 */
import type { FilePreview } from './import-api';

/** What the mapping needs of a field. */
interface FieldLike {
  name: string;
  required: boolean;
}

export type Mapping = Record<string, string | null>;

/** For each column of the file: the remembered field (even "skipped"), else the suggested one, else none. */
export function initialMapping(preview: Pick<FilePreview, 'columns' | 'suggested'>, remembered: Mapping | null | undefined, fields: readonly FieldLike[]): Mapping {
  const known = new Set(fields.map((f) => f.name));
  const out: Mapping = {};
  for (const column of preview.columns) {
    const chosen = remembered && Object.hasOwn(remembered, column) ? remembered[column] : preview.suggested[column];
    out[column] = chosen && known.has(chosen) ? chosen : null;
  }
  return out;
}

/** Required fields no column is mapped to, in the declaration's order. */
export function unmappedRequired<F extends FieldLike>(mapping: Mapping, fields: readonly F[]): F[] {
  const mapped = new Set(Object.values(mapping).filter(Boolean));
  return fields.filter((f) => f.required && !mapped.has(f.name));
}

/** Fields mapped from more than one column, with those columns. */
export function duplicateFields(mapping: Mapping): { field: string; columns: string[] }[] {
  const byField = new Map<string, string[]>();
  for (const [column, field] of Object.entries(mapping)) if (field) byField.set(field, [...(byField.get(field) ?? []), column]);
  return [...byField].filter(([, columns]) => columns.length > 1).map(([field, columns]) => ({ field, columns }));
}

/** The sample values of one column (distinct, non-empty, at most `limit`). */
export function sampleOf(preview: Pick<FilePreview, 'columns' | 'sample'>, column: string, limit = 3): string[] {
  const i = preview.columns.indexOf(column);
  const values = preview.sample.map((row) => (row[i] ?? '').trim()).filter(Boolean);
  return [...new Set(values)].slice(0, limit);
}
