/**
 * Saved filters and views of a table (spec §3 "Saved table settings"): the calls of spec §7 and the
 * pure translation between a saved view (the visible column ids in order) and the grid's column
 * state. Kept on the server per user, so they follow the user to another browser.
 */
import type { ColumnState } from 'ag-grid-community';
import { api } from '../../api/client';
import type { SavedTableFilter, SavedTableView, UserTableSettings } from '../../../core/generated/api';

/** The shapes of the answers (schemas/api saved-table-filter, saved-table-view, user-table-settings; `npm run gen`). */
export type SavedFilter = SavedTableFilter;
export type SavedView = SavedTableView;
export type SavedSettings = UserTableSettings;

export const savedSettingsApi = {
  load: (tableName: string) => api.get<SavedSettings>(`/user-table-view/${encodeURIComponent(tableName)}`),
  saveFilter: (tablename: string, name: string, filterModel: Record<string, unknown>) =>
    api.post<SavedFilter>('/user-table-filter', { name, tablename, filterModel }),
  saveView: (tablename: string, name: string, columnorder: string[]) => api.post<SavedView>('/user-table-view', { name, tablename, columnorder }),
  deleteFilter: (id: number) => api.delete(`/user-table-filter?id=${id}`),
  deleteView: (id: number) => api.delete(`/user-table-view?id=${id}`),
};

/** The view to save: the visible columns, in the order the user sees them. */
export function viewOfColumnState(state: ColumnState[]): string[] {
  return state.filter((c) => !c.hide).map((c) => c.colId);
}

/**
 * The column state that shows a saved view: its columns visible, in its order, before every
 * other column, which is hidden. Ids the table no longer has are skipped.
 */
export function columnStateOfView(columnOrder: string[], current: ColumnState[]): ColumnState[] {
  const known = new Set(current.map((c) => c.colId));
  const shown = columnOrder.filter((id) => known.has(id));
  const shownSet = new Set(shown);
  return [...shown.map((colId) => ({ colId, hide: false })), ...current.filter((c) => !shownSet.has(c.colId)).map((c) => ({ colId: c.colId, hide: true }))];
}
