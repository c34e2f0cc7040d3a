/**
 * Handover (Wydanie) and return (Zdanie) of a vehicle and its latest assignment (spec §2
 * Assignments, §7). ACCESS.md: pickup ADMIN (all) and MANAGER (client); dropoff also USER (own
 * vehicle); last: the assignment resource's roles. The vehicle is checked against the caller's
 * vehicle scope inside the write (a foreign vehicle is absent); the writes with their entries and
 * events are services/assignments.ts's, the rules live in repositories/assignments.ts.
 */
import type { FastifyInstance } from 'fastify';
import type { DropoffInput, PickupInput } from '../repositories/assignments.ts';
import { withFailureMessage } from '../repositories/write-rules.ts';
import { HttpError } from '../http-error.ts';
import { scopeOfResource } from '../access/scopes.ts';
import { actorOf } from '../audit/index.ts';

export default async function assignmentRoutes(app: FastifyInstance) {
  const op = (action: string, summary: string) => ({ resource: 'assignment', action, summary });
  const errorResponse = { $ref: 'error-response#' };
  const saved = (przydzialId: number) => ({ przydzialId, message: app.config.t('assignment:messages.saved') });

  app.post<{ Body: PickupInput }>('/api/assignment/pickup', {
    config: { access: { resource: 'assignment' }, operation: op('pickup', 'Hand a vehicle over to an employee (Wydanie)') },
    schema: { body: { $ref: 'assignment-pickup-request#' }, response: { 200: { $ref: 'assignment-change-response#' }, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => {
      const { przydzialId } = await withFailureMessage(app, request, 'assignment:messages.saveFailed',
        () => app.assignmentService.pickup(actorOf(request), request.session!, request.body));
      return saved(przydzialId);
    },
  });

  app.post<{ Body: DropoffInput }>('/api/assignment/dropoff', {
    config: { access: { roles: ['ADMIN', 'MANAGER', 'USER'] }, operation: op('dropoff', 'Take a vehicle back from its employee (Zdanie)') },
    schema: { body: { $ref: 'assignment-dropoff-request#' }, response: { 200: { $ref: 'assignment-change-response#' }, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => {
      const { przydzialId } = await withFailureMessage(app, request, 'assignment:messages.saveFailed',
        () => app.assignmentService.dropoff(actorOf(request), request.session!, request.body));
      return saved(przydzialId);
    },
  });

  app.get<{ Params: { pojazdId: string } }>('/api/assignment/last/:pojazdId', {
    config: { access: { resource: 'assignment' }, operation: op('last', 'The latest assignment of a vehicle') },
    schema: {
      params: { type: 'object', required: ['pojazdId'], properties: { pojazdId: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } },
      response: { 200: { $ref: 'assignment-last-response#' }, 404: errorResponse },
    },
    handler: async (request) => {
      const session = request.session!;
      const pojazdId = Number(request.params.pojazdId);
      // a vehicle outside the caller's scope is absent; one without assignments answers null
      if (!(await app.tableQueries.isVisible('car', session, pojazdId))) throw new HttpError(404, app.config.t('errors:notFound'));
      return app.assignments.last(pojazdId, scopeOfResource(app, 'assignment', session));
    },
  });
}
