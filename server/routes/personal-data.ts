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
 * No integration key calls them (no `integration` declaration: 403 KEY_NOT_ALLOWED).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf, CHANGED, recordChange } from '../audit/index.ts';
import { timeZoneOf } from '../config/locale.ts';
import { refuseDownload, sendDownload } from '../downloads/reply.ts';
import { DOWNLOAD_TOKEN_TTL_MS, issueDownloadToken, redeemDownloadToken } from '../downloads/tokens.ts';
import { HttpError } from '../http-error.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { findPerson, type Person } from '../personal-data/person.ts';
import { anonymise, exportArchive, personRows, type Pseudonym } from '../personal-data/service.ts';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';

const RESOURCE = 'users';
/** What a personal-data token opens (download_token.kind); refId is the export_file id. */
export const PERSONAL_DATA_TOKEN_KIND = 'personal-data';
const ZIP_MIME = 'application/zip';

const errorResponse = { $ref: 'error-response#' };
const idParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$', description: 'the user\'s id' } } };
const linkAnswer = {
  type: 'object', required: ['message', 'data'], additionalProperties: false,
  properties: {
    message: { type: 'string' },
    data: { type: 'string', description: '/api/personal-data/download?token=… — one use, valid for a few minutes, only for the session that asked.' },
  },
};

/** The calendar day in the configured zone as YYYY-MM-DD (the file name). */
const dayIn = (timeZone: string, now = new Date()) => new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

export default async function personalDataRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  const admin = { roles: ['ADMIN' as const] };
  const notFound = () => new HttpError(404, t('errors:notFound'));

  const personOr404 = async (id: number): Promise<Person> => {
    const person = await findPerson(app.db, id);
    if (!person) throw notFound();
    return person;
  };
  const pseudonymOf = (id: number): Pseudonym => {
    const firstName = t('personal-data:pseudonym.firstName', { id });
    const lastName = t('personal-data:pseudonym.lastName', { id });
    return { login: t('personal-data:pseudonym.login', { id }), firstName, lastName, fullName: `${firstName} ${lastName}` };
  };
  const isAnonymised = (person: Person) => person.login === pseudonymOf(person.userId).login;

  app.post<{ Params: { id: string } }>('/api/users/:id/personal-data/export', {
    config: { access: admin, operation: op('personalDataExport', 'Export every row that names a person (RODO) as a one-time download') },
    schema: {
      description: 'Builds a zip of every row the portal holds that names the user: the account, the employee record, assignments, readings, orders and damages ' +
        'they reported or that name them, notes, attachments (described, not their contents), sign-ins, acceptances, notifications, sessions, passkeys, ' +
        'saved table settings and the audit entries of them — as JSON and as one xlsx, with an index in Polish (indeks.txt). Answers a one-time download link. ' +
        'Recorded in the audit trail.',
      params: idParams,
      response: { 200: linkAnswer, 400: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      const session = request.session!;
      const person = await personOr404(Number(request.params.id));
      const files = await personRows(app.db, app.config.bundle, person);
      const timeZone = timeZoneOf(app.config.bundle.config);
      const at = new Intl.DateTimeFormat('pl-PL', { timeZone, dateStyle: 'short', timeStyle: 'short' }).format(new Date());
      const content = await exportArchive(files, {
        heading: [
          t('personal-data:archive.heading', { name: `${person.firstName} ${person.lastName}`, login: person.login, id: person.userId }),
          t('personal-data:archive.madeAt', { at, admin: session.login }),
        ],
        formats: [t('personal-data:archive.formats'), t('personal-data:archive.omitted')],
        describe: (file) => t(`personal-data:archive.files.${file}`),
        rows: (count) => t('personal-data:archive.rows', { count }),
      });
      const expiresAt = new Date(Date.now() + DOWNLOAD_TOKEN_TTL_MS);
      const token = await app.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('export_file').where('expiresAt', '<', new Date()).execute();
        const file = await trx.insertInto('export_file').values({
          userId: session.userId, filename: t('personal-data:archive.filename', { login: person.login, day: dayIn(timeZone) }), mime: ZIP_MIME, content, expiresAt,
        }).returning('id').executeTakeFirstOrThrow();
        const issued = await issueDownloadToken(trx, session, { kind: PERSONAL_DATA_TOKEN_KIND, refId: String(file.id) });
        // who exported whom, what it held (the trail's last statement: server/audit/record.ts)
        await recordChange(trx, {
          actor: actorOf(request), resource: RESOURCE, recordKey: person.userId, action: 'personal-data-export',
          changes: { files: [null, Object.fromEntries(files.map((f) => [f.store.file, f.rows.length]))] },
        });
        return issued;
      });
      return { message: t('personal-data:messages.exportReady'), data: `/api/personal-data/download?token=${encodeURIComponent(token)}` };
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
      const file = await app.db.deleteFrom('export_file')
        .where('id', '=', Number(redeemed.refId)).where('userId', '=', redeemed.userId).where('expiresAt', '>', new Date())
        .returning(['filename', 'mime', 'content']).executeTakeFirst();
      if (!file) return refuse();
      return sendDownload(reply, { filename: file.filename, mime: file.mime, content: file.content });
    },
  });

  app.post<{ Params: { id: string } }>('/api/users/:id/anonymise', {
    config: { access: admin, operation: op('anonymise', 'Anonymise a person (RODO art. 17) and close the account') },
    schema: {
      description: 'Replaces the person\'s name, e-mail, phones, login and address by a pseudonym (names, login) or nothing, wherever a field declared personal ' +
        '(x-personal of the entity schemas) holds them: orders, damages, notes, assignments, sign-ins, notifications and webhook messages stay, without them. ' +
        'The account is closed (as deleted: no password, no single sign-on identifier, no passkeys or second factor) and its sessions end on every process. ' +
        '409 while the person has an open vehicle assignment or is already anonymised; 400 for one\'s own account. The audit trail is append-only: its ' +
        'earlier entries are not rewritten. Recorded in the trail.',
      params: idParams,
      response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse, 409: errorResponse },
    },
    handler: async (request: FastifyRequest<{ Params: { id: string } }>) => {
      const id = Number(request.params.id);
      if (id === request.session!.userId) throw new HttpError(400, t('personal-data:errors.self'), { code: 'ANONYMISE_SELF' });
      const pseudonym = pseudonymOf(id);
      await app.db.transaction().execute(async (trx) => {
        // the account row locked: two administrators anonymising at once, or an edit meanwhile, wait
        const locked = await trx.selectFrom('app_user').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
        if (!locked) throw notFound();
        const person = (await findPerson(trx, id))!;
        if (isAnonymised(person)) throw new HttpError(409, t('personal-data:errors.alreadyAnonymised'), { code: 'ALREADY_ANONYMISED' });
        if (person.pracId !== null) {
          const open = await trx.selectFrom('vehicle_assignment as a').innerJoin('car as c', 'c.pojazdId', 'a.pojazdId')
            .select(['c.rejestr', 'a.dataWy']).where('a.pracId', '=', person.pracId).where('a.dataZd', 'is', null).orderBy('a.dataWy').executeTakeFirst();
          if (open) {
            const dataWy = new Intl.DateTimeFormat('pl-PL', { timeZone: timeZoneOf(app.config.bundle.config), dateStyle: 'short' }).format(new Date(open.dataWy));
            throw new HttpError(409, t('personal-data:errors.openAssignment', { rejestr: open.rejestr, dataWy }), { code: 'OPEN_ASSIGNMENT' });
          }
        }
        const before = await trx.selectFrom('app_user').select(['email', 'telefon', 'telefonKom', 'ssoSubject']).where('id', '=', id).executeTakeFirstOrThrow();
        const counts = await anonymise(trx, app.config.bundle, person, pseudonym);
        // every session of the account ends; each process's session cache hears of it at the commit (migration 008)
        await app.sessions.revokeAllOf(id, undefined, trx);
        // the trail learns nothing it did not hold: the values before are "zmieniono", the after is the pseudonym
        await recordChange(trx, {
          actor: actorOf(request), resource: RESOURCE, recordKey: id, action: 'anonymise',
          changes: {
            login: [CHANGED, pseudonym.login], firstName: [CHANGED, pseudonym.firstName], lastName: [CHANGED, pseudonym.lastName],
            ...Object.fromEntries(Object.entries(before).filter(([, v]) => v).map(([k]) => [k, [CHANGED, null]])),
            rewrittenRows: [null, counts],
          },
        });
      });
      return { message: t('personal-data:messages.anonymised') };
    },
  });
}
