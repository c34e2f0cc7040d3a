/**
 * ag-grid infinite-row-model requests → kysely query parts, for the generic table resources
 * (DESIGN.md §3). The route layer owns the SELECT; this module only supplies its WHERE
 * (`filterExpression`), its ORDER BY (`applySort`) and its OFFSET/LIMIT (`blockWindow`).
 *
 * Safety rules (the reason this module exists):
 * - A column reaches SQL only as an identifier (`eb.ref` / `sql.ref`) of a name looked up in the
 *   `Columns` map built from the resource's entity schema; names from the request are map keys
 *   and nothing else. `columnsFromSchema` refuses names that are not plain identifiers (a dot
 *   would make kysely read `a.b` as table.column).
 * - Every value is a bound parameter, cast to the column's family (`numeric`, `date`,
 *   `timestamp`, `boolean`, `text[]`); the only SQL text written here is fixed.
 * - Anything the module does not understand is refused with a `TableQueryError` naming the
 *   column id (the route turns it into a 400); nothing is silently dropped.
 *
 * Behaviour (mirrors ag-grid's own client-side defaults unless stated):
 * - Text filters are case-insensitive (`ILIKE`, `\` as the LIKE escape, so `%`, `_` and `\` in
 *   the value are literal). `notEqual` and `notContains` keep blank rows, as ag-grid's text filter
 *   does; number and date `notEqual` drop them (plain SQL comparison, ag-grid's default too).
 * - Blank = NULL, and for text also the empty string. notBlank is the exact complement.
 * - `inRange` is inclusive at both ends, for numbers and dates (ag-grid: `inRangeInclusive`).
 * - Dates compare calendar days. `dateFrom`/`dateTo` may carry a time ('YYYY-MM-DD HH:mm:ss',
 *   ag-grid's default format, or with `T`); it is validated and ignored. On a datetime column a
 *   day is [00:00, next day 00:00) in the database session's TimeZone, so `equals` means the
 *   same calendar day, `greaterThan` means from the next day on, `lessThan` before that day.
 * - Set filters (text, boolean and number columns) match exactly (case-sensitive); a `null` item
 *   selects the blank rows; an empty list matches nothing; a text list of one value is `=`.
 * - Sorting: NULLS LAST ascending, NULLS FIRST descending (PostgreSQL's default, written out so
 *   the order stays the same on any backend and a plain btree index serves it), then the key
 *   column in the direction of the last sort column, so that consecutive blocks neither repeat
 *   nor skip rows and one (column, key) index serves both directions.
 */
import { sql, type Expression, type SelectQueryBuilder, type SqlBool } from 'kysely';
import type { ConfiguredBuilder } from './configured-tables.ts';

export type ColumnKind = 'text' | 'number' | 'date' | 'datetime' | 'boolean';
export interface ColumnInfo {
  name: string;
  kind: ColumnKind;
  /**
   * The column that orders this one (`"x-sortBy"` in the entity schema): a label joined from
   * another table (an order's status text) sorts by the code it names (the status), which the
   * list's indexes serve; the label itself could only be sorted by reading every row.
   */
  sortBy?: string;
  /**
   * The column as its reader sees it, when that is not the stored value: an expression of the row
   * given per request (Dziennik zmian's "Zmienione pola" by the reader's language's labels,
   * server/audit/record-names.ts). A text filter compares it and a sort orders by it, so the list
   * is filtered and ordered by the words on the screen. Built by the server, never from the request.
   */
  shownValue?: Expression<string | null>;
}
export type Columns = ReadonlyMap<string, ColumnInfo>;

export type TableQueryErrorCode = 'unknownColumn' | 'unsupportedFilter' | 'badFilterValue' | 'badRange' | 'badCursor';

/** A request the table resource refuses (→ HTTP 400). `field` is the column id (or `startRow`/`endRow`, `filterModel`/`sortModel` for a malformed whole model, `cursor` for a cursor the server did not issue). */
export class TableQueryError extends Error {
  constructor(
    public code: TableQueryErrorCode,
    public field: string,
  ) {
    super(`${code}: ${JSON.stringify(field)}`);
    this.name = 'TableQueryError';
  }
}

// ---------------------------------------------------------------------------------------------
// Columns

/** Names that may become a quoted identifier: letters, digits, underscore; no dot, no quote, no space. */
const IDENTIFIER = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/**
 * From an entity JSON Schema: type string → text; number/integer → number; string with format
 * date → date, date-time → datetime; boolean → boolean; nullable via type arrays
 * ["string","null"] (or an anyOf/oneOf with a {"type":"null"} branch). Properties flagged
 * "x-filter": false, and properties of any other shape (object, array, untyped), are not
 * filterable/sortable and are left out. "x-sortBy": "<property>" sorts a column by another one.
 */
export function columnsFromSchema(schema: object): Columns {
  const columns = new Map<string, ColumnInfo>();
  const properties = (schema as { properties?: unknown }).properties;
  if (!isPlainObject(properties)) return columns;
  for (const name of Object.keys(properties)) {
    const property = properties[name];
    if (!isPlainObject(property) || property['x-filter'] === false) continue;
    const kind = kindOf(property);
    if (!kind) continue;
    if (!IDENTIFIER.test(name)) {
      throw new Error(`table-query: property ${JSON.stringify(name)} is not a plain identifier and cannot be a view column`);
    }
    const sortBy = property['x-sortBy'];
    columns.set(name, { name, kind, ...(typeof sortBy === 'string' ? { sortBy } : {}) });
  }
  for (const column of columns.values()) {
    if (column.sortBy !== undefined && !columns.has(column.sortBy)) {
      throw new Error(`table-query: "x-sortBy" of ${JSON.stringify(column.name)} names ${JSON.stringify(column.sortBy)}, which is not a column`);
    }
  }
  return columns;
}

function kindOf(property: Record<string, unknown>): ColumnKind | undefined {
  const types = (Array.isArray(property.type) ? property.type : [property.type]).filter((t) => t !== 'null' && t !== undefined);
  if (types.length === 0) {
    // {"anyOf": [{"type": "string", "format": "date"}, {"type": "null"}]}
    const branches = property.anyOf ?? property.oneOf;
    if (!Array.isArray(branches)) return undefined;
    const typed = branches.filter((b) => isPlainObject(b) && b.type !== 'null');
    return typed.length === 1 ? kindOf(typed[0] as Record<string, unknown>) : undefined;
  }
  if (types.every((t) => t === 'number' || t === 'integer')) return 'number';
  if (types.length !== 1) return undefined;
  switch (types[0]) {
    case 'string':
      return property.format === 'date' ? 'date' : property.format === 'date-time' ? 'datetime' : 'text';
    case 'boolean':
      return 'boolean';
    default:
      return undefined;
  }
}

// ---------------------------------------------------------------------------------------------
// Filters

type EB = ConfiguredBuilder;
type Bool = Expression<SqlBool>;
type Condition = Record<string, unknown>;

const TEXT_TYPES = new Set(['contains', 'notContains', 'equals', 'notEqual', 'startsWith', 'endsWith', 'blank', 'notBlank']);
const NUMBER_TYPES = new Set(['equals', 'notEqual', 'greaterThan', 'greaterThanOrEqual', 'lessThan', 'lessThanOrEqual', 'inRange', 'blank', 'notBlank']);
const DATE_TYPES = NUMBER_TYPES; // same operators; date presets (today, last7Days …) are not supported
const BOOLEAN_TEXT_TYPES = new Set(['equals', 'notEqual', 'blank', 'notBlank']);
/** ag-grid shows 2 conditions by default (maxNumConditions); a few more are fine, thousands are not a filter. */
const MAX_CONDITIONS = 10;

/** A WHERE expression for the filter model (AND across columns); undefined when the model is empty. */
export function filterExpression(eb: ConfiguredBuilder, columns: Columns, filterModel: unknown): Expression<SqlBool> | undefined {
  if (filterModel === undefined || filterModel === null) return undefined;
  if (!isPlainObject(filterModel)) throw new TableQueryError('badFilterValue', 'filterModel');
  const parts: Bool[] = [];
  for (const colId of Object.keys(filterModel)) {
    const column = columns.get(colId);
    if (!column) throw new TableQueryError('unknownColumn', colId);
    const model = filterModel[colId];
    if (model === null || model === undefined) continue; // ag-grid: no filter on that column
    if (!isPlainObject(model)) throw new TableQueryError('badFilterValue', colId);
    parts.push(columnFilter(eb, column, colId, model));
  }
  if (parts.length === 0) return undefined;
  return parts.length === 1 ? parts[0] : eb.and(parts);
}

function columnFilter(eb: EB, column: ColumnInfo, colId: string, model: Condition): Bool {
  const filterType = model.filterType;
  if (!('operator' in model || 'conditions' in model || 'condition1' in model)) {
    return condition(eb, column, colId, filterType, model);
  }
  // Combined model: {filterType, operator, conditions: [...]} or legacy {condition1, condition2}.
  const operator = model.operator;
  if (operator !== 'AND' && operator !== 'OR') throw new TableQueryError('unsupportedFilter', colId);
  let conditions: unknown[];
  if (model.conditions !== undefined) {
    if (!Array.isArray(model.conditions)) throw new TableQueryError('badFilterValue', colId);
    conditions = model.conditions;
  } else {
    conditions = [model.condition1, model.condition2].filter((c) => c !== undefined && c !== null);
  }
  if (conditions.length === 0 || conditions.length > MAX_CONDITIONS) throw new TableQueryError('badFilterValue', colId);
  const parts = conditions.map((c) => {
    if (!isPlainObject(c)) throw new TableQueryError('badFilterValue', colId);
    if ('operator' in c || 'conditions' in c || 'condition1' in c) throw new TableQueryError('unsupportedFilter', colId);
    const type = c.filterType ?? filterType;
    if (filterType !== undefined && type !== filterType) throw new TableQueryError('unsupportedFilter', colId);
    if (type === 'set') throw new TableQueryError('unsupportedFilter', colId); // set filters do not combine
    return condition(eb, column, colId, type, c);
  });
  return operator === 'AND' ? eb.and(parts) : eb.or(parts);
}

function condition(eb: EB, column: ColumnInfo, colId: string, filterType: unknown, c: Condition): Bool {
  switch (filterType) {
    case 'text':
      if (column.kind === 'text') return textCondition(eb, column, colId, c);
      if (column.kind === 'boolean') return booleanTextCondition(eb, column, colId, c);
      break;
    case 'number':
      if (column.kind === 'number') return numberCondition(eb, column, colId, c);
      break;
    case 'date':
      if (column.kind === 'date' || column.kind === 'datetime') return dateCondition(eb, column, colId, c);
      break;
    case 'set':
      if (column.kind === 'text') return textSetCondition(eb, column, colId, c);
      if (column.kind === 'boolean') return booleanSetCondition(eb, column, colId, c);
      if (column.kind === 'number') return numberSetCondition(eb, column, colId, c);
      break;
  }
  throw new TableQueryError('unsupportedFilter', colId);
}

function typeOf(c: Condition, allowed: Set<string>, colId: string): string {
  const type = c.type;
  if (typeof type !== 'string' || !allowed.has(type)) throw new TableQueryError('unsupportedFilter', colId);
  return type;
}

function blankness(eb: EB, column: ColumnInfo, type: 'blank' | 'notBlank'): Bool {
  const ref = column.shownValue ?? eb.ref(column.name);
  if (column.kind === 'text') {
    return type === 'blank' ? eb.or([eb(ref, 'is', null), eb(ref, '=', '')]) : eb.and([eb(ref, 'is not', null), eb(ref, '<>', '')]);
  }
  return eb(ref, type === 'blank' ? 'is' : 'is not', null);
}

/** A text a text column can hold: a string without NUL (PostgreSQL refuses it in any text value). */
function isText(value: unknown): value is string {
  return typeof value === 'string' && !value.includes('\u0000');
}

/** `%`, `_` and the escape character itself are literal in the pattern (Postgres' default LIKE escape is `\`). */
function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, '\\$&');
}

function textCondition(eb: EB, column: ColumnInfo, colId: string, c: Condition): Bool {
  const type = typeOf(c, TEXT_TYPES, colId);
  if (type === 'blank' || type === 'notBlank') return blankness(eb, column, type);
  if (!isText(c.filter)) throw new TableQueryError('badFilterValue', colId);
  const text = escapeLike(c.filter);
  const ref = column.shownValue ?? eb.ref(column.name);
  switch (type) {
    case 'contains':
      return eb(ref, 'ilike', eb.val(`%${text}%`));
    case 'notContains':
      return eb.or([eb(ref, 'is', null), eb(ref, 'not ilike', eb.val(`%${text}%`))]);
    // equal whatever the case: lower() = lower(), which an index on lower(column) serves (and keeps in
    // its order: the audit trail's "who", issue 49) where ILIKE is never served by a btree index
    case 'equals':
      return eb(eb.fn('lower', [ref]), '=', eb.fn('lower', [eb.val(c.filter)]));
    case 'notEqual':
      return eb.or([eb(ref, 'is', null), eb(eb.fn('lower', [ref]), '<>', eb.fn('lower', [eb.val(c.filter)]))]);
    case 'startsWith':
      return eb(ref, 'ilike', eb.val(`${text}%`));
    default: // endsWith
      return eb(ref, 'ilike', eb.val(`%${text}`));
  }
}

function booleanValue(value: unknown, colId: string): boolean {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw new TableQueryError('badFilterValue', colId);
}

/** A text filter on a boolean column: equals / notEqual 'true' | 'false' (notEqual keeps blanks, like any text filter). */
function booleanTextCondition(eb: EB, column: ColumnInfo, colId: string, c: Condition): Bool {
  const type = typeOf(c, BOOLEAN_TEXT_TYPES, colId);
  if (type === 'blank' || type === 'notBlank') return blankness(eb, column, type);
  const value = eb.cast<boolean>(eb.val(booleanValue(c.filter, colId)), 'boolean');
  const ref = eb.ref(column.name);
  return type === 'equals' ? eb(ref, '=', value) : eb.or([eb(ref, 'is', null), eb(ref, '<>', value)]);
}

/** Upper bound on set-filter values: one array parameter carries them, but the request must stay a filter. */
const MAX_SET_VALUES = 10_000;

function setValues(c: Condition, colId: string): unknown[] {
  if (!Array.isArray(c.values) || c.values.length > MAX_SET_VALUES) throw new TableQueryError('badFilterValue', colId);
  return c.values;
}

function textSetCondition(eb: EB, column: ColumnInfo, colId: string, c: Condition): Bool {
  const values = setValues(c, colId);
  const strings: string[] = [];
  let blanks = false;
  for (const v of values) {
    if (v === null) blanks = true;
    else if (isText(v)) strings.push(v);
    else throw new TableQueryError('badFilterValue', colId);
  }
  const parts: Bool[] = [];
  // one value is an equality: an index led by the column then gives the rows in the table's order
  // (PostgreSQL 15 reads "= any(array)" in the index's order only for the array's values one by
  // one, so it sorts them); the audit trail's choice of a person (issue 49) is one value
  if (strings.length === 1) parts.push(eb(eb.ref(column.name), '=', strings[0]!));
  else if (strings.length > 0) parts.push(sql<SqlBool>`${eb.ref(column.name)} = any(cast(${strings} as text[]))`);
  if (blanks) parts.push(blankness(eb, column, 'blank'));
  return parts.length === 0 ? eb.lit(false) : parts.length === 1 ? parts[0] : eb.or(parts);
}

function booleanSetCondition(eb: EB, column: ColumnInfo, colId: string, c: Condition): Bool {
  const values = setValues(c, colId);
  const wanted = new Set(values.map((v) => (v === null ? null : booleanValue(v, colId))));
  const ref = eb.ref(column.name);
  const parts: Bool[] = [];
  for (const v of [true, false]) {
    if (wanted.has(v)) parts.push(eb(ref, '=', eb.cast<boolean>(eb.val(v), 'boolean')));
  }
  if (wanted.has(null)) parts.push(eb(ref, 'is', null));
  return parts.length === 0 ? eb.lit(false) : parts.length === 1 ? parts[0] : eb.or(parts);
}

/** A choice list over a coded number column (order status, order type): exact values; `null` selects blanks. */
function numberSetCondition(eb: EB, column: ColumnInfo, colId: string, c: Condition): Bool {
  const values = setValues(c, colId);
  const numbers: number[] = [];
  let blanks = false;
  for (const v of values) {
    if (v === null) blanks = true;
    else numbers.push(numberValue(v, colId));
  }
  const parts: Bool[] = [];
  if (numbers.length > 0) {
    const type = numbers.every(Number.isSafeInteger) ? sql`bigint[]` : sql`numeric[]`;
    parts.push(sql<SqlBool>`${eb.ref(column.name)} = any(cast(${numbers} as ${type}))`);
  }
  if (blanks) parts.push(eb(eb.ref(column.name), 'is', null));
  return parts.length === 0 ? eb.lit(false) : parts.length === 1 ? parts[0] : eb.or(parts);
}

function numberValue(value: unknown, colId: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) throw new TableQueryError('badFilterValue', colId);
  return value;
}

const COMPARISON = {
  equals: '=',
  notEqual: '<>',
  greaterThan: '>',
  greaterThanOrEqual: '>=',
  lessThan: '<',
  lessThanOrEqual: '<=',
} as const;

function numberCondition(eb: EB, column: ColumnInfo, colId: string, c: Condition): Bool {
  const type = typeOf(c, NUMBER_TYPES, colId);
  if (type === 'blank' || type === 'notBlank') return blankness(eb, column, type);
  const ref = eb.ref(column.name);
  // numeric holds any finite double exactly enough and compares with integer, numeric and float
  // columns alike; a whole number goes as bigint, which compares with a smallint or integer column
  // without casting the column (a cast column cannot use its index).
  const num = (v: number) => eb.cast<number>(eb.val(v), Number.isSafeInteger(v) ? 'bigint' : 'numeric');
  const from = numberValue(c.filter, colId);
  if (type === 'inRange') {
    const to = numberValue(c.filterTo, colId);
    return eb.and([eb(ref, '>=', num(from)), eb(ref, '<=', num(to))]);
  }
  return eb(ref, COMPARISON[type as keyof typeof COMPARISON], num(from));
}

const DATE_VALUE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,6})?)?)?$/;

/** 'YYYY-MM-DD', optionally followed by ' HH:mm[:ss[.ffffff]]' or 'T…'; returns the calendar day 'YYYY-MM-DD'. */
function dayValue(value: unknown, colId: string): string {
  const m = typeof value === 'string' ? DATE_VALUE.exec(value) : null;
  if (!m) throw new TableQueryError('badFilterValue', colId);
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  const validDay = year >= 1 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
  const validTime = m[4] === undefined || (Number(m[4]) < 24 && Number(m[5]) < 60 && Number(m[6] ?? 0) < 60);
  if (!validDay || !validTime) throw new TableQueryError('badFilterValue', colId);
  return `${m[1]}-${m[2]}-${m[3]}`;
}

function nextDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  const next = new Date(Date.UTC(y, m - 1, d + 1));
  const yyyy = String(next.getUTCFullYear()).padStart(4, '0');
  return `${yyyy}-${String(next.getUTCMonth() + 1).padStart(2, '0')}-${String(next.getUTCDate()).padStart(2, '0')}`;
}

/**
 * Calendar-day comparisons, one formulation for date and datetime columns: a day D is the
 * half-open range [D, D+1). For a date column that is the same as comparing the date itself.
 */
function dateCondition(eb: EB, column: ColumnInfo, colId: string, c: Condition): Bool {
  const type = typeOf(c, DATE_TYPES, colId);
  if (type === 'blank' || type === 'notBlank') return blankness(eb, column, type);
  const ref = eb.ref(column.name);
  const at = (day: string) => eb.cast<Date>(eb.val(day), column.kind === 'date' ? 'date' : 'timestamp');
  const day = dayValue(c.dateFrom, colId);
  switch (type) {
    case 'equals':
      return eb.and([eb(ref, '>=', at(day)), eb(ref, '<', at(nextDay(day)))]);
    case 'notEqual':
      return eb.or([eb(ref, '<', at(day)), eb(ref, '>=', at(nextDay(day)))]);
    case 'greaterThan':
      return eb(ref, '>=', at(nextDay(day)));
    case 'greaterThanOrEqual':
      return eb(ref, '>=', at(day));
    case 'lessThan':
      return eb(ref, '<', at(day));
    case 'lessThanOrEqual':
      return eb(ref, '<', at(nextDay(day)));
    default: {
      // inRange, inclusive at both ends
      const to = dayValue(c.dateTo, colId);
      return eb.and([eb(ref, '>=', at(day)), eb(ref, '<', at(nextDay(to)))]);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Sort

/** One term of a table's ORDER BY: a column (or the key) and its direction. */
export interface SortKey {
  name: string;
  dir: 'asc' | 'desc';
  /** What is ordered when it is not the column `name` itself: the column's `shownValue`. */
  value?: Expression<string | null>;
}

/** The term a sort key orders by: its column, or the expression its column is shown as. */
export const sortTerm = (k: SortKey): Expression<unknown> => k.value ?? sql.ref(k.name);

/**
 * A sort key as a cursor's fingerprint holds it: an expression by its SQL and parameters (the
 * reader's language is one), so a cursor of one language's order never continues another's.
 */
export const sortKeyIdentity = (k: SortKey) => ({ name: k.name, dir: k.dir, value: k.value?.toOperationNode() });

/**
 * The full order of a table request: the sort model's columns (multi-column, in order; a repeated
 * column adds nothing), then the key column as the tiebreaker, so the order is total and
 * consecutive blocks neither repeat nor skip rows. The key follows the direction of the last sort
 * column: `col desc, key desc` is the exact reverse of `col asc, key asc`, so one (col, key) index
 * serves both directions (a backward scan), and a keyset condition on (col, key) is one row
 * comparison. `key` is trusted (it comes from the resource definition), but must still be a plain
 * identifier; it need not be filterable.
 */
export function sortKeys(columns: Columns, sortModel: unknown, key: string): SortKey[] {
  if (!IDENTIFIER.test(key)) throw new Error(`table-query: key ${JSON.stringify(key)} is not a plain identifier`);
  if (sortModel !== undefined && sortModel !== null && !Array.isArray(sortModel)) throw new TableQueryError('badFilterValue', 'sortModel');
  const items = (sortModel ?? []) as unknown[];
  if (items.length > columns.size + 1) throw new TableQueryError('badFilterValue', 'sortModel');
  const keys: SortKey[] = [];
  for (const item of items) {
    if (!isPlainObject(item) || typeof item.colId !== 'string') throw new TableQueryError('badFilterValue', 'sortModel');
    const colId = item.colId;
    const column = columns.get(colId);
    if (!column) throw new TableQueryError('unknownColumn', colId);
    if ((item.sort !== 'asc' && item.sort !== 'desc') || (item.type !== undefined && item.type !== 'default')) {
      throw new TableQueryError('unsupportedFilter', colId);
    }
    const name = column.sortBy ?? column.name;
    if (keys.some((k) => k.name === name)) continue;
    // a column sorted by another one orders by that one's stored value
    const value = column.sortBy === undefined ? column.shownValue : undefined;
    keys.push({ name, dir: item.sort, ...(value ? { value } : {}) });
  }
  if (!keys.some((k) => k.name === key)) keys.push({ name: key, dir: keys.at(-1)?.dir ?? 'asc' });
  return keys;
}

/**
 * ORDER BY for the given keys. Ascending puts NULLs last, descending first (PostgreSQL's
 * defaults, written out so the order is the same on any backend and a plain btree index serves
 * it). `reversed` inverts every term, NULL placement included: the same rows from the other end.
 */
export function orderBy<D, T extends keyof D, O>(qb: SelectQueryBuilder<D, T, O>, keys: readonly SortKey[], reversed = false): SelectQueryBuilder<D, T, O> {
  let out = qb;
  for (const k of keys) {
    const asc = (k.dir === 'asc') !== reversed;
    out = out.orderBy(sortTerm(k), (ob) => (asc ? ob.asc().nullsLast() : ob.desc().nullsFirst()));
  }
  return out;
}

/** ORDER BY for the sort model then the key (see `sortKeys`). */
export function applySort<D, T extends keyof D, O>(qb: SelectQueryBuilder<D, T, O>, columns: Columns, sortModel: unknown, key: string): SelectQueryBuilder<D, T, O> {
  return orderBy(qb, sortKeys(columns, sortModel, key));
}

// ---------------------------------------------------------------------------------------------
// Block

/** Validates startRow/endRow (integers, 0 <= start < end, end - start <= maxBlock) and returns {offset, limit}. */
export function blockWindow(rowParams: { startRow?: unknown; endRow?: unknown }, maxBlock: number): { offset: number; limit: number } {
  if (!Number.isSafeInteger(maxBlock) || maxBlock < 1) throw new Error(`table-query: maxBlock must be a positive integer, got ${maxBlock}`);
  const { startRow, endRow } = rowParams ?? {};
  if (typeof startRow !== 'number' || !Number.isSafeInteger(startRow) || startRow < 0) throw new TableQueryError('badRange', 'startRow');
  if (typeof endRow !== 'number' || !Number.isSafeInteger(endRow) || endRow <= startRow || endRow - startRow > maxBlock) {
    throw new TableQueryError('badRange', 'endRow');
  }
  return { offset: startRow, limit: endRow - startRow };
}

// ---------------------------------------------------------------------------------------------

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
