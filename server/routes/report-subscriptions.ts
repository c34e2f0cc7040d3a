/**
 * Report subscriptions (issue 46; server/reports/subscriptions.ts does the work), HTTP only. Who:
 * ADMIN and MANAGER (the roles that run reports); ACCESS.md "report subscriptions | self, and list
 * all | self": each his own, an administrator sees and deletes every one; another's subscription
 * is answered 404, as if absent. Bad input is a 400 naming the field, in the caller's language.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../audit/index.ts';
import type { Session } from '../auth/session.ts';
import type { Frequency, Format, Selection } from '../reports/subscriptions.ts';
import { invalid, selectionOf } from './reports.ts';
import type { RunBody } from './reports.ts';
import { isoDayText } from '../../runtime/core/date-text.ts';

const FLEET = ['ADMIN', 'MANAGER'] as const;
const DEFAULT_DAY = 1;
const DEFAULT_HOUR = 7;

interface SubscribeBody {
  report: string;
  frequency: Frequency;
  format: Format;
  params?: Pick<RunBody, 'groupBy' | 'filters'>;
  day?: number;
  hour?: number;
}

const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } } as const;
const idOf = (request: { params: { id: string } }) => Number(request.params.id);
const errorResponse = { $ref: 'error-response#' } as const;

export default async function reportSubscriptionRoutes(app: FastifyInstance) {
  const session = (request: FastifyRequest) => request.session as Session;
  const config = (action: string, summary: string) => ({ access: { roles: [...FLEET] }, operation: { resource: 'reports', action, summary } });

  app.post<{ Body: SubscribeBody }>('/api/report-subscriptions', {
    config: config('subscriptionCreate', 'Subscribes the caller to a report, e-mailed weekly or monthly as xlsx or PDF'),
    schema: { body: { $ref: 'report-subscription-request#' }, response: { 200: { $ref: 'report-subscription-created#' }, 400: errorResponse } },
    handler: async (request) => {
      const t = app.config.t;
      const body = request.body;
      const report = app.config.bundle.reports[body.report];
      if (!report || !(report.roles as string[]).includes(session(request).role)) throw invalid('report', t('reports:errors.unknownReport'));
      const params = selectionOf(app.config, report, body.params ?? {}, 'params/');
      const day = body.day ?? DEFAULT_DAY;
      if (body.frequency === 'weekly' && (day < 1 || day > 7)) throw invalid('day', t('reports:subscriptions.errors.weekday'));
      if (body.frequency === 'monthly' && (day < 1 || day > 28)) throw invalid('day', t('reports:subscriptions.errors.dayOfMonth'));
      const hour = body.hour ?? DEFAULT_HOUR;
      if (hour < 0 || hour > 23) throw invalid('hour', t('reports:subscriptions.errors.hour'));
      const selection: Selection = { groupBy: params.groupBy, ...(Object.keys(params.filters).length ? { filters: params.filters as Selection['filters'] } : {}) };
      const id = await app.reportSubscriptions.create(session(request), actorOf(request), {
        report: body.report, frequency: body.frequency, format: body.format, params: selection, day, hour,
      });
      const [subscription] = await app.reportSubscriptions.list(session(request), t, id);
      return { id, message: t('reports:subscriptions.saved', { report: subscription.reportLabel }), subscription };
    },
  });

  app.get('/api/report-subscriptions', {
    config: config('subscriptionList', 'The caller\'s report subscriptions with their last sends (ADMIN: everyone\'s)'),
    schema: { response: { 200: { $ref: 'report-subscription-list#' } } },
    handler: async (request) => app.reportSubscriptions.list(session(request), app.config.t),
  });

  app.delete<{ Params: { id: string } }>('/api/report-subscriptions/:id', {
    config: config('subscriptionDelete', 'Deletes a report subscription (the caller\'s own; ADMIN any)'),
    schema: { params: idParams, response: { 200: { $ref: 'message-response#' }, 404: errorResponse } },
    handler: async (request) => {
      const t = app.config.t;
      const [subscription] = await app.reportSubscriptions.list(session(request), t, idOf(request));
      await app.reportSubscriptions.remove(session(request), actorOf(request), idOf(request));
      return { message: t('reports:subscriptions.deleted', { report: subscription?.reportLabel ?? '' }) };
    },
  });

  app.post<{ Params: { id: string } }>('/api/report-subscriptions/:id/send', {
    config: config('subscriptionSend', 'Wyślij teraz: e-mails the last complete period to the subscription\'s owner'),
    schema: { params: idParams, response: { 200: { $ref: 'report-send-response#' }, 404: errorResponse } },
    handler: async (request) => {
      const t = app.config.t;
      const send = await app.reportSubscriptions.sendNow(session(request), idOf(request), t);
      const pattern = app.config.language.datePattern;
      const dates = { from: isoDayText(send.periodFrom, pattern), to: isoDayText(send.periodTo, pattern) };
      const message = send.state === 'skipped'
        ? t('reports:subscriptions.skipped', { ...dates, reason: send.reason ?? '' })
        : t('reports:subscriptions.sent', dates);
      return { message, send };
    },
  });

  app.get<{ Params: { id: string } }>('/api/report-subscriptions/:id/sends', {
    config: config('subscriptionSends', 'The log of a subscription\'s sends, newest first, with their state and reason'),
    schema: { params: idParams, response: { 200: { $ref: 'report-send-list#' }, 404: errorResponse } },
    handler: async (request) => app.reportSubscriptions.log(session(request), app.config.t, idOf(request)),
  });
}
