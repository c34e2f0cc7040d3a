/**
 * ag-grid column definitions of a table screen: header texts, visibility, widths, pinning, the
 * filter chosen from the entity schema property, and the value format. Pure (no grid, no DOM).
 */
import type { ColDef } from 'ag-grid-community';
import type { ConditionContext, ConditionEvaluator } from '../../../core/conditions';
import { fieldLabelKey } from '../../../core/labels';
import type { JsonSchema, TableScreenDecl } from '../../config/types';
import { formatKindFor, formatValue, type Translate } from '../../format';

const NUMERIC_KINDS = new Set(['number', 'km', 'money']);

/** The server-side filter for a property: by its type and format (x-filter: false = none). */
export function filterFor(property: JsonSchema | undefined): string | false {
  if (!property || property['x-filter'] === false) return false;
  if (property.format === 'date' || property.format === 'date-time') return 'agDateColumnFilter';
  const types = ([] as string[]).concat(property.type ?? []);
  if (types.includes('integer') || types.includes('number')) return 'agNumberColumnFilter';
  return 'agTextColumnFilter';
}

export function buildColumnDefs(
  screen: TableScreenDecl,
  entity: JsonSchema | undefined,
  t: Translate,
  ev: ConditionEvaluator,
  ctx: ConditionContext,
): ColDef[] {
  return screen.columns
    .filter((column) => ev.isVisible(column, ctx))
    .map((column) => {
      const property = entity?.properties?.[column.id] as JsonSchema | undefined;
      const kind = formatKindFor(property, column.format);
      const serverSide = property?.['x-filter'] !== false;
      const filter = serverSide && column.filterable !== false ? filterFor(property) : false;
      const def: ColDef = {
        colId: column.id,
        field: column.id,
        headerName: t(column.header ?? fieldLabelKey(screen.entity, column.id)),
        hide: column.hide ?? false,
        sortable: serverSide && column.sortable !== false,
        filter,
        // tables show an empty cell for an empty value; the dash is for read-only detail fields
        valueFormatter: (p) => formatValue(p.value, kind, t, '', column.valueLabels),
      };
      if (filter) def.filterParams = { maxNumConditions: 1, buttons: ['reset'] };
      if (column.width) def.width = column.width;
      if (column.pinned) def.pinned = column.pinned;
      if (NUMERIC_KINDS.has(kind)) def.type = 'rightAligned';
      return def;
    });
}
