/**
 * ag-grid column definitions of a table screen: header texts, visibility, widths, pinning, the
 * filter chosen from the entity schema property, the value format, the declared cell renderer and
 * highlight. Pure (no grid, no DOM): renderers and the choice filters are referred to by the names
 * under which TableScreen registers them (`cells/registry.ts`, `CHOICE_FILTER`, `OPTIONS_FILTER`).
 */
import type { ColDef } from 'ag-grid-community';
import type { ConditionContext, ConditionEvaluator } from '../../../core/conditions';
import { fieldLabelKey } from '../../../core/labels';
import type { ColumnDecl, FormatKind, JsonSchema, TableScreenDecl } from '../../config/bundle';
import { formatKindFor, formatValue, type Translate } from '../../format';
import { cellRendererName } from './cells/names';

const NUMERIC_KINDS = new Set(['number', 'decimal1', 'km', 'money', 'litres', 'mm', 'year']);

/** Width of a text in pixels as the grid draws it (a header in bold, a cell in the regular weight). */
export type MeasureText = (text: string, kind: 'header' | 'cell') => number;

/** Without a DOM (tests, the server): an average glyph of a 14 px sans-serif, a bold one wider. */
export const estimateText: MeasureText = (text, kind) => Math.ceil(text.length * (kind === 'header' ? 8.6 : 8));

/** Room a header needs beside its text: the cell's padding, the filter button and the sort arrow. */
const HEADER_CHROME = 2 * 16 + 26 + 22;
/** Room a cell needs beside its text: the cell's padding. */
const CELL_CHROME = 2 * 16 + 4;
/** The grid's own floor and default width. */
const FLOOR_WIDTH = 70;
const DEFAULT_WIDTH = 200;
/** Values up to this many characters (a plate, a VIN, a date) are identifiers a column shows whole. */
const SHORT_VALUE = 24;

/** A sample of a value's typical width: digits and capitals of an identifier are wider than an average glyph. */
const sample = (length: number) => 'W0'.repeat(Math.ceil(length / 2)).slice(0, length);

/** Characters a formatted value of this kind takes (dates, money, kilometres). */
const KIND_LENGTH: Partial<Record<FormatKind, number>> = { date: 10, datetime: 16, money: 13, km: 10, litres: 6, mm: 6, decimal1: 5 };

/**
 * A column's sizes: the minimum fits the longest word of its header (headers wrap only between
 * words) and its typical value — the schema's maxLength of a short identifier (a VIN is 17), the
 * longest short label of a coded value (a sentence-long one is cut, with its tooltip), the length
 * of a formatted date or amount — or the screen's
 * declared minWidth; the initial width is the declared width, never below the minimum.
 */
export function columnSizes(
  column: ColumnDecl,
  header: string,
  property: JsonSchema | undefined,
  labels: readonly string[],
  measure: MeasureText,
  hasFilter: boolean,
): { minWidth: number; width: number } {
  const longestWord = header.split(/\s+/).reduce((w, word) => Math.max(w, measure(word, 'header')), 0);
  const headerMin = longestWord + HEADER_CHROME - (hasFilter ? 0 : 26);
  let contentMin = 0;
  if (!column.cell) {
    const kind = formatKindFor(property, column.format);
    const maxLength = typeof property?.maxLength === 'number' ? property.maxLength : undefined;
    // a label of a sentence's length (a failure's reason) is cut, its tooltip whole; the codes' short labels are not
    const short = labels.filter((l) => l.length <= SHORT_VALUE);
    if (short.length) contentMin = Math.max(...short.map((l) => measure(l, 'cell'))) + CELL_CHROME;
    else if (maxLength && maxLength <= SHORT_VALUE && kind === 'text') contentMin = measure(sample(maxLength), 'cell') + CELL_CHROME;
    else if (KIND_LENGTH[kind]) contentMin = measure(sample(KIND_LENGTH[kind]!).replace(/W/g, '0'), 'cell') + CELL_CHROME;
  }
  const minWidth = Math.ceil(Math.max(FLOOR_WIDTH, headerMin, contentMin, column.minWidth ?? 0));
  return { minWidth, width: Math.max(column.width ?? DEFAULT_WIDTH, minWidth) };
}

/** Registered name of the choice-list filter (ChoiceFilter.tsx). */
export const CHOICE_FILTER = 'choiceFilter';

/** Registered name of the filter whose choices the server lists (OptionsFilter.tsx). */
export const OPTIONS_FILTER = 'optionsFilter';

/** The entity field a column shows (a column may show another field than its id). */
export const fieldOf = (column: Pick<ColumnDecl, 'id' | 'field'>) => column.field ?? column.id;

/**
 * The entity field a column's filter applies to: its declared options filter's `field` (Dziennik
 * zmian's "Kto" shows the login and filters by the person's id), else the field it shows.
 */
export const filterFieldOf = (column: Pick<ColumnDecl, 'id' | 'field' | 'filter'>) =>
  typeof column.filter === 'object' ? column.filter.field : fieldOf(column);

/** What the options filter is given: where its choices come from and its search box's hint. */
export interface OptionsFilterParams {
  options: string;
  placeholder: string;
}

/** One entry of a choice filter: the value sent to the server and the label the user reads. */
export interface Choice {
  value: string | number | boolean;
  label: string;
}

/** The server-side filter for a property: by its type and format (x-filter: false = none). */
export function filterFor(property: JsonSchema | undefined): string | false {
  if (!property || property['x-filter'] === false) return false;
  if (property.format === 'date' || property.format === 'date-time') return 'agDateColumnFilter';
  const types = ([] as string[]).concat(property.type ?? []);
  if (types.includes('integer') || types.includes('number')) return 'agNumberColumnFilter';
  return 'agTextColumnFilter';
}

/**
 * The values a coded column can hold, with their labels, or undefined when the column is not
 * coded: an enumeration in the schema (roles, order statuses and types), or yes/no.
 */
export function choicesFor(column: ColumnDecl, property: JsonSchema | undefined, t: Translate): Choice[] | undefined {
  if (!property) return undefined;
  const types = ([] as string[]).concat(property.type ?? []);
  let values: (string | number | boolean)[] | undefined;
  if (Array.isArray(property.enum)) values = (property.enum as unknown[]).filter((v): v is string | number | boolean => v !== null && v !== undefined);
  else if (types.includes('boolean')) values = [true, false];
  if (!values) return undefined;
  return values.map((value) => ({ value, label: choiceLabel(column, value, t) }));
}

function choiceLabel(column: ColumnDecl, value: string | number | boolean, t: Translate): string {
  if (column.valueLabels) return t(`${column.valueLabels}.${String(value)}`);
  const icon = column.cell?.type === 'icon' ? column.cell.icons[String(value)] : undefined;
  if (icon) return t(icon.label);
  if (typeof value === 'boolean') return t(value ? 'app:yes' : 'app:no');
  if (column.format === 'tn' && (value === 'T' || value === 'N')) return t(value === 'T' ? 'app:yes' : 'app:no');
  return String(value);
}

/**
 * The text a cell shows for a value: an icon column its icon's meaning (what tooltips, copying and
 * the CSV export read), any other column its formatted value; an empty value stays empty. The grid
 * and the CSV export both use it, so a file shows exactly what the table does.
 */
export function cellTextFor(column: ColumnDecl, property: JsonSchema | undefined, t: Translate): (value: unknown) => string {
  const kind = formatKindFor(property, column.format);
  const icons = column.cell?.type === 'icon' ? column.cell.icons : undefined;
  if (icons) return (value) => (icons[String(value)] ? t(icons[String(value)].label) : '');
  const empty = column.emptyText ? t(column.emptyText) : '';
  return (value) => formatValue(value, kind, t, empty, column.valueLabels);
}

/** One visible column as the Excel export needs it: its field, its header as shown, its format and its value labels. */
export interface ExportColumnSpec {
  field: string;
  header: string;
  format: FormatKind;
  /** Value (as text) → label, for a coded or yes/no column; null when values are shown as they are. */
  labels: Record<string, string> | null;
}

export function exportColumnOf(column: ColumnDecl, property: JsonSchema | undefined, header: string, t: Translate): ExportColumnSpec {
  const choices = choicesFor(column, property, t);
  let labels: Record<string, string> | null = null;
  if (choices) labels = Object.fromEntries(choices.map((c) => [String(c.value), c.label]));
  else if (column.valueLabels) {
    // codes the schema does not enumerate (e.g. document groups): every label under the prefix
    const all = (t as (key: string, vars: Record<string, unknown>) => unknown)(column.valueLabels, { returnObjects: true });
    if (all && typeof all === 'object') labels = Object.fromEntries(Object.entries(all).filter(([, v]) => typeof v === 'string')) as Record<string, string>;
  }
  return { field: fieldOf(column), header, format: formatKindFor(property, column.format), labels };
}

export function buildColumnDefs(
  screen: TableScreenDecl,
  entity: JsonSchema | undefined,
  t: Translate,
  ev: ConditionEvaluator,
  ctx: ConditionContext,
  measure: MeasureText = estimateText,
): ColDef[] {
  return screen.columns
    .filter((column) => ev.isVisible(column, ctx))
    .map((column) => {
      const field = fieldOf(column);
      const property = entity?.properties?.[field] as JsonSchema | undefined;
      const kind = formatKindFor(property, column.format);
      const text = cellTextFor(column, property, t);
      const serverSide = property?.['x-filter'] !== false;
      const choices = choicesFor(column, property, t);
      const declared = typeof column.filter === 'object' ? column.filter : undefined;
      const wantsChoice = column.filter !== 'plain' && choices !== undefined;
      const filter = serverSide && column.filterable !== false ? (declared ? OPTIONS_FILTER : wantsChoice ? CHOICE_FILTER : filterFor(property)) : false;
      const icons = column.cell?.type === 'icon' ? column.cell.icons : undefined;
      const headerName = t(column.header ?? fieldLabelKey(screen.entity, field));
      const sizes = columnSizes(column, headerName, property, Object.values(exportColumnOf(column, property, headerName, t).labels ?? {}), measure, Boolean(filter));
      const def: ColDef = {
        colId: column.id,
        field,
        headerName,
        minWidth: sizes.minWidth,
        initialWidth: sizes.width,
        // initial*: the declared layout applies when a column first appears; afterwards the user's
        // layout (kept state, a saved view) wins even when the definitions are rebuilt
        initialHide: column.hide ?? false,
        sortable: serverSide && column.sortable !== false,
        filter,
        // tables show an empty cell for an empty value; the dash is for read-only detail fields.
        // An icon column's value reads as the icon's meaning (copy, tooltips, exports).
        valueFormatter: (p) => text(p.value),
      };
      if (column.headerTooltip) def.headerTooltip = t(column.headerTooltip);
      if (declared) def.filterParams = { options: declared.options, placeholder: t(declared.placeholder ?? 'table:optionsFilter.search') } satisfies OptionsFilterParams;
      else if (filter === CHOICE_FILTER) def.filterParams = { choices };
      else if (filter) def.filterParams = { maxNumConditions: 1, buttons: ['reset'] };
      if (column.cell) {
        def.cellRenderer = cellRendererName(column.cell.type);
        def.cellRendererParams =
          column.cell.type === 'files'
            ? // texts name the row's fields, so the renderer translates them per row
              { files: column.cell }
            : column.cell.type === 'link'
              ? { hrefField: column.cell.hrefField }
              : {
                icons: Object.fromEntries(
                  Object.entries(icons ?? {}).map(([value, icon]) => [value, { icon: icon.icon, text: icon.text && t(icon.text), label: t(icon.label), tone: icon.tone }]),
                ),
              };
      }
      if (column.highlight) {
        const { when, tone = 'success' } = column.highlight;
        def.cellClassRules = { [`cell-highlight cell-highlight-${tone}`]: (p) => Boolean(p.data) && ev.matches(when, { ...ctx, record: p.data }) };
      }
      // a cell cut short shows its whole text on hover (the grid shows the tooltip only then);
      // a screen reader reads the cell's whole text, which is in the DOM
      if (!column.cell || column.cell.type === 'link') def.tooltipValueGetter = (p) => text(p.value) || undefined;
      if (column.pinned) def.initialPinned = column.pinned;
      if (NUMERIC_KINDS.has(kind) && !column.cell && !column.valueLabels) def.type = 'rightAligned';
      return def;
    });
}
