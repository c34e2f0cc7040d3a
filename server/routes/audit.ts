/**
 * "Dziennik zmian" (issue 37): the details of one trail entry, its change field by field. The table
 * itself is the `audit` table resource (schemas/resources/audit.json, ADMIN only). Each field is
 * labelled as the forms name it and each value as the screens show it (server/audit/labels.ts).
 */
import { untrackedBefore } from '../audit/trail-start.ts';
import { timeZoneOf } from '../config/locale.ts';
import type { FastifyInstance } from 'fastify';
import { HttpError } from '../http-error.ts';
import { sql } from 'kysely';
import { fieldNamer, type ValueNamers } from '../audit/labels.ts';
import { scopeLabeller } from '../integration/scope-labels.ts';
import type { Bundle } from '../config/bundle.ts';
import { OrderRules, ruleCallerOf } from '../access/order-rules.ts';
import { nameRecords, registerRecordNames } from '../audit/record-names.ts';
import { trailActors } from '../audit/actors.ts';
import { scopeOf } from '../access/row-scope.ts';

/** The persons "Kto" lists at once, and at most. */
const ACTORS_DEFAULT = 20;
const ACTORS_MAX = 50;

/** The newest entries a record's history shows; older ones are in Dziennik zmian. */
export const HISTORY_LIMIT = 200;

const historyParams = {
  type: 'object', required: ['resource', 'key'], additionalProperties: false,
  properties: { resource: { type: 'string', pattern: '^[a-z][a-z0-9-]{0,63}$' }, key: { type: 'string', pattern: '^[A-Za-z0-9_.-]{1,64}$' } },
} as const;

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' } } } as const;

/** The values the configuration alone cannot name: an integration account's scopes ("Odczyt: Pojazdy", not read:car). */
const valueNamers = (bundle: Bundle, t: (key: string, vars?: Record<string, unknown>) => string): ValueNamers => ({
  'integration-accounts.scopes': scopeLabeller(bundle, t),
});

export default async function auditRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  // "Rekord" of the list names and opens each entry's record (server/audit/record-names.ts)
  registerRecordNames(app);

  /**
   * "Kto" of Dziennik zmian (issue 49): the accounts and integration keys with entries in the trail,
   * by the typed text; the table then filters by the chosen one's `actor` (an indexed id, migration
   * 055). Read by the roles that read the trail (the `audit` resource: ADMIN, ACCESS.md "audit
   * trail"), and only by a role that reads all of it: the persons of a trail seen in part would
   * need that part's scope here, which no role has today (refused rather than listed unscoped).
   */
  app.get<{ Querystring: { q?: string; limit?: string } }>('/api/audit/actors', {
    config: { access: { resource: 'audit' }, readOnly: true, operation: { resource: 'audit', action: 'actors', summary: 'Persons and integration keys with entries in the trail, by name or login' } },
    schema: {
      description: `The accounts (by surname, first name or login) and integration keys (by account, key name or prefix) whose text contains q, that have at least one entry in the trail; value is what the table's filter on \`actor\` sends. At most limit (${ACTORS_DEFAULT} unless given, ${ACTORS_MAX} at most).`,
      querystring: {
        type: 'object', additionalProperties: false,
        properties: { q: { type: 'string', maxLength: 100, pattern: '^[^\\u0000]*$' }, limit: { type: 'string', pattern: '^([1-9]|[1-4][0-9]|50)$', description: `1 to ${ACTORS_MAX}` } },
      },
      response: { 200: { $ref: 'filter-options#' }, 400: { $ref: 'error-response#' }, 403: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const { resources } = app.config.bundle;
      const forbidden = () => new HttpError(403, t('errors:forbidden'), { code: 'FORBIDDEN' });
      if (!resources.audit) throw forbidden();
      if (scopeOf(resources, resources.audit, request.session!, t('errors:forbidden')) !== 'all') throw forbidden();
      return trailActors(app.db, request.query.q ?? '', request.query.limit ? Number(request.query.limit) : ACTORS_DEFAULT,
        (prefix) => t('audit:actorKey', { prefix }), app.config.language.id);
    },
  });

  app.get<{ Params: { id: string } }>('/api/audit/:id/changes', {
    config: { access: { roles: ['ADMIN' as const] }, readOnly: true, operation: { resource: 'audit', action: 'changes', summary: 'One trail entry with its change field by field' } },
    schema: {
      params: idParams,
      response: { 200: { $ref: 'audit-entry-changes#' }, 400: { $ref: 'error-response#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const row = await app.db.selectFrom('v_audit_entry').selectAll().where('id', '=', Number(request.params.id)).executeTakeFirst();
      if (!row) throw new HttpError(404, t('errors:notFound'));
      const stored = (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes) as Record<string, [unknown, unknown]>;
      const { changes: _changes, ...entry } = row;
      const names = fieldNamer(app.config.bundle, t, valueNamers(app.config.bundle, t), app.config.language.id);
      const resource = row.resource ?? '';
      const [record] = await nameRecords(app, request.session!, [{ id: Number(row.id), resource: row.resource, recordKey: row.recordKey, changes: stored ?? null }], t);
      return {
        entry: { ...entry, ...record },
        changes: Object.entries(stored ?? {}).map(([field, [before, after]]) => ({
          field, label: names.label(resource, field), before: names.value(resource, field, before), after: names.value(resource, field, after),
        })),
      };
    },
  });

  /**
   * "Historia zmian" of one record (docs/decisions.md "Record history"): the record is read through
   * its resource's own row scope (a record outside the caller's rows is a 404, a resource his role
   * does not read a 403), then the entries the resource's `history` declares, newest first. A
   * caller other than ADMIN sees only the fields the resource's rules.hiddenWhen does not hide from
   * him on this record; an entry left with no field he may read is left out.
   */
  app.get<{ Params: { resource: string; key: string } }>('/api/audit/history/:resource/:key', {
    config: { access: { roles: ['ADMIN', 'MANAGER'] as const }, readOnly: true, operation: { resource: 'audit', action: 'history', summary: 'A record\'s history of changes (Historia zmian)' } },
    schema: {
      params: historyParams,
      response: { 200: { $ref: 'audit-record-history#' }, 400: { $ref: 'error-response#' }, 403: { $ref: 'error-response#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const { bundle } = app.config;
      const name = request.params.resource;
      const declared = bundle.resources[name];
      if (!declared?.history?.length) throw new HttpError(404, t('errors:notFound'));
      const session = request.session!;
      // the resource's own scope: outside the caller's rows the record does not exist
      const record = await app.tableQueries.byId(name, session, request.params.key);
      const key = String(record[declared.key] ?? request.params.key);
      const prefixes = new Map(declared.history.map((h) => [h.resource, h.fieldPrefix]));
      const rows = await app.db.selectFrom('audit_entry')
        .select(['id', 'at', 'actorKind', 'actorLabel', 'role', 'resource', 'recordKey', 'action', 'changes'])
        .where('resource', 'in', [...prefixes.keys()])
        .where(sql`split_part("recordKey", '/', 1)`, '=', key)
        .orderBy('at', 'desc').orderBy('id', 'desc')
        .limit(HISTORY_LIMIT + 1)
        .execute();
      const rules = new OrderRules(declared.rules ?? {}, app.config.conditions);
      const caller = ruleCallerOf(bundle, session);
      const readable = (resource: string, field: string) => {
        if (session.role === 'ADMIN') return true;
        const prefix = prefixes.get(resource);
        return !rules.isHidden(caller, record, prefix ? `${prefix}.${field}` : field);
      };
      const names = fieldNamer(bundle, t, valueNamers(bundle, t), app.config.language.id);
      const changes = rows.slice(0, HISTORY_LIMIT).flatMap((row) => {
        const stored = (typeof row.changes === 'string' ? JSON.parse(row.changes) : row.changes ?? {}) as Record<string, [unknown, unknown]>;
        const entry = {
          entryId: Number(row.id), at: new Date(row.at).toISOString(), actorKind: row.actorKind as 'user' | 'integration' | 'system',
          actorLabel: row.actorLabel, role: row.role, resource: row.resource, recordKey: row.recordKey, action: row.action,
        };
        const fields = Object.keys(stored);
        if (fields.length === 0) return [{ row: `${row.id}`, ...entry, field: '', label: '', before: '', after: '' }];
        return fields.filter((field) => readable(row.resource, field)).map((field) => ({
          row: `${row.id}:${field}`, ...entry, field, label: names.label(row.resource, field),
          before: names.value(row.resource, field, stored[field]![0]), after: names.value(row.resource, field, stored[field]![1]),
        }));
      });
      const more = rows.length > HISTORY_LIMIT;
      return { changes, more, untrackedBefore: await untrackedBefore(app.db, rows, more, timeZoneOf(bundle.config), app.config.language.datePattern) };
    },
  });
}
