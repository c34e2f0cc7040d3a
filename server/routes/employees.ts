/**
 * The participant picker (spec §7 GET /employees) and the new employee dialog (POST
 * /tenant/employee). ACCESS.md row "unit, employees, tenant/employee": reading follows the unit
 * resource (ADMIN all, MANAGER client, ADVISOR the own vehicle's client; USER none); adding is
 * ADMIN and MANAGER only, for a unit (and so a client) within their scope.
 */
import type { FastifyInstance } from 'fastify';
import type { EmployeeInput } from '../repositories/employees.ts';
import { HttpError } from '../http-error.ts';
import { scopeOfResource } from '../access/scopes.ts';
import { actorOf } from '../audit/index.ts';

export default async function employeeRoutes(app: FastifyInstance) {
  const errorResponse = { $ref: 'error-response#' };

  app.get<{ Querystring: { searchText: string; pojazdId?: string } }>('/api/employees', {
    config: { access: { resource: 'unit' }, operation: { resource: 'employee', action: 'search', summary: 'Employees whose name or number contains the text' } },
    schema: { querystring: { $ref: 'employee-search-query#' }, response: { 200: { $ref: 'employee-list#' }, 404: errorResponse } },
    handler: async (request) => {
      const session = request.session!;
      const pojazdId = request.query.pojazdId === undefined ? undefined : Number(request.query.pojazdId);
      if (pojazdId !== undefined && !(await app.tableQueries.isVisible('car', session, pojazdId))) {
        throw new HttpError(404, app.config.t('errors:notFound'));
      }
      return app.employees.search(request.query.searchText, scopeOfResource(app, 'unit', session), pojazdId);
    },
  });

  app.post<{ Body: EmployeeInput }>('/api/tenant/employee', {
    config: { access: { roles: ['ADMIN', 'MANAGER'] }, operation: { resource: 'employee', action: 'create', summary: 'Add an employee to a unit of the caller\'s client' } },
    schema: { body: { $ref: 'employee-create-request#' }, response: { 200: { $ref: 'employee-create-response#' }, 409: errorResponse } },
    handler: async (request) => {
      const { pracId } = await app.employeeService.create(actorOf(request), request.session!, request.body);
      return { pracId, message: app.config.t('employee:messages.added') };
    },
  });
}
