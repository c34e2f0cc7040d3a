/**
 * The record a table's address names (`?open=`, routing/open-param.ts), read through the table's own
 * endpoint so that the caller's row scope applies. Loaded by TableScreen only when an address
 * names a record: the table's own chunk does not carry it (tools/size-budget.ts).
 */
import type { TablePage } from '../../../core/generated/api';
import { api } from '../../api/client';
import { openFieldOf, openValue, recordFilter } from '../../routing/open-param';

type Row = Record<string, unknown>;

/**
 * The row to run the table's row action on: the record as the table lists it, or, when the table
 * does not list it for this caller (or cannot be asked), a row holding only its id — the dialog
 * then asks the server for it and shows the server's answer (404: not found).
 */
export async function findRecord(resource: string, entity: unknown, action: Parameters<typeof openFieldOf>[0], text: string): Promise<Row | null> {
  const field = openFieldOf(action);
  const fieldSchema = (entity as { properties?: Record<string, unknown> } | undefined)?.properties?.[field];
  const value = openValue(text, fieldSchema);
  if (value === null) return null;
  try {
    const page = await api.post<TablePage>(`/${resource}/table2`, { startRow: 0, endRow: 1, sortModel: [], filterModel: recordFilter(field, value) }, { quiet: true, reads: true });
    if (page.rows[0]) return page.rows[0] as Row;
  } catch {
    // a table that cannot filter on the field: the dialog asks for the record by its id
  }
  return { [field]: value };
}
