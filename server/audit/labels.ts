/**
 * How the trail names a change (issue 37, "Dziennik zmian" and "Historia zmian"): a field by its
 * label as the forms name it, a value by its label as the screens show it. Nothing here knows a
 * field: both are found in the configuration in use.
 *
 * - The entity of an audited resource: the table resource's `entity` (users → user), else the
 *   entity schema named like the resource (order-position), else none.
 * - A field's label: `<entity>:fields.<field>`, else `<resource>:fields.<field>` (a locale
 *   namespace named like the resource: email), else the trail's own `audit:fields.<field>`.
 * - A field's value labels: the entity schema's `x-valueLabels` on the property (order.status →
 *   order:statuses), else the `valueLabels` a screen over that entity gives the field (a table
 *   column, a details dialog's field, a list's column of that entity), else the trail's own
 *   `audit:values.<field>` (codes only the trail records: a sign-in's method). A value shows as the
 *   text `<valueLabels>.<value>` when the locales have it; a date or an instant of a property the
 *   entity declares `date` / `date-time` as the portal writes dates (the reader's date pattern, its time zone);
 *   a phone number (`x-format: phone`) in threes as the forms write it; else as itself.
 */
import type { Bundle } from '../config/bundle.ts';
import { timeZoneOf } from '../config/locale.ts';
import { datePatternFor } from '../config/languages.ts';
import { dateText, dateTimeText } from '../../runtime/core/date-text.ts';
import { formatKindFor, phoneText } from '../../runtime/core/format-kind.ts';

type Locales = Bundle['locales']['pl'];
/** An instant as JSON writes it (toISOString): 2027-12-03T06:56:49.461Z, or with an offset. */
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const byBundle = new WeakMap<Bundle, Map<string, Map<string, string>>>();

/** entity → field → valueLabels, from the entity schemas and every screen of the bundle. */
function valueLabelIndex(bundle: Bundle): Map<string, Map<string, string>> {
  const known = byBundle.get(bundle);
  if (known) return known;
  const index = new Map<string, Map<string, string>>();
  const put = (entity: unknown, field: unknown, labels: unknown, first = false) => {
    if (typeof entity !== 'string' || typeof field !== 'string' || typeof labels !== 'string') return;
    let fields = index.get(entity);
    if (!fields) index.set(entity, (fields = new Map()));
    if (first || !fields.has(field)) fields.set(field, labels);
  };
  for (const [id, schema] of Object.entries(bundle.schemas)) {
    for (const [field, property] of Object.entries((schema?.properties ?? {}) as Record<string, Record<string, unknown>>)) {
      put(id, field, property?.['x-valueLabels'], true);
    }
  }
  // a screen names its entity; its columns, fields and (entity) lists may give a field's value labels
  const visit = (node: unknown, entity: unknown) => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item, entity);
      return;
    }
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    const here = typeof o.entity === 'string' ? o.entity : entity;
    if (typeof o.id === 'string' && typeof o.valueLabels === 'string') put(here, o.id, o.valueLabels);
    for (const value of Object.values(o)) if (value && typeof value === 'object') visit(value, here);
  };
  // a list without an entity of its own (an order's status history) shows rows of another shape: not the screen's entity
  const screens = Object.values(bundle.screens).map((screen) => JSON.parse(JSON.stringify(screen), (key, value) => (
    key === 'lists' && Array.isArray(value) ? value.filter((l) => l && typeof l === 'object' && typeof l.entity === 'string') : value)));
  for (const screen of screens) visit(screen, screen.entity);
  byBundle.set(bundle, index);
  return index;
}

/** The entity schema an audited resource's fields belong to. */
export function entityOfResource(bundle: Bundle, resource: string): string | undefined {
  const declared = bundle.resources[resource]?.entity;
  if (declared) return declared;
  return bundle.schemas[resource] ? resource : undefined;
}

const textAt = (locales: Locales, ns: string, path: string): string | undefined => {
  let node: unknown = locales[ns];
  for (const part of path.split('.')) {
    if (!node || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' && node ? node : undefined;
};

/** `order:statuses` + 4 → the text under locales/pl/order.json statuses.4, if any. */
export function valueLabelText(locales: Locales, valueLabels: string, value: unknown): string | undefined {
  const colon = valueLabels.indexOf(':');
  if (colon < 0) return undefined;
  return textAt(locales, valueLabels.slice(0, colon), `${valueLabels.slice(colon + 1)}.${String(value)}`);
}

export interface FieldNamer {
  label(resource: string, field: string): string;
  /** The value as the dialog shows it: its value label, text, lists joined, yes/no; '' for none. */
  value(resource: string, field: string, value: unknown): string;
}

/**
 * Values only code can name, by `<resource>.<field>` (an integration account's scopes: their labels
 * are worked out from the resources, server/integration/scope-labels.ts); a list's items one by one.
 */
export type ValueNamers = Record<string, (value: unknown) => string | undefined>;

/**
 * `language`: the reader's (issue 48) — the fields' and values' labels in his language's texts
 * (merged over the Polish ones, so a text it lacks reads Polish); without it, the source language's.
 */
export function fieldNamer(bundle: Bundle, t: (key: string) => string, namers: ValueNamers = {}, language?: string): FieldNamer {
  const locales = (language !== undefined ? bundle.locales[language] : undefined) ?? bundle.locales.pl;
  const index = valueLabelIndex(bundle);
  const plain = (value: unknown): string => {
    if (value === null || value === undefined) return '';
    if (typeof value === 'boolean') return t(value ? 'audit:details.yes' : 'audit:details.no');
    if (Array.isArray(value) && value.every((v) => typeof v !== 'object' || v === null)) return value.map((v) => String(v ?? '')).join(', ');
    if (typeof value === 'object') return JSON.stringify(value);
    return String(value);
  };
  const zone = timeZoneOf(bundle.config);
  const pattern = datePatternFor(bundle, language);
  /** A stored date ("2027-11-27") or instant as the portal shows it, or undefined when it is not one. */
  const asDate = (format: unknown, value: unknown): string | undefined => {
    if (typeof value !== 'string') return undefined;
    const at = new Date(format === 'date' ? `${value.slice(0, 10)}T00:00:00Z` : value);
    if (Number.isNaN(at.getTime())) return undefined;
    // "27.11.2026 03:33" (27/11/2026 in English), as the screens write an instant; a stored date is a calendar day (UTC)
    return format === 'date' ? dateText(at, 'UTC', pattern) : dateTimeText(at, zone, pattern);
  };
  return {
    label(resource, field) {
      for (const ns of [entityOfResource(bundle, resource), resource, 'audit']) {
        const text = ns ? textAt(locales, ns, `fields.${field}`) : undefined;
        if (text) return text;
      }
      return field;
    },
    value(resource, field, value) {
      const named = namers[`${resource}.${field}`];
      if (named) {
        const one = (v: unknown) => named(v) ?? plain(v);
        if (Array.isArray(value)) return value.map(one).join(', ');
        if (value !== null && value !== undefined) return one(value);
      }
      const entity = entityOfResource(bundle, resource);
      const labels = (entity ? index.get(entity)?.get(field) : undefined) ?? `audit:values.${field}`;
      if (value !== null && value !== undefined && typeof value !== 'object') {
        const text = valueLabelText(locales, labels, value);
        if (text) return text;
      }
      const property = entity ? bundle.schemas[entity]?.properties?.[field] : undefined;
      const format = property?.format;
      if (format === 'date' || format === 'date-time') return asDate(format, value) ?? plain(value);
      // a phone number as the forms write it, "226 000 111" (issue 49), not as stored
      if (typeof value === 'string' && formatKindFor(property) === 'phone') return phoneText(value);
      // an instant no schema declares (a key's expiry, a run's times) is still written as the screens write one,
      // in the portal's zone — never "2027-12-03T06:56:49.461Z" (issue 49)
      if (typeof value === 'string' && ISO_INSTANT.test(value)) return asDate('date-time', value) ?? plain(value);
      return plain(value);
    },
  };
}
