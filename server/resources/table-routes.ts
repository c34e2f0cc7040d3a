/**
 * One mechanism for every table resource (DESIGN.md §3): /table, /table2, /table-count and, where
 * declared, GET /<resource>/{id}. Each resource is declared in schemas/resources/<name>.json; the
 * columns a request may name are the properties of its entity schema, and the rows are limited to
 * the caller's scope. Routes are registered per resource (so OpenAPI lists each path), but the
 * declaration is read from the current bundle on every request, so a configuration reload applies.
 */
import type { FastifyInstance } from 'fastify';
import { sql, type Kysely } from 'kysely';
import type { ResourceDecl } from '../config/load-bundle.ts';
import type { Session } from '../auth/sessions.ts';
import { HttpError } from '../http-error.ts';
import { normaliseRow } from './rows.ts';
import { scopeExpression } from './scope.ts';
import { applySort, blockWindow, columnsFromSchema, filterExpression, type Columns } from './table-query.ts';

/** Largest block a client may ask for in one call (ag-grid asks for 30). */
export const MAX_BLOCK = 1000;
/** Counts are exact up to this many rows; beyond it the answer says "estimated". */
export const COUNT_CAP = 100_000;

interface RowParams {
  startRow: number;
  endRow: number;
  sortModel?: unknown;
  filterModel?: unknown;
  srcId?: string | number | null;
  group?: string | null;
}

export function createTableQueries(app: FastifyInstance) {
  const t = (k: string) => app.config.t(k);

  const resolve = (name: string) => {
    const resource = app.config.bundle.resources[name];
    if (!resource) throw new HttpError(404, t('errors:notFound'));
    const entity = app.config.bundle.schemas[resource.entity];
    return { resource, entity, columns: columnsFromSchema(entity) };
  };

  /** The visible columns of a resource: every entity property. */
  const selection = (entity: Record<string, any>) => Object.keys(entity.properties).map((p) => sql.ref(p).as(p));

  const baseQuery = (db: Kysely<any>, resource: ResourceDecl, columns: Columns, session: Session, params: Partial<RowParams>) => {
    let q = db.selectFrom(resource.source).where((eb) => scopeExpression(eb, resource, session, t('errors:forbidden')));
    const filter = (eb: any) => filterExpression(eb, columns, params.filterModel);
    q = q.where((eb) => filter(eb) ?? sql<boolean>`true`);
    if (params.srcId !== undefined && params.srcId !== null && params.srcId !== '') {
      if (!resource.srcColumn) throw new HttpError(400, t('errors:badRequest'), { code: 'NO_SRC' });
      q = q.where(sql.ref(resource.srcColumn), '=', params.srcId);
    }
    if (params.group !== undefined && params.group !== null && params.group !== '') {
      if (!resource.groupColumn) throw new HttpError(400, t('errors:badRequest'), { code: 'NO_GROUP' });
      q = q.where(sql.ref(resource.groupColumn), '=', params.group);
    }
    return q;
  };

  async function rows(name: string, session: Session, params: RowParams) {
    const { resource, entity, columns } = resolve(name);
    const { offset, limit } = blockWindow(params, MAX_BLOCK);
    const sortModel = Array.isArray(params.sortModel) && params.sortModel.length ? params.sortModel : resource.defaultSort ?? [];
    let q = baseQuery(app.db, resource, columns, session, params).select(selection(entity));
    q = applySort(q, columns, sortModel, resource.key);
    const result = await q.limit(limit).offset(offset).execute();
    return result.map((r) => normaliseRow(r, entity));
  }

  async function count(name: string, session: Session, params: Partial<RowParams>): Promise<{ count: number; estimated: boolean }> {
    const { resource, columns } = resolve(name);
    const inner = baseQuery(app.db, resource, columns, session, params).select(sql`1`.as('one')).limit(COUNT_CAP + 1);
    const row = await app.db.selectFrom(inner.as('capped')).select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    const n = Number(row.n);
    return n > COUNT_CAP ? { count: COUNT_CAP, estimated: true } : { count: n, estimated: false };
  }

  async function byId(name: string, session: Session, id: string) {
    const { resource, entity } = resolve(name);
    const keyType = entity.properties[resource.key]?.type;
    const isInteger = keyType === 'integer' || (Array.isArray(keyType) && keyType.includes('integer'));
    if (isInteger && !/^\d{1,15}$/.test(id)) throw new HttpError(404, t('errors:notFound'));
    const row = await app.db
      .selectFrom(resource.source)
      .select(selection(entity))
      .where((eb) => scopeExpression(eb, resource, session, t('errors:forbidden')))
      .where(sql.ref(resource.key), '=', isInteger ? Number(id) : id)
      .executeTakeFirst();
    // Outside the caller's scope is answered as if the row did not exist (ACCESS.md).
    if (!row) throw new HttpError(404, t('errors:notFound'));
    return normaliseRow(row, entity);
  }

  return { rows, count, byId };
}

export default async function tableRoutes(app: FastifyInstance) {
  const queries = createTableQueries(app);
  const body = { $ref: 'row-params#' };
  for (const name of Object.keys(app.config.bundle.resources)) {
    const tags = [name];
    app.post<{ Body: RowParams }>(`/api/${name}/table`, {
      schema: { tags, body, response: { 200: { type: 'array', items: { type: 'object', additionalProperties: true } } } },
      handler: async (request) => queries.rows(name, request.session!, request.body),
    });
    app.post<{ Body: RowParams }>(`/api/${name}/table2`, {
      schema: { tags, body, response: { 200: { $ref: 'table-page#' } } },
      handler: async (request) => {
        const params = request.body;
        const list = await queries.rows(name, request.session!, params);
        const requested = params.endRow - params.startRow;
        if (list.length < requested) return { rows: list, lastRow: params.startRow + list.length };
        const total = await queries.count(name, request.session!, params);
        return { rows: list, lastRow: total.estimated ? -1 : total.count };
      },
    });
    app.post<{ Body: RowParams }>(`/api/${name}/table-count`, {
      schema: { tags, body, response: { 200: { $ref: 'count#' } } },
      handler: async (request) => queries.count(name, request.session!, request.body),
    });
    // spec §7: some resources answer the same list under another name too (POST /users/users)
    for (const alias of app.config.bundle.resources[name].listAliases ?? []) {
      app.post<{ Body: RowParams }>(`/api/${name}/${alias}`, {
        schema: { tags, body, response: { 200: { type: 'array', items: { type: 'object', additionalProperties: true } } } },
        handler: async (request) => queries.rows(name, request.session!, request.body),
      });
    }
    if (app.config.bundle.resources[name].byId) {
      app.get<{ Params: { id: string } }>(`/api/${name}/:id`, {
        schema: { tags, params: { type: 'object', properties: { id: { type: 'string', maxLength: 64 } } } },
        handler: async (request) => queries.byId(name, request.session!, request.params.id),
      });
    }
  }
}
