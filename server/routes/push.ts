/**
 * Web Push (issue 47; server/push/ does the work), HTTP only. ACCESS.md "push subscriptions, push
 * test | self" for every role: any signed-in person, for his own devices; another's device is
 * answered 404, as if absent. Bad input is a 400 naming the field, in the caller's language.
 */
import type { FastifyInstance } from 'fastify';
import { actorOf } from '../audit/index.ts';
import type { SubscriptionBody } from '../push/service.ts';

/** Every role, each for his own devices (ACCESS.md "push subscriptions, push test | self"). */
const SELF = { roles: ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] as ('ADMIN' | 'MANAGER' | 'USER' | 'ADVISOR')[] };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } } as const;
const errorResponse = { $ref: 'error-response#' } as const;

export default async function pushRoutes(app: FastifyInstance) {
  const op = (action: string, summary: string) => ({ resource: 'push', action, summary });

  app.get('/api/push/public-key', {
    config: { access: SELF, operation: op('publicKey', 'The VAPID public key (base64url): the applicationServerKey to subscribe with') },
    schema: { response: { 200: { $ref: 'push-public-key#' } } },
    handler: async () => ({ publicKey: await app.push.publicKey() }),
  });

  app.get('/api/push/subscriptions', {
    config: { access: SELF, operation: op('subscriptionList', 'The caller\'s devices that receive push notifications') },
    schema: { response: { 200: { $ref: 'push-subscription-list#' } } },
    handler: async (request) => app.push.list(request.session!),
  });

  app.post<{ Body: SubscriptionBody }>('/api/push/subscriptions', {
    config: { access: SELF, operation: op('subscribe', 'Registers this browser\'s PushSubscription (its toJSON()) for the caller') },
    schema: { body: { $ref: 'push-subscription-request#' }, response: { 200: { $ref: 'push-subscribed#' }, 400: errorResponse } },
    handler: async (request) => {
      const { id } = await app.push.subscribe(request.session!, actorOf(request), request.body, request.headers['user-agent']);
      const [subscription] = (await app.push.list(request.session!)).filter((s) => s.id === id);
      return { message: app.config.t('push:messages.subscribed'), subscription };
    },
  });

  app.delete<{ Params: { id: string } }>('/api/push/subscriptions/:id', {
    config: { access: SELF, operation: op('subscriptionDelete', 'Removes one of the caller\'s devices: it gets no more push notifications') },
    schema: { params: idParams, response: { 200: { $ref: 'message-response#' }, 404: errorResponse } },
    handler: async (request) => {
      await app.push.remove(request.session!, actorOf(request), Number(request.params.id));
      return { message: app.config.t('push:messages.removed') };
    },
  });

  app.post<{ Body: { id?: number } }>('/api/push/test', {
    config: { access: SELF, operation: op('test', 'Wyślij powiadomienie testowe: a test message to the caller\'s devices') },
    schema: { body: { $ref: 'push-test-request#' }, response: { 200: { $ref: 'push-test-result#' }, 400: errorResponse, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => app.push.test(request.session!, request.body?.id),
  });
}
