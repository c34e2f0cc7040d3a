/**
 * Saved table filters and column views (spec §3 "Saved table settings", §5 messages, §7 calls),
 * kept on the server per user so that they follow the user to another browser. Scope "self"
 * (ACCESS.md): every query is limited to the caller's own rows, and another user's id is answered
 * as if it did not exist (404).
 *
 * A table is named by its screen's `stateKey` (ORDER_TABLE, INVOICE …). What is saved must apply
 * to that table: a filter names only the table's columns and compiles to SQL on the table's
 * resource (so applying it later can never fail), a view lists only the table's column ids.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { NameTakenError, type SavedKind, type SavedSetting } from '../repositories/settings.ts';
import type { TableFile } from '../../runtime/core/generated/meta.ts';
import type { Bundle } from '../config/bundle.ts';
import { fileOfType } from '../config/screen-files.ts';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';
import { HttpError } from '../http-error.ts';
import { columnsFromSchema, filterExpression } from '../db/table-query.ts';
import { byConfiguration } from '../db/configured-tables.ts';

interface FilterBody {
  name: string;
  tablename: string;
  filterModel: Record<string, unknown> | string;
}
interface ViewBody {
  name: string;
  tablename: string;
  columnorder: string[] | string;
}

/** The table screen a saved setting belongs to: the screen whose stateKey it names. */
export function tableScreenByStateKey(bundle: Bundle, stateKey: string): TableFile | undefined {
  return Object.values(bundle.screens).map((s) => fileOfType(s, 'table')).find((s) => s !== undefined && s.stateKey === stateKey);
}

/** Column id → entity field of a table screen (a column may show another field than its id). */
function columnFields(screen: TableFile): Map<string, string> {
  return new Map(screen.columns.map((c) => [c.id, c.field ?? c.id]));
}

export default async function userTableSettingsRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const badField = (field: string, message: string) => new HttpError(400, message, { code: 'VALIDATION', errors: [{ field, message }] });

  const tableOf = (tablename: string) => {
    const screen = tableScreenByStateKey(app.config.bundle, tablename);
    if (!screen) throw badField('tablename', t('table:saved.unknownTable', { table: tablename }));
    return screen;
  };

  /** JSON text is accepted where the spec keeps JSON text; anything else must already be the value. */
  const parsed = (value: unknown, field: string): unknown => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      throw badField(field, t('table:saved.badJson'));
    }
  };

  /** The filter model, checked against the table's columns and compiled once on its resource. */
  const checkedFilterModel = (screen: TableFile, raw: unknown): Record<string, unknown> => {
    const model = parsed(raw, 'filterModel');
    if (typeof model !== 'object' || model === null || Array.isArray(model)) throw badField('filterModel', t('errors:table.badFilterValue', { field: 'filterModel' }));
    const fields = columnFields(screen);
    const byField: Record<string, unknown> = {};
    for (const [colId, columnModel] of Object.entries(model)) {
      const field = fields.get(colId);
      if (!field) throw badField(`filterModel.${colId}`, t('table:saved.unknownColumn', { field: colId }));
      byField[field] = columnModel;
    }
    const resource = app.config.bundle.resources[screen.resource];
    const columns = columnsFromSchema(app.config.bundle.schemas[resource.entity]);
    // throws TableQueryError (→ 400 naming the column) exactly as a table request would
    byConfiguration(app.db).selectFrom(resource.source).select(sql`1`.as('one')).where((eb) => filterExpression(eb, columns, byField) ?? sql<boolean>`true`).compile();
    return model as Record<string, unknown>;
  };

  const checkedColumnOrder = (screen: TableFile, raw: unknown): string[] => {
    const order = parsed(raw, 'columnorder');
    if (!Array.isArray(order) || order.some((c) => typeof c !== 'string')) throw badField('columnorder', t('validation:type'));
    if (order.length === 0) throw badField('columnorder', t('table:saved.emptyView'));
    const fields = columnFields(screen);
    const unknown = order.find((c) => !fields.has(c));
    if (unknown !== undefined) throw badField('columnorder', t('table:saved.unknownColumn', { field: unknown }));
    return [...new Set(order as string[])];
  };

  /** Inserts a named setting, or answers the spec's "name taken" message. */
  async function insertNamed(kind: SavedKind, values: { userId: number; tablename: string; name: string; value: unknown }, takenKey: string) {
    try {
      return await app.settings.insertNamed(kind, values);
    } catch (e) {
      if (e instanceof NameTakenError) throw badField('name', t(takenKey));
      throw e;
    }
  }

  const filterOut = (r: SavedSetting) => ({ id: r.id, name: r.name, tablename: r.tablename, filterModel: r.value });
  const viewOut = (r: SavedSetting) => ({ id: r.id, name: r.name, tablename: r.tablename, columnOrder: r.value });
  const op = (action: string, summary: string) => ({ resource: 'user-table-settings', action, summary });
  // query strings are text and this server's ajv does not coerce types: the id is a string of digits
  const idQuery = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[0-9]{1,9}$' } } };

  // every signed-in user has their own saved settings (ACCESS.md: self); the rows are theirs only
  const access = 'signedIn' as const;

  app.post<{ Body: FilterBody }>('/api/user-table-filter', {
    config: { access, operation: op('filterSave', 'Save a named filter of a table') },
    schema: { body: { $ref: 'user-table-filter#' }, response: { 200: { $ref: 'saved-table-filter#' } } },
    handler: async (request) => {
      const { userId } = request.session!;
      const screen = tableOf(request.body.tablename);
      const filterModel = checkedFilterModel(screen, request.body.filterModel);
      const row = await insertNamed('filter', { userId, tablename: request.body.tablename, name: request.body.name.trim(), value: filterModel }, 'table:saved.filterNameTaken');
      return filterOut(row);
    },
  });

  app.post<{ Body: ViewBody }>('/api/user-table-view', {
    config: { access, operation: op('viewSave', 'Save a named column view of a table') },
    schema: { body: { $ref: 'user-table-view#' }, response: { 200: { $ref: 'saved-table-view#' } } },
    handler: async (request) => {
      const { userId } = request.session!;
      const screen = tableOf(request.body.tablename);
      const columnOrder = checkedColumnOrder(screen, request.body.columnorder);
      const row = await insertNamed('view', { userId, tablename: request.body.tablename, name: request.body.name.trim(), value: columnOrder }, 'table:saved.viewNameTaken');
      return viewOut(row);
    },
  });

  for (const [path, kind] of [['/api/user-table-filter', 'filter'], ['/api/user-table-view', 'view']] as const) {
    app.delete<{ Querystring: { id: string } }>(path, {
      config: { access, operation: op(`${kind}Delete`, `Delete a saved ${kind} of a table`) },
      schema: { querystring: idQuery, response: { 204: { type: 'null', description: 'Deleted' }, 404: { $ref: 'error-response#' } } },
      handler: async (request, reply) => {
        // another user's setting is answered as if it did not exist (ACCESS.md, scope self)
        if (!(await app.settings.remove(kind, request.session!.userId, Number(request.query.id)))) throw new HttpError(404, t('errors:notFound'));
        return reply.status(204).send();
      },
    });
  }

  app.get<{ Params: { tableName: string } }>('/api/user-table-view/:tableName', {
    config: { access, operation: op('saved', 'The saved filters and views of a table') },
    schema: {
      params: { type: 'object', properties: { tableName: { type: 'string', minLength: 1, maxLength: 100, pattern: NO_NUL_PATTERN } } },
      response: { 200: { $ref: 'user-table-settings#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const { userId } = request.session!;
      const { tableName } = request.params;
      if (!tableScreenByStateKey(app.config.bundle, tableName)) throw new HttpError(404, t('errors:notFound'));
      const [filters, views] = await Promise.all([
        app.settings.saved('filter', userId, tableName),
        app.settings.saved('view', userId, tableName),
      ]);
      return { filters: filters.map(filterOut), views: views.map(viewOut) };
    },
  });
}
