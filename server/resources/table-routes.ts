/**
 * One mechanism for every table resource (DESIGN.md §3): /table, /table2, /table-count and, where
 * declared, GET /<resource>/{id}. Each resource is declared in schemas/resources/<name>.json; the
 * columns a request may name are the properties of its entity schema, and the rows are limited to
 * the caller's scope. Routes are registered per resource (so OpenAPI lists each path), but the
 * declaration is read from the current bundle on every request, so a configuration reload applies.
 */
import type { FastifyInstance } from 'fastify';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';
import type { RowParams } from './table-queries.ts';

export default async function tableRoutes(app: FastifyInstance) {
  const queries = app.tableQueries;
  const body = { $ref: 'row-params#' };
  for (const [name, declared] of Object.entries(app.config.bundle.resources)) {
    const op = (action: string, summary: string) => ({ resource: name, action, summary });
    // the rows are the entity's properties (schemas/entities/<entity>.schema.json)
    const row = { $ref: `${declared.entity}#` };
    const list = { type: 'array', items: row };
    // a block whose rows are the entity's: only its properties leave the server, and the
    // serializer compiled for them writes a block ~4× faster than one for rows of any shape
    const page = { allOf: [{ $ref: 'table-page#' }, { type: 'object', properties: { rows: list } }] };
    // who may call: the roles schemas/resources/<name>.json gives a scope, read per request (plugins/auth.ts)
    const access = { resource: name };
    // an integration key reads the rows with `read:<name>`, within its clients (server/integration/scopes.ts)
    const keys = 'read' as const;
    const notFound = { $ref: 'error-response#' };
    app.post<{ Body: RowParams }>(`/api/${name}/table`, {
      config: { access, keys, readOnly: true, operation: op('table', `Rows of ${name} for a filter and sort (a block of rows)`) },
      schema: { body, response: { 200: list } },
      handler: async (request) => queries.rows(name, request.session!, request.body),
    });
    app.post<{ Body: RowParams }>(`/api/${name}/table2`, {
      config: { access, keys, readOnly: true, operation: op('table2', `A block of ${name} rows with the total and a cursor to the next`) },
      schema: { body, response: { 200: page } },
      handler: async (request) => queries.page(name, request.session!, request.body),
    });
    app.post<{ Body: RowParams }>(`/api/${name}/table-count`, {
      config: { access, keys, readOnly: true, operation: op('tableCount', `The number of ${name} rows for a filter`) },
      schema: { body, response: { 200: { $ref: 'count#' } } },
      handler: async (request) => queries.count(name, request.session!, request.body),
    });
    // spec §7: some resources answer the same list under another name too (POST /users/users)
    for (const alias of declared.listAliases ?? []) {
      app.post<{ Body: RowParams }>(`/api/${name}/${alias}`, {
        config: { access, keys, readOnly: true, operation: op(alias, `Rows of ${name} (the same list as /api/${name}/table)`) },
        schema: { body, response: { 200: list } },
        handler: async (request) => queries.rows(name, request.session!, request.body),
      });
    }
    if (declared.byId) {
      app.get<{ Params: { id: string } }>(`/api/${name}/:id`, {
        config: { access, keys, readOnly: true, operation: op('byId', `One ${name} row by its key`) },
        schema: {
          params: { type: 'object', properties: { id: { type: 'string', maxLength: 64, pattern: NO_NUL_PATTERN } } },
          response: { 200: row, 404: notFound },
        },
        handler: async (request) => queries.byId(name, request.session!, request.params.id),
      });
    }
  }
}
