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
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { actorOf, CHANGED, recordChange } from '../audit/index.ts';
import { timeZoneOf } from '../config/locale.ts';
import { refuseDownload, sendDownload } from '../downloads/reply.ts';
import { DOWNLOAD_TOKEN_TTL_MS, issueDownloadToken, redeemDownloadToken } from '../downloads/tokens.ts';
import { HttpError } from '../http-error.ts';
import { binaryResponse } from '../plugins/openapi.ts';
import { findPerson, findPersonByEmployee, type Person } from '../personal-data/person.ts';
import { anonymise, exportArchive, personRows, type Pseudonym } from '../personal-data/service.ts';
import { NO_NUL_PATTERN } from '../../runtime/core/validation-messages.ts';
import { dateText, dateTimeText } from '../../runtime/core/date-text.ts';

const RESOURCE = 'users';
/** The trail's and the OpenAPI document's resource of an employee (routes/employees.ts records under it too). */
const EMPLOYEE_RESOURCE = 'employee';
/** What a personal-data token opens (download_token.kind); refId is the export_file id. */
export const PERSONAL_DATA_TOKEN_KIND = 'personal-data';
const ZIP_MIME = 'application/zip';

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

/** The calendar day in the configured zone as YYYY-MM-DD (the file name). */
const dayIn = (timeZone: string, now = new Date()) => new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

export default async function personalDataRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  const employeeOp = (action: string, summary: string) => ({ resource: EMPLOYEE_RESOURCE, action, summary });
  const admin = { roles: ['ADMIN' as const] };
  const notFound = () => new HttpError(404, t('errors:notFound'));

  /** The pseudonym of an account (by its id) or of an employee without one (by pracId): "Osoba zanonimizowana 12", "Pracownik zanonimizowany 7". */
  const pseudonymOf = (of: { userId: number } | { pracId: number }): Pseudonym => {
    const [key, id] = 'userId' in of ? ['personal-data:pseudonym', of.userId] : ['personal-data:employeePseudonym', of.pracId];
    const firstName = t(`${key}.firstName`, { id });
    const lastName = t(`${key}.lastName`, { id });
    return { login: t('personal-data:pseudonym.login', { id }), firstName, lastName, fullName: `${firstName} ${lastName}` };
  };
  const pseudonymOfPerson = (person: Person) => (person.userId !== null ? pseudonymOf({ userId: person.userId }) : pseudonymOf({ pracId: person.pracId! }));
  const isAnonymised = (person: Person) => {
    const pseudonym = pseudonymOfPerson(person);
    return person.userId !== null ? person.login === pseudonym.login : person.firstName === pseudonym.firstName && person.lastName === pseudonym.lastName;
  };
  /** Where the trail records what was done to the person: their account, else their employee record. */
  const recordOf = (person: Person) => (person.userId !== null
    ? { resource: RESOURCE, recordKey: person.userId }
    : { resource: EMPLOYEE_RESOURCE, recordKey: person.pracId! });

  const responses = { 400: errorResponse, 403: errorResponse, 404: errorResponse };
  const exportDescription = 'Builds a zip of every row the portal holds that names the person: the account, the employee record, assignments, readings, orders and damages ' +
    'they reported or that name them, notes, attachments (described, not their contents), sign-ins, acceptances, notifications, sessions, passkeys, ' +
    'saved table settings and the audit entries of them — as JSON and as one xlsx, with an index in Polish (indeks.txt). Answers a one-time download link. ' +
    'Recorded in the audit trail.';

  /** The export of a person (RODO art. 15, 20): the zip kept for one download by this administrator's session, recorded. */
  async function exportPerson(request: FastifyRequest, person: Person) {
    const session = request.session!;
    const files = await personRows(app.db, app.config.bundle, person);
    const timeZone = timeZoneOf(app.config.bundle.config);
    const at = dateTimeText(new Date(), timeZone);
    const name = `${person.firstName} ${person.lastName}`;
    const content = await exportArchive(files, {
      heading: [
        person.userId !== null
          ? t('personal-data:archive.heading', { name, login: person.login, id: person.userId })
          : t('personal-data:archive.employeeHeading', { name, id: person.pracId }),
        t('personal-data:archive.madeAt', { at, admin: session.login }),
      ],
      formats: [t('personal-data:archive.formats'), t('personal-data:archive.omitted')],
      describe: (file) => t(`personal-data:archive.files.${file}`),
      rows: (count) => t('personal-data:archive.rows', { count }),
    });
    const filename = person.login !== null
      ? t('personal-data:archive.filename', { login: person.login, day: dayIn(timeZone) })
      : t('personal-data:archive.employeeFilename', { id: person.pracId, day: dayIn(timeZone) });
    const expiresAt = new Date(Date.now() + DOWNLOAD_TOKEN_TTL_MS);
    const token = await app.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('export_file').where('expiresAt', '<', new Date()).execute();
      const file = await trx.insertInto('export_file').values({ userId: session.userId, filename, mime: ZIP_MIME, content, expiresAt }).returning('id').executeTakeFirstOrThrow();
      const issued = await issueDownloadToken(trx, session, { kind: PERSONAL_DATA_TOKEN_KIND, refId: String(file.id) });
      // who exported whom, what it held (the trail's last statement: server/audit/record.ts)
      await recordChange(trx, {
        actor: actorOf(request), ...recordOf(person), action: 'personal-data-export',
        changes: { files: [null, Object.fromEntries(files.map((f) => [f.store.file, f.rows.length]))] },
      });
      return issued;
    });
    return { message: t('personal-data:messages.exportReady'), data: `/api/personal-data/download?token=${encodeURIComponent(token)}` };
  }

  /**
   * Forgets a person (RODO art. 17) in one transaction: `lockAndFind` locks the person's row (two
   * administrators at once, or an edit meanwhile, wait) and reads them; refused while they have an
   * open vehicle assignment or are anonymised already.
   */
  async function anonymisePerson(request: FastifyRequest, lockAndFind: (trx: Transaction<DB>) => Promise<Person | null>) {
    const person = await app.db.transaction().execute(async (trx) => {
      const person = await lockAndFind(trx);
      if (!person) throw notFound();
      if (person.userId !== null && person.userId === request.session!.userId) throw new HttpError(400, t('personal-data:errors.self'), { code: 'ANONYMISE_SELF' });
      if (isAnonymised(person)) throw new HttpError(409, t('personal-data:errors.alreadyAnonymised'), { code: 'ALREADY_ANONYMISED' });
      if (person.pracId !== null) {
        const open = await trx.selectFrom('vehicle_assignment as a').innerJoin('car as c', 'c.pojazdId', 'a.pojazdId')
          .select(['c.rejestr', 'a.dataWy']).where('a.pracId', '=', person.pracId).where('a.dataZd', 'is', null).orderBy('a.dataWy').executeTakeFirst();
        if (open) {
          const dataWy = dateText(new Date(open.dataWy), timeZoneOf(app.config.bundle.config));
          throw new HttpError(409, t('personal-data:errors.openAssignment', { rejestr: open.rejestr, dataWy }), { code: 'OPEN_ASSIGNMENT' });
        }
      }
      const pseudonym = pseudonymOfPerson(person);
      // the trail learns nothing it did not hold: the values before are "zmieniono", the after is the pseudonym
      const before: Record<string, unknown> = person.userId !== null
        ? await trx.selectFrom('app_user').select(['email', 'telefon', 'telefonKom', 'ssoSubject']).where('id', '=', person.userId).executeTakeFirstOrThrow()
        : await trx.selectFrom('employee').select(['email', 'telefon', 'telefonKom', 'nrPrac', 'ulica', 'kodPoczt', 'miejscow']).where('pracId', '=', person.pracId!).executeTakeFirstOrThrow();
      const counts = await anonymise(trx, app.config.bundle, person, pseudonym);
      // every session of the account ends; each process's session cache hears of it at the commit (migration 008)
      if (person.userId !== null) await app.sessions.revokeAllOf(person.userId, undefined, trx);
      await recordChange(trx, {
        actor: actorOf(request), ...recordOf(person), action: 'anonymise',
        changes: {
          ...(person.userId !== null ? { login: [CHANGED, pseudonym.login] } : {}),
          firstName: [CHANGED, pseudonym.firstName], lastName: [CHANGED, pseudonym.lastName],
          ...Object.fromEntries(Object.entries(before).filter(([, v]) => v).map(([k]) => [k, [CHANGED, null]])),
          rewrittenRows: [null, counts],
        },
      });
      return person;
    });
    return { message: t(person.userId !== null ? 'personal-data:messages.anonymised' : 'personal-data:messages.employeeAnonymised') };
  }

  /** The account row locked, then the person of it. */
  const lockedUser = (id: number) => async (trx: Transaction<DB>) => {
    const locked = await trx.selectFrom('app_user').select('id').where('id', '=', id).forUpdate().executeTakeFirst();
    return locked ? findPerson(trx, id) : null;
  };
  /** The employee row (and the account of it, if any) locked, then the person of it. */
  const lockedEmployee = (pracId: number) => async (trx: Transaction<DB>) => {
    const locked = await trx.selectFrom('employee').select('pracId').where('pracId', '=', pracId).forUpdate().executeTakeFirst();
    if (!locked) return null;
    await trx.selectFrom('app_user').select('id').where('pracId', '=', pracId).forUpdate().execute();
    return findPersonByEmployee(trx, pracId);
  };

  app.post<{ Params: { id: string } }>('/api/users/:id/personal-data/export', {
    config: { access: admin, operation: op('personalDataExport', 'Export every row that names a person (RODO) as a one-time download') },
    schema: { description: exportDescription, params: idParams, response: { 200: linkAnswer, ...responses } },
    handler: async (request) => {
      const person = await findPerson(app.db, Number(request.params.id));
      if (!person) throw notFound();
      return exportPerson(request, person);
    },
  });

  app.post<{ Params: { pracId: string } }>('/api/employees/:pracId/personal-data/export', {
    config: { access: admin, operation: employeeOp('personalDataExport', 'Export every row that names an employee (RODO) as a one-time download') },
    schema: {
      description: `${exportDescription} An employee with an account in the portal is the person of that account: the same export as from the user.`,
      params: employeeParams, response: { 200: linkAnswer, ...responses },
    },
    handler: async (request) => {
      const person = await findPersonByEmployee(app.db, Number(request.params.pracId));
      if (!person) throw notFound();
      return exportPerson(request, person);
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

  const anonymiseDescription = 'Replaces the person\'s name, e-mail, phones, login and address by a pseudonym (names, login) or nothing, wherever a field declared personal ' +
    '(x-personal of the entity schemas) holds them: orders, damages, notes, assignments, sign-ins, notifications and webhook messages stay, without them. ' +
    'The account is closed (as deleted: no password, no single sign-on identifier, no passkeys or second factor) and its sessions end on every process. ' +
    '409 while the person has an open vehicle assignment or is already anonymised; 400 for one\'s own account. The audit trail is append-only: its ' +
    'earlier entries are not rewritten. Recorded in the trail.';
  const anonymiseResponses = { 200: { $ref: 'message-response#' }, ...responses, 409: errorResponse };

  app.post<{ Params: { id: string } }>('/api/users/:id/anonymise', {
    config: { access: admin, operation: op('anonymise', 'Anonymise a person (RODO art. 17) and close the account') },
    schema: { description: anonymiseDescription, params: idParams, response: anonymiseResponses },
    handler: async (request: FastifyRequest<{ Params: { id: string } }>) => anonymisePerson(request, lockedUser(Number(request.params.id))),
  });

  app.post<{ Params: { pracId: string } }>('/api/employees/:pracId/anonymise', {
    config: { access: admin, operation: employeeOp('anonymise', 'Anonymise an employee (RODO art. 17), and close their account if they have one') },
    schema: {
      description: `${anonymiseDescription} An employee with an account in the portal is the person of that account: the same anonymisation as from the user; ` +
        'one without has no account to close: the employee record is named by the pseudonym and emptied of its contact data.',
      params: employeeParams, response: anonymiseResponses,
    },
    handler: async (request: FastifyRequest<{ Params: { pracId: string } }>) => anonymisePerson(request, lockedEmployee(Number(request.params.pracId))),
  });
}
