/**
 * Notifications (issue 25): the caller's own list, unread count,
 * marking read and settings (ACCESS.md "notifications … | self" for every role), and the
 * administrators' send-again and run-the-digest (ACCESS.md "notification log, send again, run
 * digest | ADMIN"). The log itself is the generic table of resource `notification`
 * (schemas/resources/notification.json). What a notification says is rendered for its reader
 * now (server/notifications/render.ts).
 */
import type { FastifyInstance } from 'fastify';
import type { Settings } from '../notifications/settings.ts';
import { actorOf } from '../audit/index.ts';

type Role = 'ADMIN' | 'MANAGER' | 'USER' | 'ADVISOR';
const SELF: { roles: Role[] } = { roles: ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] };
const ADMIN: { roles: Role[] } = { roles: ['ADMIN'] };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,14}$' } } } as const;
const errorResponse = { $ref: 'error-response#' };

export default async function notificationRoutes(app: FastifyInstance) {
  const op = (action: string, summary: string) => ({ resource: 'notification', action, summary });
  const id = (request: { params: unknown }) => Number((request.params as { id: string }).id);

  app.get<{ Querystring: { offset?: string; limit?: string; unread?: string } }>('/api/notifications', {
    config: { access: SELF, operation: op('list', "The caller's notifications, newest first, with the unread count") },
    schema: { querystring: { $ref: 'notification-list-query#' }, response: { 200: { $ref: 'notification-list#' }, 400: errorResponse } },
    handler: async (request) => {
      const { offset, limit, unread } = request.query;
      return app.notifications.list(request.session!, { offset: Number(offset ?? 0), limit: Number(limit ?? 20), unread: unread === 'true' });
    },
  });

  app.get('/api/notifications/unread-count', {
    config: { access: SELF, operation: op('unreadCount', "How many of the caller's notifications are unread (the bell)") },
    schema: { response: { 200: { $ref: 'notification-unread-count#' } } },
    handler: async (request) => app.notifications.unreadCount(request.session!),
  });

  app.post('/api/notifications/read-all', {
    config: { access: SELF, operation: op('readAll', "Mark all the caller's notifications read") },
    schema: { response: { 200: { $ref: 'notification-read-all#' } } },
    handler: async (request) => app.notifications.readAll(request.session!),
  });

  app.post('/api/notifications/:id/read', {
    config: { access: SELF, operation: op('read', "Mark one of the caller's notifications read") },
    schema: { params: idParams, response: { 200: { $ref: 'notification-read#' }, 400: errorResponse, 404: errorResponse } },
    handler: async (request) => app.notifications.markRead(request.session!, id(request)),
  });

  app.get('/api/notification-settings', {
    config: { access: SELF, operation: op('settings', "The caller's notification settings: events, daily digest and its hour") },
    schema: { response: { 200: { $ref: 'notification-settings#' } } },
    handler: async (request) => app.notifications.settings(request.session!),
  });

  app.put<{ Body: Omit<Settings, 'digestHour'> & { digestHour?: number } }>('/api/notification-settings', {
    config: { access: SELF, operation: op('saveSettings', "Save the caller's notification settings") },
    schema: { body: { $ref: 'notification-settings#' }, response: { 200: { $ref: 'notification-settings-saved#' }, 400: errorResponse } },
    handler: async (request) => app.notifications.saveSettings(request.session!, request.body, actorOf(request)),
  });

  app.post('/api/admin/notifications/:id/send-again', {
    config: { access: ADMIN, operation: op('sendAgain', 'Send a notification again (a failed one is queued again, a sent one anew)') },
    schema: { params: idParams, response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 404: errorResponse, 409: errorResponse } },
    handler: async (request) => app.notifications.sendAgain(id(request), actorOf(request)),
  });

  app.post('/api/admin/notifications/digest', {
    config: { access: ADMIN, operation: op('runDigest', 'Run the daily digest now for every user whose digest is on') },
    schema: { response: { 200: { $ref: 'notification-digest-result#' } } },
    handler: async (request) => {
      const result = await app.digest.run({ now: true, actor: actorOf(request) });
      return { message: app.config.t('notifications:messages.digestRun', { ...result }), ...result };
    },
  });
}
