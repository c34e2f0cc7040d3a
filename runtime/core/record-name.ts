/**
 * A record as users know it (issue 49): a vehicle by its registration, an order by its number (or,
 * before it has one, by its day), a user by the login, an employee by name. The entity schema
 * declares it once, `"x-recordName"`: a list of ways to name a record, the first whose fields all
 * have a value wins —
 *
 *   "x-recordName": [
 *     { "fields": ["autNr"] },
 *     { "fields": [{ "id": "zgloData", "format": "date" }], "text": "order:recordName.unnumbered" }
 *   ]
 *
 * Without `text` the values are joined by a space ("Jan Kowalski"); with it, the text is filled with
 * them as `{{field}}` ("z 03.12.2026"). Dates are written as the screens write them (the reader's language's
 * `datePattern`, an instant on the portal's clock). The details dialogs' titles (`{{recordName}}`), the e-mails and
 * notifications about a record and "Rekord" of Dziennik zmian all name a record through this one
 * function, so they cannot disagree.
 */
import { dateText, dateTimeText } from './date-text.ts';

export interface RecordNameField {
  id: string;
  format?: 'date' | 'datetime';
}
export interface RecordNameWay {
  fields: (string | RecordNameField)[];
  text?: string;
}

type Translate = (key: string, vars?: Record<string, unknown>) => string;
type Schema = { properties?: Record<string, Record<string, unknown> | undefined>; 'x-recordName'?: unknown } | undefined;

const fieldOf = (f: string | RecordNameField): RecordNameField => (typeof f === 'string' ? { id: f } : f);

/** The ways an entity schema declares, or none. */
export function recordNameWays(schema: Schema): RecordNameWay[] {
  const ways = schema?.['x-recordName'];
  return Array.isArray(ways) ? (ways as RecordNameWay[]) : [];
}

/** Every field the ways read (what a query must select to name a record). */
export function recordNameFields(schema: Schema): string[] {
  return [...new Set(recordNameWays(schema).flatMap((w) => w.fields.map((f) => fieldOf(f).id)))];
}

/** One value as the screens write it: a date or an instant by the property's format or the way's. */
function valueText(value: unknown, property: Record<string, unknown> | undefined, format: RecordNameField['format'], timeZone: string, pattern: string): string {
  if (value === null || value === undefined) return '';
  const declared = property?.format === 'date' ? 'date' : property?.format === 'date-time' ? 'datetime' : undefined;
  const kind = format ?? declared;
  if (kind && (typeof value === 'string' || value instanceof Date)) {
    // a stored date ("2026-12-03") is a calendar day; an instant is read on the portal's clock
    const dayOnly = declared === 'date' && typeof value === 'string';
    const at = value instanceof Date ? value : new Date(dayOnly ? `${value.slice(0, 10)}T00:00:00Z` : value);
    if (!Number.isNaN(at.getTime())) return kind === 'date' ? dateText(at, dayOnly ? 'UTC' : timeZone, pattern) : dateTimeText(at, timeZone, pattern);
  }
  return String(value).trim();
}

/**
 * The record's name by the first way whose fields all have a value, or null (no way declared, or
 * none fits: the caller shows what it showed before — a key, or nothing).
 */
export function recordNameOf(schema: Schema, record: Record<string, unknown> | null | undefined, t: Translate, timeZone: string, datePattern: string): string | null {
  if (!record) return null;
  for (const way of recordNameWays(schema)) {
    const fields = way.fields.map(fieldOf);
    const values = fields.map((f) => valueText(record[f.id], schema?.properties?.[f.id], f.format, timeZone, datePattern));
    if (fields.length === 0 || values.some((v) => v === '')) continue;
    if (!way.text) return values.join(' ');
    return t(way.text, Object.fromEntries(fields.map((f, i) => [f.id, values[i]])));
  }
  return null;
}
