/**
 * The order calls of spec §7 "Orders and positions" (issue 12), HTTP only: each declares its
 * access (ACCESS.md: the order resource's roles; the cost estimate only ADVISOR), its request and
 * response schemas, and hands over to app.orderService, which applies the row scope and the
 * rules of schemas/resources/order.json.
 */
import type { FastifyInstance } from 'fastify';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';
import { actorOf } from '../audit/index.ts';
import type { Session } from '../auth/sessions.ts';
import type { OrderAddBody } from '../services/orders.ts';
import type { PositionValues } from '../repositories/orders.ts';

/** A record id in a path: digits only, so that anything else is a 400 and never reaches SQL. */
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } } as const;
const message = { $ref: 'message-response#' };
const orderAccess = { access: { resource: 'order' } } as const;
const errorResponse = { $ref: 'error-response#' };
/** The order call's operation (plugins/openapi.ts). */
const order = (action: string, summary: string) => ({ ...orderAccess, operation: { resource: 'order', action, summary } });
/** Autocomplete query: fewer than 3 characters answer an empty list; the text is compared upper-cased. */
const hintQuery = {
  type: 'object',
  additionalProperties: false,
  properties: {
    searchText: { type: 'string', maxLength: 50, pattern: NO_NUL_PATTERN },
    additionalParam: { type: 'string', maxLength: 20, pattern: NO_NUL_PATTERN },
  },
} as const;

export default async function orderRoutes(app: FastifyInstance) {
  const session = (request: { session?: Session | null }) => request.session!;
  const id = (request: { params: unknown }) => Number((request.params as { id: string }).id);

  app.post('/api/order/add', {
    config: order('add', 'Add an order with its positions'),
    schema: { body: { $ref: 'order-add-request#' }, response: { 200: { $ref: 'order-add-response#' }, 404: errorResponse } },
    handler: async (request) => app.orderService.add(session(request), request.body as OrderAddBody, actorOf(request)),
  });

  app.get('/api/order/details/:id', {
    config: order('details', 'An order with its positions, vehicle and what the caller may do'),
    schema: { params: idParams, response: { 200: { $ref: 'order-details#' }, 404: errorResponse } },
    handler: async (request) => app.orderService.details(session(request), String(id(request))),
  });

  app.put('/api/order/:id', {
    config: order('update', 'Change the fields of an order the caller may edit'),
    schema: { params: idParams, body: { $ref: 'order-update-request#' }, response: { 200: message, 404: errorResponse } },
    handler: async (request) => app.orderService.update(session(request), id(request), request.body as Record<string, unknown>, actorOf(request)),
  });

  app.post('/api/order/:id/transition', {
    config: order('transition', 'Move an order to another status (accept, reject, close …)'),
    schema: { params: idParams, body: { $ref: 'order-transition-request#' }, response: { 200: message, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => app.orderService.transition(session(request), id(request), (request.body as { to: number }).to, actorOf(request)),
  });

  // spec §7: a GET that confirms (the runtime calls it so); ACCESS.md: ADVISOR, orders of their station
  app.get('/api/order/confirm-pricing/:id', {
    config: { access: { roles: ['ADVISOR'] }, operation: { resource: 'order', action: 'confirmPricing', summary: 'Confirm an order\'s cost estimate (an advisor of its station)' } },
    schema: { params: idParams, response: { 200: message, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => app.orderService.confirmPricing(session(request), id(request), actorOf(request)),
  });

  app.get('/api/order/car-user/:id', {
    config: { access: { resource: 'car' }, operation: { resource: 'order', action: 'carUser', summary: 'A vehicle with its user, for an order' } },
    schema: { params: idParams, response: { 200: { $ref: 'car#' }, 404: errorResponse } },
    handler: async (request) => app.tableQueries.byId('car', session(request), String(id(request))),
  });

  app.post('/api/order-range-position', {
    config: order('positionAdd', 'Add a position to an order'),
    schema: { body: { $ref: 'order-position-create-request#' }, response: { 200: { $ref: 'order-position-response#' }, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => app.orderService.addPosition(session(request), request.body as PositionValues & { autId: number }, actorOf(request)),
  });

  app.get('/api/order-range-position/:id', {
    config: order('position', 'One position of an order'),
    schema: { params: idParams, response: { 200: { $ref: 'order-position-response#' }, 404: errorResponse } },
    handler: async (request) => app.orderService.position(session(request), id(request)),
  });

  app.put('/api/order-range-position/:id', {
    config: order('positionUpdate', 'Change a position of an order'),
    schema: { params: idParams, body: { $ref: 'order-position-request#' }, response: { 200: { $ref: 'order-position-response#' }, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => app.orderService.updatePosition(session(request), id(request), request.body as PositionValues, actorOf(request)),
  });

  app.delete('/api/order-range-position/:id', {
    config: order('positionDelete', 'Remove a position from an order'),
    schema: { params: idParams, response: { 200: message, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => app.orderService.deletePosition(session(request), id(request), actorOf(request)),
  });

  app.post('/api/order-range-plan', {
    config: { ...order('rangePlan', 'The service plan\'s positions for an intervention type and make'), readOnly: true },
    schema: { body: { $ref: 'order-range-plan-request#' }, response: { 200: { $ref: 'order-range-plan-response#' } } },
    handler: async (request) => {
      const { interw, marka } = request.body as { interw: string; marka: string };
      return app.orderService.rangePlan(interw, marka);
    },
  });

  app.post('/api/service-plan/table', {
    config: { ...order('servicePlanTable', 'The service plan\'s rows for an intervention type and make'), readOnly: true },
    schema: { body: { $ref: 'order-range-plan-request#' }, response: { 200: { $ref: 'service-plan-list#' } } },
    handler: async (request) => {
      const { interw, marka } = request.body as { interw: string; marka: string };
      return app.orderService.servicePlan(interw, marka);
    },
  });

  // spec §7 "Autocomplete": vehicles within the caller's vehicles (ACCESS.md car row), companies for anyone signed in
  app.get('/api/auto-complete/cars', {
    config: { access: { resource: 'car' }, operation: { resource: 'auto-complete', action: 'cars', summary: 'Vehicles of the caller whose registration starts with the text' } },
    schema: { querystring: hintQuery, response: { 200: { $ref: 'car-hint-list#' } } },
    handler: async (request) => app.orderService.carHints(session(request), (request.query as { searchText?: string }).searchText ?? ''),
  });

  app.get('/api/auto-complete/companies', {
    config: { access: 'signedIn', operation: { resource: 'auto-complete', action: 'companies', summary: 'Companies whose name or code contains the text' } },
    schema: { querystring: hintQuery, response: { 200: { $ref: 'company-hint-list#' } } },
    handler: async (request) => {
      const { searchText, additionalParam } = request.query as { searchText?: string; additionalParam?: string };
      return app.orderService.companyHints(searchText ?? '', additionalParam ? [additionalParam] : []);
    },
  });

  // spec §7: "also POST with additionalParams"; the same access (any signed-in user) and answer
  app.post('/api/auto-complete/companies', {
    config: { access: 'signedIn', readOnly: true, operation: { resource: 'auto-complete', action: 'companiesSearch', summary: 'Companies whose name or code contains the text, with additional parameters' } },
    schema: { body: { $ref: 'company-hint-request#' }, response: { 200: { $ref: 'company-hint-list#' } } },
    handler: async (request) => {
      const { searchText, additionalParams } = request.body as { searchText: string; additionalParams?: { rodzaj?: string[] } };
      return app.orderService.companyHints(searchText, additionalParams?.rodzaj ?? []);
    },
  });
}
