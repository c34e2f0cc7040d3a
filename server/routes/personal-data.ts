/**
 * A person's data (issue 37, RODO art. 15, 17, 20; ACCESS.md "personal data of a person: export,
 * anonymise — ADMIN"), from the user's dialog in Administracja → Użytkownicy:
 *
 * - POST /api/users/{id}/personal-data/export builds the zip of every row that names the person
 *   (server/personal-data/service.ts), keeps it in export_file with a one-time token bound to the
 *   administrator's session (server/downloads/tokens.ts, as the Excel exports and invoices), and
 *   records the export in the trail (who exported whom, which files, how many rows). The answer's
 *   `data` is the link; GET /api/personal-data/download?token=… hands the file out once and removes it.
 * - POST /api/users/{id}/anonymise forgets the person: refused while they have an open vehicle
 *   assignment, one's own account refused; the rewrite, the account's closing, its sessions' end
 *   and the trail's entry in one transaction (docs/decisions.md "RODO: export and anonymisation").
 *
 * - The same two for an employee (driver), from Administracja → Pracownicy:
 *   POST /api/employees/{pracId}/personal-data/export and …/anonymise. An employee with an account
 *   is the person of that account (the same export, the same anonymisation, recorded under the
 *   account); one without is the employee record and the business records naming them, recorded
 *   under the employee.
 *
 * No integration key calls them (no `integration` declaration: 403 KEY_NOT_ALLOWED).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { refuseDownload, sendDownload } from '../downloads/reply.ts';
import { redeemDownloadToken } from '../downloads/tokens.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { EMPLOYEE_RESOURCE, personalDataService, PERSONAL_DATA_TOKEN_KIND, RESOURCE, ZIP_MIME } from '../personal-data/requests.ts';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';

const errorResponse = { $ref: 'error-response#' };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$', description: 'the user\'s id' } } };
const employeeParams = { type: 'object', required: ['pracId'], properties: { pracId: { type: 'string', pattern: '^[1-9][0-9]{0,8}$', description: 'the employee\'s id (pracId)' } } };
const linkAnswer = {
  type: 'object', required: ['message', 'data'], additionalProperties: false,
  properties: {
    message: { type: 'string' },
    data: { type: 'string', description: '/api/personal-data/download?token=… — one use, valid for a few minutes, only for the session that asked.' },
  },
};

export default async function personalDataRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  const employeeOp = (action: string, summary: string) => ({ resource: EMPLOYEE_RESOURCE, action, summary });
  const admin = { roles: ['ADMIN' as const] };
  // the export, the anonymisation and their trail entries: server/personal-data/requests.ts (issue 45: routes are HTTP only)
  const { exportPerson, anonymiseUser, anonymiseEmployee, takeExport } = personalDataService(app);

  const responses = { 400: errorResponse, 403: errorResponse, 404: errorResponse };
  const exportDescription = 'Builds a zip of every row the portal holds that names the person: the account, the employee record, assignments, readings, orders and damages ' +
    'they reported or that name them, notes, attachments (described, not their contents), sign-ins, acceptances, notifications, sessions, passkeys, ' +
    'saved table settings and the audit entries of them — as JSON and as one xlsx, with an index in Polish (indeks.txt). Answers a one-time download link. ' +
    'Recorded in the audit trail.';

  app.post<{ Params: { id: string } }>('/api/users/:id/personal-data/export', {
    config: { access: admin, operation: op('personalDataExport', 'Export every row that names a person (RODO) as a one-time download') },
    schema: { description: exportDescription, params: idParams, response: { 200: linkAnswer, ...responses } },
    handler: async (request) => {
      return exportPerson(request, { userId: Number(request.params.id) });
    },
  });

  app.post<{ Params: { pracId: string } }>('/api/employees/:pracId/personal-data/export', {
    config: { access: admin, operation: employeeOp('personalDataExport', 'Export every row that names an employee (RODO) as a one-time download') },
    schema: {
      description: `${exportDescription} An employee with an account in the portal is the person of that account: the same export as from the user.`,
      params: employeeParams, response: { 200: linkAnswer, ...responses },
    },
    handler: async (request) => {
      return exportPerson(request, { pracId: Number(request.params.pracId) });
    },
  });

  app.get<{ Querystring: { token?: string } }>('/api/personal-data/download', {
    // opened without the bearer header (a download link): the one-time token is the credential
    config: { access: 'public', operation: { ...op('personalDataDownload', 'Download a prepared personal-data export, once'), errorPages: true } },
    schema: {
      description: 'The prepared zip, once, for the administrator\'s session that prepared it; then it is gone.',
      querystring: { type: 'object', properties: { token: { type: 'string', maxLength: 200, pattern: NO_NUL_PATTERN } } },
      response: { 200: binaryResponse('The zip of the person\'s data', [ZIP_MIME], 'attachment, with the file name'), 403: errorResponse },
    },
    handler: async (request, reply) => {
      const refuse = () => refuseDownload(request, reply, 403, t('errors:download.expired'), 'DOWNLOAD_REFUSED');
      const redeemed = await redeemDownloadToken(app.db, request.query.token, PERSONAL_DATA_TOKEN_KIND);
      if (!redeemed) return refuse();
      // the administrator must still be one (a role cannot change, but the account may have ended)
      const issuer = await app.users.byId(redeemed.userId);
      if (!issuer || issuer.rola !== 'ADMIN') return refuse();
      const file = await takeExport(Number(redeemed.refId), redeemed.userId);
      if (!file) return refuse();
      return sendDownload(reply, { filename: file.filename, mime: file.mime, content: file.content });
    },
  });

  const anonymiseDescription = 'Replaces the person\'s name, e-mail, phones, login and address by a pseudonym (names, login) or nothing, wherever a field declared personal ' +
    '(x-personal of the entity schemas) holds them: orders, damages, notes, assignments, sign-ins, notifications and webhook messages stay, without them. ' +
    'The account is closed (as deleted: no password, no single sign-on identifier, no passkeys or second factor) and its sessions end on every process. ' +
    '409 while the person has an open vehicle assignment or is already anonymised; 400 for one\'s own account. The audit trail is append-only: its ' +
    'earlier entries are not rewritten. Recorded in the trail.';
  const anonymiseResponses = { 200: { $ref: 'message-response#' }, ...responses, 409: errorResponse };

  app.post<{ Params: { id: string } }>('/api/users/:id/anonymise', {
    config: { access: admin, operation: op('anonymise', 'Anonymise a person (RODO art. 17) and close the account') },
    schema: { description: anonymiseDescription, params: idParams, response: anonymiseResponses },
    handler: async (request: FastifyRequest<{ Params: { id: string } }>) => anonymiseUser(request, Number(request.params.id)),
  });

  app.post<{ Params: { pracId: string } }>('/api/employees/:pracId/anonymise', {
    config: { access: admin, operation: employeeOp('anonymise', 'Anonymise an employee (RODO art. 17), and close their account if they have one') },
    schema: {
      description: `${anonymiseDescription} An employee with an account in the portal is the person of that account: the same anonymisation as from the user; ` +
        'one without has no account to close: the employee record is named by the pseudonym and emptied of its contact data.',
      params: employeeParams, response: anonymiseResponses,
    },
    handler: async (request: FastifyRequest<{ Params: { pracId: string } }>) => anonymiseEmployee(request, Number(request.params.pracId)),
  });
}
