/**
 * A person's data, the service behind server/routes/personal-data.ts (issue 37, RODO art. 15, 17,
 * 20; moved out of the route by issue 45: routes are HTTP only): the export of a person kept for
 * one download and recorded, the anonymisation in one transaction and recorded, the pseudonyms.
 * Who may call is the route's declaration (ADMIN); the rules of each are here.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { actorOf, CHANGED, recordChange } from '../audit/index.ts';
import { timeZoneOf } from '../config/locale.ts';
import { DOWNLOAD_TOKEN_TTL_MS, issueDownloadToken } from '../downloads/tokens.ts';
import { HttpError } from '../http-error.ts';
import { findPerson, findPersonByEmployee, type Person } from './person.ts';
import { anonymise, exportArchive, personRows, type Pseudonym } from './service.ts';
import { fieldNamer } from '../audit/labels.ts';
import { dateText, dateTimeText } from '../../runtime/core/date-text.ts';

export const RESOURCE = 'users';
/** The trail's and the OpenAPI document's resource of an employee (routes/employees.ts records under it too). */
export const EMPLOYEE_RESOURCE = 'employee';
/** What a personal-data token opens (download_token.kind); refId is the export_file id. */
export const PERSONAL_DATA_TOKEN_KIND = 'personal-data';
export const ZIP_MIME = 'application/zip';

/** The calendar day in the configured zone as YYYY-MM-DD (the file name). */
const dayIn = (timeZone: string, now = new Date()) => new Intl.DateTimeFormat('sv-SE', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(now);

export function personalDataService(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
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

  /** The export of a person (RODO art. 15, 20): the zip kept for one download by this administrator's session, recorded. */
  async function exportPerson(request: FastifyRequest, person: Person) {
    const session = request.session!;
    const files = await personRows(app.db, app.config.bundle, person);
    const timeZone = timeZoneOf(app.config.bundle.config);
    const at = dateTimeText(new Date(), timeZone, app.config.language.datePattern);
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
      // "Zlecenia serwisowe", not "zlecenia" (Excel allows 31 characters and no : \ / ? * [ ])
      sheet: (file) => t(`personal-data:archive.sheets.${file}`).replace(/[:\\/?*[\]]/g, ' ').slice(0, 31),
    }, fieldNamer(app.config.bundle, t, {}, app.config.language.id), app.config.bundle);
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
          const dataWy = dateText(new Date(open.dataWy), timeZoneOf(app.config.bundle.config), app.config.language.datePattern);
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

  /** The export file of a redeemed token, taken (removed) as it is handed out; undefined when gone or expired. */
  const takeExport = (id: number, userId: number) => app.db.deleteFrom('export_file')
    .where('id', '=', id).where('userId', '=', userId).where('expiresAt', '>', new Date())
    .returning(['filename', 'mime', 'content']).executeTakeFirst();

  /** The person of an account or of an employee record; 404 when there is none. */
  async function person(of: { userId: number } | { pracId: number }): Promise<Person> {
    const found = 'userId' in of ? await findPerson(app.db, of.userId) : await findPersonByEmployee(app.db, of.pracId);
    if (!found) throw notFound();
    return found;
  }

  return {
    exportPerson: async (request: FastifyRequest, of: { userId: number } | { pracId: number }) => exportPerson(request, await person(of)),
    anonymiseUser: (request: FastifyRequest, id: number) => anonymisePerson(request, lockedUser(id)),
    anonymiseEmployee: (request: FastifyRequest, pracId: number) => anonymisePerson(request, lockedEmployee(pracId)),
    takeExport,
  };
}
