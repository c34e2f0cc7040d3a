/**
 * What is due (issue 24): the counts of each reminder rule and a page of its items, within the
 * caller's rows. Every signed-in role may ask; which rules it is shown and which rows they count
 * are the rules' and resources' declarations (screens/reminders.json, schemas/resources/), read by
 * server/reminders/.
 */
import type { FastifyInstance } from 'fastify';
import type { Urgency } from '../reminders/rule-sql.ts';

export default async function reminderRoutes(app: FastifyInstance) {
  app.get('/api/reminders', {
    config: {
      access: { roles: ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] },
      operation: { resource: 'reminder', action: 'summary', summary: 'Count what is due, per reminder rule and urgency, within the caller\'s rows' },
    },
    schema: { response: { 200: { $ref: 'reminder-summary#' } } },
    handler: async (request) => app.reminders.summary(request.session!),
  });

  app.get<{ Querystring: { rule?: string; urgency?: Urgency; pojazdId?: string; offset?: string; limit?: string } }>('/api/reminders/items', {
    config: {
      access: { roles: ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] },
      operation: { resource: 'reminder', action: 'items', summary: 'List what is due, most urgent first, within the caller\'s rows' },
    },
    schema: { querystring: { $ref: 'reminder-items-query#' }, response: { 200: { $ref: 'reminder-items#' }, 400: { $ref: 'error-response#' } } },
    handler: async (request) => {
      // numbers arrive as digits (the query's patterns); the validator does not coerce
      const { rule, urgency, pojazdId, offset, limit } = request.query;
      const number = (value: string | undefined) => (value === undefined ? undefined : Number(value));
      return app.reminders.items(request.session!, { rule, urgency, pojazdId: number(pojazdId), offset: number(offset), limit: number(limit) });
    },
  });
}
