/**
 * Terms of service (spec §4 "Terms modal", §7 "Terms"). Documents are PDFs stored as versioned
 * templates (terms_template; one current version per group). A user accepts each current
 * document; until then the auth plugin refuses their other calls (ACCESS.md). These routes are
 * open to them (`termsExempt`), and to every role: an ADMIN or ADVISOR may read and accept too.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';
import { HttpError } from '../http-error.ts';
import { actorOf } from '../audit/index.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { normaliseRow } from '../db/rows.ts';

/** The terms status of a user (kept here for the callers that import it from the route module). */
export { termsStatus } from '../repositories/terms.ts';

const pdfResponse = binaryResponse('The PDF document (headers X-Template-Id, X-Template-Name)', ['application/pdf'], 'inline, with the document\'s name and version');
const errorResponse = { $ref: 'error-response#' };
const op = (action: string, summary: string) => ({ resource: 'terms', action, summary });

export default async function termsRoutes(app: FastifyInstance) {
  const t = (k: string) => app.config.t(k);

  const sendPdf = (reply: FastifyReply, doc: { id: number; name: string; version: number; pdf: Uint8Array | null }) => {
    if (!doc.pdf) throw new HttpError(404, t('terms:documentMissing'));
    const filename = `${doc.name} v${doc.version}.pdf`;
    return reply
      .header('content-type', 'application/pdf')
      // the runtime accepts the document it was shown, named by these headers
      .header('x-template-id', String(doc.id))
      .header('x-template-name', encodeURIComponent(doc.name))
      .header('content-disposition', `inline; filename*=UTF-8''${encodeURIComponent(filename)}`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(doc.pdf));
  };

  app.get('/api/terms/status', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true, operation: op('status', 'Whether the user has accepted every current terms document') },
    schema: { response: { 200: { $ref: 'terms-status#' } } },
    handler: async (request) => app.terms.status(request.session!.userId),
  });

  app.get('/api/terms/next', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true, operation: op('next', 'The next terms document to accept (PDF), or 204 when none is left') },
    schema: {
      description: 'The first current document the user has not accepted, as a PDF (headers X-Template-Id, X-Template-Name); 204 when none is left.',
      response: { 200: pdfResponse, 204: { type: 'null', description: 'Nothing left to accept' }, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const doc = await app.terms.nextToAccept(request.session!.userId);
      if (!doc) return reply.status(204).send();
      return sendPdf(reply, doc);
    },
  });

  app.get<{ Querystring: { templateId: string } }>('/api/terms/latest', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true, operation: op('latest', 'The current version of a terms document group (PDF)') },
    schema: {
      description: 'The current version of the document group that templateId belongs to, as a PDF.',
      // query values arrive as text; the API's validator does not coerce types
      querystring: { type: 'object', required: ['templateId'], properties: { templateId: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } },
      response: { 200: pdfResponse, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const doc = await app.terms.currentOfGroupOf(Number(request.query.templateId));
      if (!doc) throw new HttpError(404, t('terms:documentMissing'));
      return sendPdf(reply, doc);
    },
  });

  app.post<{ Body: { templateId: number } }>('/api/terms/accept', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true, operation: op('accept', 'Accept one terms document') },
    schema: { body: { $ref: 'terms-accept-request#' }, response: { 200: { $ref: 'terms-status#' } } },
    handler: async (request) => {
      const { templateId } = request.body;
      if (!(await app.terms.isCurrent(templateId))) {
        // an old version (or none): accepting it would not let the user in, so say so
        const message = t('terms:notCurrent');
        throw new HttpError(400, message, { code: 'VALIDATION', errors: [{ field: 'templateId', message }] });
      }
      await app.terms.acceptWithTrail(actorOf(request), request.session!.userId, [templateId]);
      return app.terms.status(request.session!.userId);
    },
  });

  app.post('/api/terms/accept-current', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true, operation: op('acceptCurrent', 'Accept every current terms document at once') },
    schema: { description: 'Accepts every current document at once.', response: { 200: { $ref: 'terms-status#' } } },
    handler: async (request) => {
      await app.terms.acceptWithTrail(actorOf(request), request.session!.userId, await app.terms.currentIds());
      return app.terms.status(request.session!.userId);
    },
  });

  app.get<{ Querystring: { login?: string; limit?: string } }>('/api/terms/history', {
    config: { access: { resource: 'acceptance-history' }, operation: op('history', 'Who accepted which terms document and when') },
    schema: {
      description: 'Who accepted which document and when, newest first (the admin\'s acceptance history; the table screen pages through /api/acceptance-history/table2).',
      querystring: {
        type: 'object',
        properties: { login: { type: 'string', maxLength: 50, pattern: NO_NUL_PATTERN }, limit: { type: 'string', pattern: '^[1-9][0-9]{0,2}$|^1000$', description: '1…1000, default 200' } },
      },
      response: { 200: { $ref: 'acceptance-history-list#' } },
    },
    handler: async (request) => {
      const rows = await app.terms.acceptanceHistory({ login: request.query.login, limit: Number(request.query.limit ?? 200) });
      return rows.map((r) => normaliseRow(r, app.config.bundle.schemas['acceptance-history']));
    },
  });
}
