/**
 * "Rekord" of Dziennik zmian names the record as users know it and opens it (issue 49). Resolved
 * when the trail is read, from the configuration: screens/app.json `audit.records` says, per audited
 * resource, which table resource holds its records (and the route that opens one); that resource's
 * entity says how a record is named (`x-recordName`, runtime/core/record-name.ts). Nothing here knows
 * a resource.
 *
 * - The records are read through their resource's own row scope for the caller
 *   (scope.ts): a record he may not see is neither named nor linked — its key stays.
 * - A record that no longer exists (a deleted webhook or integration account) is named from the
 *   entry's own change, when it holds the naming fields (the values it had, else the new ones);
 *   there is nothing to open.
 * - Why at read time and not stored with the entry: a record's name changes (an order gets its
 *   number when authorised, a vehicle's registration changes by an import no entry records), the
 *   entries are append-only and hashed, and an anonymised person must not stay named by a copy.
 *   One query per resource of a block (its keys in one `in (…)`), so a page of the list costs a few
 *   index probes.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Expression } from 'kysely';
import type { Session } from '../auth/sessions.ts';
import type { Bundle } from '../config/bundle.ts';
import { timeZoneOf } from '../config/locale.ts';
import { SOURCE_LANGUAGE } from '../config/languages.ts';
import { byConfiguration } from '../db/configured-tables.ts';
import { HttpError } from '../http-error.ts';
import { normaliseRow } from '../db/rows.ts';
import { effectiveAccess, scopeExpression } from '../access/row-scope.ts';
import { recordNameFields, recordNameOf } from '../../runtime/core/record-name.ts';

/** An entry as far as naming its record goes. */
export interface EntryRef {
  resource: string | null;
  recordKey: string | null;
  /** The entry's change, when at hand; read by id when needed otherwise. */
  changes?: Record<string, [unknown, unknown]> | null;
  id?: number;
}

export interface RecordRef {
  /** The record as users know it, else its key (null for an entry about no record). */
  recordName: string | null;
  /** The path that opens the record (`/app/order?open=12`), or null. */
  recordOpen: string | null;
}

interface RecordDecl {
  resource: string;
  key?: 'record' | 'parent';
  open?: string;
}

type Translate = (key: string, vars?: Record<string, unknown>) => string;

/** The declarations of screens/app.json audit.records. */
export function recordDecls(bundle: Bundle): Record<string, RecordDecl> {
  return ((bundle.app as unknown as { audit?: { records?: Record<string, RecordDecl> } }).audit?.records) ?? {};
}

const parsed = (changes: unknown): Record<string, [unknown, unknown]> | null => {
  if (!changes) return null;
  const value = typeof changes === 'string' ? JSON.parse(changes) : changes;
  return value && typeof value === 'object' ? (value as Record<string, [unknown, unknown]>) : null;
};

/** The values an entry's change gives its record: what a field was, else what it became. */
const valuesOfChange = (changes: Record<string, [unknown, unknown]>) =>
  Object.fromEntries(Object.entries(changes).map(([field, pair]) => [field, Array.isArray(pair) ? (pair[0] ?? pair[1]) : undefined]));

/**
 * Each entry's record named and linked for this caller, in the entries' order. `t` writes the
 * names' texts (an order without a number: "z 03.12.2026").
 */
export async function nameRecords(app: FastifyInstance, session: Session, entries: readonly EntryRef[], t: Translate): Promise<RecordRef[]> {
  const { bundle } = app.config;
  const decls = recordDecls(bundle);
  const zone = timeZoneOf(bundle.config);
  const pattern = app.config.language.datePattern;
  const routes = ((bundle.screens.routes as unknown as { routes?: { path: string; allowedWhen?: unknown }[] } | undefined)?.routes ?? []);
  const who = { role: session.role, variant: bundle.variant, config: bundle.config };
  const opens = (path: string | undefined) => {
    if (!path) return false;
    const route = routes.find((r) => r.path === path);
    return Boolean(route) && (route!.allowedWhen === undefined || app.config.conditions.matches(route!.allowedWhen as never, who as never));
  };
  const keyOf = (decl: RecordDecl, recordKey: string) => (decl.key === 'parent' ? recordKey.split('/')[0]! : recordKey);

  // the records each resource must read, by their keys
  const wanted = new Map<string, Set<string>>();
  for (const e of entries) {
    const decl = e.resource ? decls[e.resource] : undefined;
    if (!decl || e.recordKey === null || e.recordKey === '' || !bundle.resources[decl.resource]) continue;
    let keys = wanted.get(decl.resource);
    if (!keys) wanted.set(decl.resource, (keys = new Set()));
    keys.add(keyOf(decl, e.recordKey));
  }
  const db = byConfiguration(app.db);
  const found = new Map<string, Map<string, Record<string, unknown>>>();
  for (const [name, keys] of wanted) {
    const resource = bundle.resources[name]!;
    const entity = bundle.schemas[resource.entity];
    const keyType = entity.properties?.[resource.key]?.type;
    const integer = [keyType].flat().includes('integer');
    // a key that cannot be one of this resource's (not a number where the key is) names nothing
    const values = [...keys].filter((k) => !integer || /^\d{1,15}$/.test(k)).map((k) => (integer ? Number(k) : k));
    const rows = new Map<string, Record<string, unknown>>();
    found.set(name, rows);
    if (values.length === 0) continue;
    const fields = [...new Set([resource.key, ...recordNameFields(entity)])].filter((f) => Object.hasOwn(entity.properties ?? {}, f));
    let read: Record<string, unknown>[];
    try {
      read = await db.selectFrom(resource.source)
        .select(fields.map((f) => sql.ref(f).as(f)))
        .where((eb) => scopeExpression(eb, bundle.resources, resource, session, 'forbidden'))
        .where(sql.ref(resource.key), 'in', values)
        .execute();
    } catch (err) {
      // a resource the caller's role does not read: none of its records is named for him
      if (err instanceof HttpError && err.statusCode === 403) continue;
      throw err;
    }
    for (const row of read) rows.set(String(row[resource.key]), normaliseRow(row, entity));
  }

  // a record not read is gone only for a caller who reads every record of its resource; for any
  // other it may merely be out of his sight, and then the entry's change must not name it either
  const seesAll = (name: string) => {
    const resource = bundle.resources[name];
    return Boolean(resource) && effectiveAccess(resource!, bundle.resources)[session.role as 'ADMIN'] === 'all';
  };
  const gone = (decl: RecordDecl, recordKey: string) => decl.key !== 'parent' && seesAll(decl.resource) && !found.get(decl.resource)?.has(keyOf(decl, recordKey));
  // the changes of entries whose record is gone, to name it as it was
  const missing = entries.filter((e) => {
    const decl = e.resource ? decls[e.resource] : undefined;
    return decl && e.recordKey && gone(decl, e.recordKey) && e.changes === undefined && e.id !== undefined;
  });
  const changesById = new Map<number, unknown>();
  if (missing.length) {
    const rows = await app.db.selectFrom('audit_entry').select(['id', 'changes']).where('id', 'in', missing.map((e) => e.id!)).execute();
    for (const row of rows) changesById.set(Number(row.id), row.changes);
  }

  return entries.map((e) => {
    if (e.recordKey === null || e.recordKey === '') return { recordName: null, recordOpen: null };
    const decl = e.resource ? decls[e.resource] : undefined;
    const resource = decl ? bundle.resources[decl.resource] : undefined;
    if (!decl || !resource) return { recordName: e.recordKey, recordOpen: null };
    const entity = bundle.schemas[resource.entity];
    const key = keyOf(decl, e.recordKey);
    const row = found.get(decl.resource)?.get(key);
    if (row) {
      return {
        recordName: recordNameOf(entity, row, t, zone, pattern) ?? e.recordKey,
        recordOpen: opens(decl.open) ? `${decl.open}?open=${encodeURIComponent(key)}` : null,
      };
    }
    const changes = !gone(decl, e.recordKey) ? null : e.changes !== undefined ? parsed(e.changes) : parsed(changesById.get(e.id ?? -1));
    return { recordName: (changes && recordNameOf(entity, valuesOfChange(changes), t, zone, pattern)) || e.recordKey, recordOpen: null };
  });
}

/**
 * "Zmienione pola" in the reader's language (issue 48). The view's `fields` names an entry's
 * changed fields by the source language's labels stored in audit_field_label; for a reader of
 * another language the column is read as this expression instead: the same fields by his
 * language's stored labels (migration 054; a field without one by its code), joined as the view
 * joins them. The list shows it, its text filter compares it and its sort orders by it, in SQL — so
 * "Спосіб" finds the entries a Ukrainian reader sees "Спосіб входу" in, and the column sorts as he
 * reads it.
 */
function fieldsShownValue(app: FastifyInstance, source: string): Record<string, Expression<string | null>> {
  const language = app.config.language.id;
  if (language === SOURCE_LANGUAGE) return {};
  const row = (column: string) => sql.ref(`${source}.${column}`);
  return {
    fields: sql<string | null>`(select string_agg(coalesce(l."label", k), ', ' order by coalesce(l."label", k))
      from jsonb_object_keys(${row('changes')}) k
      left join audit_field_label l on l."language" = ${language} and l."resource" = ${row('resource')} and l."field" = k)`,
  };
}

/** Dziennik zmian's list: each row's recordName and recordOpen (the `audit` table resource's computed fields), its changed fields in the reader's language. */
export function registerRecordNames(app: FastifyInstance): void {
  app.tableQueries.extendRows('audit', {
    needs: ['id', 'resource', 'recordKey'],
    shownValues: (source) => fieldsShownValue(app, source),
    async extend(rows, session) {
      const refs = await nameRecords(app, session, rows.map((r) => ({
        id: Number(r.id), resource: (r.resource as string | null) ?? null, recordKey: (r.recordKey as string | null) ?? null,
      })), (key, vars) => app.config.t(key, vars));
      rows.forEach((row, i) => Object.assign(row, refs[i]));
    },
  });
}
