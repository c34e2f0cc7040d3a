/**
 * Fuel anomalies (issue 46), HTTP only: the caller's list (the Pulpit's section reads its
 * unexplained ones) and "explained, with a note". Who and which rows: ACCESS.md "fuel anomalies:
 * read; mark explained | all | client | — | —", judged by the service on the fuel-anomaly
 * resource's row scope (another client's anomaly: 404; a driver: 403).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Session } from '../auth/session.ts';
import { actorOf } from '../audit/actor.ts';

const FLEET = ['ADMIN', 'MANAGER'] as const;
const PAGE = 20;

type ListQuery = { offset?: string; limit?: string; explained?: 'true' | 'false'; rule?: string };

export default async function anomalyRoutes(app: FastifyInstance) {
  const session = (request: FastifyRequest) => request.session as Session;
  const list = (request: FastifyRequest<{ Querystring: ListQuery }>, explained?: boolean) => {
    const q = request.query;
    // numbers arrive as digits (the query's patterns); the validator does not coerce
    return app.anomalies.list(session(request), {
      offset: Number(q.offset ?? 0), limit: Number(q.limit ?? PAGE),
      explained: explained ?? (q.explained === undefined ? undefined : q.explained === 'true'), rule: q.rule,
    });
  };

  app.get<{ Querystring: ListQuery }>('/api/fuel-anomalies', {
    config: { access: { roles: [...FLEET] }, operation: { resource: 'fuel-anomaly', action: 'list', summary: 'The caller\'s fuel anomalies, newest first, a page at a time' } },
    schema: {
      description: 'What the rules of screens/fuel-anomalies.json found in the fuel transactions of the caller\'s vehicles (an administrator: every client\'s), each with its rule, what it says, the transaction and whether it was explained.',
      querystring: { $ref: 'fuel-anomaly-query#' },
      response: { 200: { $ref: 'fuel-anomaly-list#' }, 400: { $ref: 'error-response#' } },
    },
    handler: async (request) => list(request),
  });

  app.get<{ Querystring: ListQuery }>('/api/fuel-anomalies/open', {
    config: { access: { roles: [...FLEET] }, operation: { resource: 'fuel-anomaly', action: 'open', summary: 'The caller\'s unexplained fuel anomalies (the Pulpit\'s section)' } },
    schema: {
      description: 'As GET /api/fuel-anomalies with explained=false: what still waits for the fleet manager\'s explanation.',
      querystring: { $ref: 'fuel-anomaly-query#' },
      response: { 200: { $ref: 'fuel-anomaly-list#' }, 400: { $ref: 'error-response#' } },
    },
    handler: async (request) => list(request, false),
  });

  app.post<{ Params: { id: string }; Body: { notatka: string } }>('/api/fuel-anomalies/:id/explain', {
    config: { access: { roles: [...FLEET] }, operation: { resource: 'fuel-anomaly', action: 'explain', summary: 'Marks a fuel anomaly explained, with a note (recorded in the trail)' } },
    schema: {
      description: 'The note is required (400 naming `notatka` when missing or blank). An anomaly already explained gets the new note. Another client\'s anomaly is answered as absent (404).',
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,17}$' } } },
      body: { $ref: 'fuel-anomaly-explain-request#' },
      response: { 200: { $ref: 'fuel-anomaly-item#' }, 400: { $ref: 'error-response#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => app.anomalies.explain(session(request), Number(request.params.id), request.body.notatka, actorOf(request)),
  });
}
