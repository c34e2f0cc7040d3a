/**
 * A table's address may name one of its records: `/app/order?open=123` opens that record's
 * details, as a click on its row would (the bell's notifications and the links of e-mails lead
 * there). The value is that of the field the table's row action opens its dialog with (its
 * `idField`; for a `choose`, that of its first case). The table reads its row first, so that the
 * row action decides as for a click (a damage row opens another dialog than an order row); a
 * record the caller may not see is opened by its id alone, and the dialog shows the server's 404.
 * The parameter's name is filter-param.ts's OPEN_PARAM; the table loads what finds the row
 * (screens/table/open-record.ts) only when an address names one.
 */
import type { FilterModel } from './filter-param';

interface ActionLike {
  kind: string;
  idField?: string;
  cases?: { action: ActionLike }[];
}

/** The field a row action opens its dialog with: its idField, a choose's first case's, or `id`. */
export function openFieldOf(action: ActionLike): string {
  if (action.idField) return action.idField;
  const first = action.cases?.[0]?.action;
  return first ? openFieldOf(first) : 'id';
}

const isNumeric = (schema: unknown) => {
  const type = (schema as { type?: unknown } | undefined)?.type;
  return [type].flat().some((t) => t === 'integer' || t === 'number');
};

/** The value as the field holds it: a number for a numeric field (null when the text is not one), else the text. */
export function openValue(value: string, fieldSchema: unknown): string | number | null {
  if (!isNumeric(fieldSchema)) return value;
  const n = Number(value);
  return value.trim() !== '' && Number.isFinite(n) ? n : null;
}

/** The filter model (by entity field) that finds the one record: equals on the field. */
export function recordFilter(field: string, value: string | number): FilterModel {
  return { [field]: typeof value === 'number' ? { filterType: 'number', type: 'equals', filter: value } : { filterType: 'text', type: 'equals', filter: value } };
}
