/**
 * An invoice's files (spec §2 "Invoices", §7 "Invoices"): the invoice itself ('F', GET
 * /api/invoice/f) and its attachment ('A', GET /api/invoice/a), opened in a new browser window.
 *
 * A new window cannot send the bearer header, so the signed-in page first asks
 * POST /api/invoice/download-link {faktId} for a one-time token (server/downloads/tokens.ts) and the
 * window presents it in the URL. Who may ask, and for which rows, is exactly what the invoice
 * table resource declares (schemas/resources/invoice.json: access + row scope on v_invoice), so
 * the list and its files can never disagree. A token opens one file of the invoice it was issued
 * for, once (docs/decisions.md: the UI asks for a token per click).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Session } from '../auth/sessions.ts';
import { refuseDownload, sendDownload } from '../downloads/reply.ts';
import { issueDownloadToken, redeemDownloadToken } from '../downloads/tokens.ts';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';
import { HttpError } from '../http-error.ts';
import { binaryResponse } from '../plugins/openapi.ts';

/** The table resource whose access and rows the files follow. */
const RESOURCE = 'invoice';
/** What an invoice token opens (download_token.kind); refId is the faktId. */
export const INVOICE_TOKEN_KIND = 'invoice';

const FILE_KINDS = { f: 'F', a: 'A' } as const;

const errorResponse = { $ref: 'error-response#' };
const pdfResponse = binaryResponse('The PDF, shown in the window', ['application/pdf'], 'inline, with the file name');

export default async function invoiceFileRoutes(app: FastifyInstance) {
  const t = (key: string) => app.config.t(key);

  /**
   * Whether the caller sees this invoice: the table-query service checks the row through the
   * resource's declaration as it is now (a configuration reload applies). A role the resource does
   * not name gets 403; a row outside the caller's scope is simply not found.
   */
  const isVisible = (session: Session, faktId: number) => app.tableQueries.isVisible(RESOURCE, session, faktId);

  app.post<{ Body: { faktId: number } }>('/api/invoice/download-link', {
    config: { access: { resource: RESOURCE }, operation: { resource: RESOURCE, action: 'downloadLink', summary: 'A one-time token to open the files of an invoice' } },
    schema: {
      description: 'A one-time token for the files of one invoice the caller may see (its invoice or its attachment, one file, once, for a few minutes).',
      body: { $ref: 'invoice-download-link-request#' },
      response: { 200: { $ref: 'download-link-response#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      const session = request.session!;
      const { faktId } = request.body;
      // another client's invoice is answered as if it did not exist (ACCESS.md)
      if (!(await isVisible(session, faktId))) throw new HttpError(404, t('errors:notFound'));
      const token = await issueDownloadToken(app.db, session, { kind: INVOICE_TOKEN_KIND, refId: String(faktId) });
      return { token };
    },
  });

  /**
   * The user a redeemed token was issued to, as a session for the row check. The token's session
   * was live when it was redeemed; the check is made again here because a few minutes can pass
   * between issuing and opening, and an account's role or client can change in between.
   */
  // no vehicle: a vehicle scope (none is declared for invoices) would then match nothing
  const issuedTo = (userId: number): Promise<Session | null> => app.users.asSession(userId);

  const serveFile = (kind: (typeof FILE_KINDS)[keyof typeof FILE_KINDS]) =>
    async (request: FastifyRequest<{ Querystring: { id: string; token?: string } }>, reply: FastifyReply) => {
      const faktId = Number(request.query.id);
      const refuse = (status: number, detail: string, code: string) => refuseDownload(request, reply, status, detail, code);
      const redeemed = await redeemDownloadToken(app.db, request.query.token, INVOICE_TOKEN_KIND, String(faktId));
      if (!redeemed) return refuse(403, t('errors:download.expired'), 'DOWNLOAD_EXPIRED');
      const user = await issuedTo(redeemed.userId);
      if (!user) return refuse(403, t('errors:download.expired'), 'DOWNLOAD_EXPIRED');
      try {
        if (!(await isVisible(user, faktId))) return refuse(404, t('errors:notFound'), 'NOT_FOUND');
      } catch (e) {
        // the role lost access to invoices since the link was issued
        if (e instanceof HttpError) return refuse(e.statusCode, e.detail, e.extra.code ?? 'FORBIDDEN');
        throw e;
      }
      const file = await app.db
        .selectFrom('invoice_file')
        .select(['filename', 'mime', 'content'])
        .where('faktId', '=', faktId)
        .where('kind', '=', kind)
        .executeTakeFirst();
      if (!file) return refuse(404, t('invoice:files.missing'), 'NOT_FOUND');
      return sendDownload(reply, { filename: file.filename, mime: file.mime, content: file.content, inline: true });
    };

  const fileRoute = (path: keyof typeof FILE_KINDS, action: string, summary: string, description: string) =>
    app.get<{ Querystring: { id: string; token?: string } }>(`/api/invoice/${path}`, {
      // opened in a new window: the token in the URL is the credential, not a bearer header
      config: { access: 'public', operation: { resource: RESOURCE, action, summary, errorPages: true } },
      schema: {
        description,
        // query values arrive as text; the API's validator does not coerce types
        querystring: {
          type: 'object',
          required: ['id'],
          properties: {
            id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$', description: 'faktId' },
            token: { type: 'string', maxLength: 200, pattern: NO_NUL_PATTERN, description: 'from POST /api/invoice/download-link' },
          },
        },
        response: { 200: pdfResponse, 400: errorResponse, 403: errorResponse, 404: errorResponse },
      },
      handler: serveFile(FILE_KINDS[path]),
    });

  fileRoute('f', 'file', 'The invoice as a PDF, for a one-time token', 'The invoice (Faktura) as a PDF, for a one-time token of this invoice.');
  fileRoute('a', 'attachment', 'The invoice\'s attachment as a PDF, for a one-time token', 'The invoice attachment (Załącznik do faktury) as a PDF, for a one-time token of this invoice.');
}
