/**
 * A table shown as a page applies the filter given in its address (routing/filter-param.ts:
 * `?filter=<filter model by entity field>`). Each entry goes where the user can see it: on a column
 * the grid filters with the same kind of filter, into the grid's filter model (the column's filter
 * shows it and clears it); any other entry (a field the table has no column for) is sent beside
 * the column filters, like a preset, and the table names it above the grid with a button that
 * drops it. Pure: no grid, no DOM.
 */
import type { ColDef } from 'ag-grid-community';
import type { FilterModel } from '../../routing/filter-param';
import { CHOICE_FILTER } from './columns';

/** The filter type a column's filter takes (the grid rejects another kind of model). */
function filterTypeOf(filter: ColDef['filter']): string | null {
  switch (filter) {
    case CHOICE_FILTER: return 'set';
    case 'agTextColumnFilter': return 'text';
    case 'agNumberColumnFilter': return 'number';
    case 'agDateColumnFilter': return 'date';
    default: return null;
  }
}

export interface SplitFilter {
  /** By column id: the grid's initial filter model. */
  grid: FilterModel;
  /** By entity field: sent beside the column filters, named above the grid. */
  extra: FilterModel;
}

/** Splits the model between the grid's columns (by the field each shows, with a filter of the entry's kind) and the rest. */
export function splitUrlFilter(model: FilterModel, columns: Pick<ColDef, 'colId' | 'field' | 'filter'>[]): SplitFilter {
  const grid: FilterModel = {};
  const extra: FilterModel = {};
  for (const [field, entry] of Object.entries(model)) {
    const column = columns.find((c) => (c.field ?? c.colId) === field && filterTypeOf(c.filter) === entry.filterType);
    if (column?.colId) grid[column.colId] = entry;
    else extra[field] = entry;
  }
  return { grid, extra };
}

/** The address's model again, by field, with only the grid's entries (the extra ones dropped). */
export function gridOnlyFilter(split: SplitFilter, columns: Pick<ColDef, 'colId' | 'field'>[]): FilterModel {
  return Object.fromEntries(Object.entries(split.grid).map(([colId, entry]) => [columns.find((c) => c.colId === colId)?.field ?? colId, entry]));
}
