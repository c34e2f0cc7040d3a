/**
 * Terms of service (spec §4 "Terms modal", §7 "Terms"). Documents are PDFs stored as versioned
 * templates (terms_template; one current version per group). A user accepts each current
 * document; until then the auth plugin refuses their other calls (ACCESS.md). These routes are
 * open to them (`termsExempt`), and to every role: an ADMIN or ADVISOR may read and accept too.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sql, type Kysely } from 'kysely';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';
import { HttpError } from '../http-error.ts';
import { normaliseRow } from '../resources/rows.ts';

interface TemplateStatus {
  templateId: number;
  name: string;
  group: string;
  version: number;
  accepted: boolean;
  acceptedAt: string | null;
}

/** The current documents, in a stable order, with this user's acceptance of each. */
export async function termsStatus(db: Kysely<any>, userId: number): Promise<{ allAccepted: boolean; documents: TemplateStatus[] }> {
  const rows = await db.selectFrom('terms_template as t')
    .leftJoin('terms_acceptance as a', (join) => join.onRef('a.templateId', '=', 't.id').on('a.userId', '=', userId))
    .select(['t.id as templateId', 't.name', 't.grupa as group', 't.version', 'a.acceptedAt'])
    .where('t.current', '=', true)
    .orderBy('t.id')
    .execute();
  const documents = rows.map((r) => ({
    templateId: r.templateId,
    name: r.name,
    group: r.group,
    version: r.version,
    accepted: r.acceptedAt !== null,
    acceptedAt: r.acceptedAt === null ? null : new Date(r.acceptedAt).toISOString(),
  }));
  return { allAccepted: documents.every((d) => d.accepted), documents };
}

const pdfResponse = { description: 'The PDF document', content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } } };

export default async function termsRoutes(app: FastifyInstance) {
  const t = (k: string) => app.config.t(k);
  const tags = ['terms'];

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
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true },
    schema: { tags, response: { 200: { $ref: 'terms-status#' } } },
    handler: async (request) => termsStatus(app.db, request.session!.userId),
  });

  app.get('/api/terms/next', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true },
    schema: {
      tags,
      description: 'The first current document the user has not accepted, as a PDF (headers X-Template-Id, X-Template-Name); 204 when none is left.',
      response: { 200: pdfResponse, 204: { type: 'null', description: 'Nothing left to accept' } },
    },
    handler: async (request, reply) => {
      const doc = await app.db.selectFrom('terms_template as t')
        .select(['t.id', 't.name', 't.version', 't.pdf'])
        .where('t.current', '=', true)
        .where((eb) => eb.not(eb.exists(eb.selectFrom('terms_acceptance as a').select(sql`1`.as('one'))
          .whereRef('a.templateId', '=', 't.id').where('a.userId', '=', request.session!.userId))))
        .orderBy('t.id')
        .executeTakeFirst();
      if (!doc) return reply.status(204).send();
      return sendPdf(reply, doc);
    },
  });

  app.get<{ Querystring: { templateId: string } }>('/api/terms/latest', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true },
    schema: {
      tags,
      description: 'The current version of the document group that templateId belongs to, as a PDF.',
      // query values arrive as text; the API's validator does not coerce types
      querystring: { type: 'object', required: ['templateId'], properties: { templateId: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } },
      response: { 200: pdfResponse, 404: { $ref: 'error-response#' } },
    },
    handler: async (request, reply) => {
      const doc = await app.db.selectFrom('terms_template as t')
        .innerJoin('terms_template as asked', 'asked.grupa', 't.grupa')
        .select(['t.id', 't.name', 't.version', 't.pdf'])
        .where('asked.id', '=', Number(request.query.templateId))
        .where('t.current', '=', true)
        .executeTakeFirst();
      if (!doc) throw new HttpError(404, t('terms:documentMissing'));
      return sendPdf(reply, doc);
    },
  });

  /** Records acceptance of current templates (idempotent: a second acceptance keeps the first date). */
  const accept = async (userId: number, templateIds: number[]) => {
    if (!templateIds.length) return;
    await app.db.insertInto('terms_acceptance')
      .values(templateIds.map((templateId) => ({ userId, templateId, acceptedAt: new Date() })))
      .onConflict((oc) => oc.columns(['userId', 'templateId']).doNothing())
      .execute();
  };

  app.post<{ Body: { templateId: number } }>('/api/terms/accept', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true },
    schema: { tags, body: { $ref: 'terms-accept-request#' }, response: { 200: { $ref: 'terms-status#' }, 400: { $ref: 'error-response#' } } },
    handler: async (request) => {
      const { templateId } = request.body;
      const template = await app.db.selectFrom('terms_template').select(['id']).where('id', '=', templateId).where('current', '=', true).executeTakeFirst();
      if (!template) {
        // an old version (or none): accepting it would not let the user in, so say so
        const message = t('terms:notCurrent');
        throw new HttpError(400, message, { code: 'VALIDATION', errors: [{ field: 'templateId', message }] });
      }
      await accept(request.session!.userId, [templateId]);
      return termsStatus(app.db, request.session!.userId);
    },
  });

  app.post('/api/terms/accept-current', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true },
    schema: { tags, description: 'Accepts every current document at once.', response: { 200: { $ref: 'terms-status#' } } },
    handler: async (request) => {
      const current = await app.db.selectFrom('terms_template').select('id').where('current', '=', true).execute();
      await accept(request.session!.userId, current.map((r) => r.id));
      return termsStatus(app.db, request.session!.userId);
    },
  });

  app.get<{ Querystring: { login?: string; limit?: string } }>('/api/terms/history', {
    config: { access: { resource: 'acceptance-history' } },
    schema: {
      tags,
      description: 'Who accepted which document and when, newest first (the admin\'s acceptance history; the table screen pages through /api/acceptance-history/table2).',
      querystring: {
        type: 'object',
        properties: { login: { type: 'string', maxLength: 50, pattern: NO_NUL_PATTERN }, limit: { type: 'string', pattern: '^[1-9][0-9]{0,2}$|^1000$', description: '1…1000, default 200' } },
      },
      response: { 200: { $ref: 'acceptance-history-list#' } },
    },
    handler: async (request) => {
      let q = app.db.selectFrom('v_terms_acceptance')
        .select(['id', 'userId', 'login', 'name', 'surname', 'client', 'templateId', 'templateName', 'group', 'acceptedAt', 'klientSymbol'])
        .orderBy('acceptedAt', 'desc').orderBy('id', 'desc')
        .limit(Number(request.query.limit ?? 200));
      if (request.query.login) q = q.where(sql`lower("login")`, '=', request.query.login.toLowerCase());
      const rows = await q.execute();
      return rows.map((r) => normaliseRow(r, app.config.bundle.schemas['acceptance-history']));
    },
  });
}
