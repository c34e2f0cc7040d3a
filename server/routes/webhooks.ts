/**
 * Webhooks (issue 35): the endpoints other systems receive events at, their log, resend and
 * recovery (Administracja → Webhooki). ADMIN manages every endpoint; an integration key with the
 * `webhooks` scope (CONTRACTS.md, `keys: 'webhooks'`) manages the endpoints of its own clients
 * only, and another's are answered as absent. What is sent and how: server/webhooks/.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../audit/index.ts';
import type { EndpointInput, Manager } from '../webhooks/service.ts';

const ADMIN = { roles: ['ADMIN' as const] };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,14}$' } } } as const;
const errorResponse = { $ref: 'error-response#' };

/** An integration account manages its own clients' endpoints; a signed-in administrator, every one. */
function managerOf(request: FastifyRequest): Manager {
  const integration = request.integration;
  const actor = actorOf(request);
  if (integration && integration.clients !== 'all') return { clients: [...integration.clients], actor };
  return { clients: 'all', actor };
}

export default async function webhookRoutes(app: FastifyInstance) {
  const op = (action: string, summary: string) => ({ resource: 'webhooks', action, summary });
  const config = (action: string, summary: string) => ({ access: ADMIN, keys: 'webhooks' as const, operation: op(action, summary) });
  const id = (request: { params: unknown }) => Number((request.params as { id: string }).id);
  const page = (query: { offset?: string; limit?: string }) => ({ offset: Number(query.offset ?? 0), limit: Number(query.limit ?? 20) });

  app.get('/api/webhooks/events', {
    config: config('eventList', 'The events an endpoint may take'),
    schema: { response: { 200: { $ref: 'webhook-event-list#' } } },
    handler: async () => app.webhooks.events(),
  });

  app.get('/api/webhooks/clients', {
    config: config('clientList', 'The clients whose events an endpoint of the caller may get'),
    schema: { response: { 200: { $ref: 'webhook-client-list#' } } },
    handler: async (request) => app.webhooks.clients(managerOf(request)),
  });

  app.get<{ Querystring: { offset?: string; limit?: string } }>('/api/webhooks/endpoints', {
    config: config('endpointList', 'The webhook endpoints the caller manages'),
    schema: { querystring: { $ref: 'webhook-page-query#' }, response: { 200: { $ref: 'webhook-endpoint-list#' }, 400: errorResponse } },
    handler: async (request) => app.webhooks.list(managerOf(request), page(request.query)),
  });

  app.post<{ Body: EndpointInput }>('/api/webhooks/endpoints', {
    config: config('endpointCreate', 'Add a webhook endpoint; its signing secret is answered this once'),
    schema: { body: { $ref: 'webhook-endpoint-request#' }, response: { 200: { $ref: 'webhook-endpoint-created#' }, 400: errorResponse } },
    handler: async (request) => app.webhooks.create(managerOf(request), request.body),
  });

  app.get('/api/webhooks/endpoints/:id', {
    config: config('endpointGet', 'One webhook endpoint'),
    schema: { params: idParams, response: { 200: { $ref: 'webhook-endpoint#' }, 400: errorResponse, 404: errorResponse } },
    handler: async (request) => app.webhooks.get(managerOf(request), id(request)),
  });

  app.put<{ Body: EndpointInput }>('/api/webhooks/endpoints/:id', {
    config: config('endpointUpdate', 'Save a webhook endpoint whole'),
    schema: { params: idParams, body: { $ref: 'webhook-endpoint-request#' }, response: { 200: { $ref: 'webhook-endpoint-saved#' }, 400: errorResponse, 404: errorResponse } },
    handler: async (request) => app.webhooks.update(managerOf(request), id(request), request.body),
  });

  app.delete('/api/webhooks/endpoints/:id', {
    config: config('endpointDelete', 'Remove a webhook endpoint with its log'),
    schema: { params: idParams, response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 404: errorResponse } },
    handler: async (request) => app.webhooks.remove(managerOf(request), id(request)),
  });

  app.post('/api/webhooks/endpoints/:id/rotate-secret', {
    config: config('secretRotate', 'Rotate the signing secret (the previous one signs too for 24 h)'),
    schema: { params: idParams, response: { 200: { $ref: 'webhook-secret#' }, 400: errorResponse, 404: errorResponse } },
    handler: async (request) => app.webhooks.rotate(managerOf(request), id(request)),
  });

  app.post<{ Body: { wait?: boolean } | undefined }>('/api/webhooks/endpoints/:id/test', {
    config: config('endpointTest', 'Send a test event (webhook.test); with wait, say what became of it'),
    schema: { params: idParams, body: { $ref: 'webhook-test-request#' }, response: { 200: { $ref: 'webhook-test-result#' }, 400: errorResponse, 404: errorResponse } },
    // the body is optional (callers before issue 49 send none): none is {}
    preValidation: async (request) => { request.body ??= {}; },
    handler: async (request) => app.webhooks.test(managerOf(request), id(request), { wait: request.body?.wait === true }),
  });

  app.get<{ Querystring: { offset?: string; limit?: string } }>('/api/webhooks/endpoints/:id/messages', {
    config: config('messageList', 'The endpoint\'s log: its messages, newest first'),
    schema: { params: idParams, querystring: { $ref: 'webhook-page-query#' }, response: { 200: { $ref: 'webhook-message-list#' }, 400: errorResponse, 404: errorResponse } },
    handler: async (request) => app.webhooks.messages(managerOf(request), id(request), page(request.query)),
  });

  app.post<{ Body: { since: string } }>('/api/webhooks/endpoints/:id/recover', {
    config: config('recover', 'Send again the messages that failed since a time'),
    schema: { params: idParams, body: { $ref: 'webhook-recover-request#' }, response: { 200: { $ref: 'webhook-recover-result#' }, 400: errorResponse, 404: errorResponse } },
    handler: async (request) => app.webhooks.recover(managerOf(request), id(request), request.body.since),
  });

  app.get('/api/webhooks/messages/:id', {
    config: config('messageGet', 'One message with its payload and every attempt'),
    schema: { params: idParams, response: { 200: { $ref: 'webhook-message#' }, 400: errorResponse, 404: errorResponse } },
    handler: async (request) => app.webhooks.message(managerOf(request), id(request)),
  });

  app.post('/api/webhooks/messages/:id/resend', {
    config: config('messageResend', 'Send one message again now (same webhook-id)'),
    schema: { params: idParams, response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => app.webhooks.resend(managerOf(request), id(request)),
  });
}
