/**
 * Users administration (spec §2 Users, §3 User, §5 "User form", §6 ADMIN, §7 Users; ACCESS.md
 * "users (table, create, update, delete, change-password): ADMIN"). Create and copy call POST
 * /users, edit PUT /users/{id}, delete DELETE /users/{id}; the users table itself is the users
 * table resource. Who may call is the users resource's declaration (ADMIN only).
 *
 * The rules the form shows are checked again here: login required, at most 50 letters, digits,
 * dots, underscores and hyphens, unique ignoring case; names, e-mail and dataDo required; the role
 * is chosen on create only, the advisor role only while config.advisorRoleEnabled; a manager needs
 * a client, an advisor a service station, and every other role has neither (the form clears them).
 * A new account must choose its own password at its first sign-in. A changed or deleted account's
 * sessions end at once (the session cache is told by the database, migration 008).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Transaction } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import { recordRequestChange, entityFields } from '../audit/index.ts';
import { assertAcceptablePassword, setPassword } from '../auth/new-password.ts';
import type { DB } from '../db/types.generated.ts';
import { HttpError } from '../http-error.ts';
import type { AccountValues } from '../repositories/users.ts';

const RESOURCE = 'users';
/** Clients offered by the autocomplete at most. */
const AUTOCOMPLETE_LIMIT = 20;

interface UserForm {
  login: string;
  rola?: Role;
  firstName: string;
  lastName: string;
  email: string;
  telefon?: string | null;
  telefonKom?: string | null;
  dataOd?: string | null;
  dataDo: string;
  klientSymbol?: string | null;
  stacjaSerw?: string | null;
  ssoSubject?: string | null;
  password?: string;
}

interface FieldError { field: string; message: string }

export default async function usersAdminRoutes(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  const errorResponse = { $ref: 'error-response#' };
  const security = () => app.config.bundle.app.security as { passwordValidityDays: number };
  const refuse = (errors: FieldError[]) => new HttpError(400, errors.map((e) => e.message).join('; '), { code: 'VALIDATION', errors });
  const notFound = () => new HttpError(404, t('errors:notFound'));

  /**
   * The account values the form's rules allow, or a 400 naming every field that breaks one.
   * `role` is the account's role: the chosen one on create, the stored one on edit.
   */
  async function accountValues(form: UserForm, role: Role, exceptId?: number): Promise<AccountValues> {
    const errors: FieldError[] = [];
    const text = (v: string | null | undefined) => (v ?? '').trim();
    const login = text(form.login);
    if (!login) errors.push({ field: 'login', message: t('user:errors.loginRequired') });
    else if (await app.users.admin.loginTaken(login, exceptId)) errors.push({ field: 'login', message: t('user:errors.loginTaken') });
    if (!text(form.firstName)) errors.push({ field: 'firstName', message: t('user:errors.firstNameRequired') });
    if (!text(form.lastName)) errors.push({ field: 'lastName', message: t('user:errors.lastNameRequired') });
    if (!text(form.email)) errors.push({ field: 'email', message: t('user:errors.emailRequired') });
    let klientSymbol: string | null = null;
    let stacjaSerw: string | null = null;
    if (role === 'MANAGER') {
      klientSymbol = text(form.klientSymbol) || null;
      if (!klientSymbol) errors.push({ field: 'klientSymbol', message: t('user:errors.clientRequired') });
      else if (!(await app.users.admin.clientExists(klientSymbol))) errors.push({ field: 'klientSymbol', message: t('user:errors.clientUnknown') });
    }
    if (role === 'ADVISOR') {
      stacjaSerw = text(form.stacjaSerw) || null;
      if (!stacjaSerw) errors.push({ field: 'stacjaSerw', message: t('user:errors.stationRequired') });
      else if (!(await app.users.admin.stationExists(stacjaSerw))) errors.push({ field: 'stacjaSerw', message: t('user:errors.stationUnknown') });
    }
    const dataOd = form.dataOd ?? undefined;
    if (dataOd && form.dataDo < dataOd) errors.push({ field: 'dataDo', message: t('validation:minimum', { limit: dataOd }) });
    if (errors.length) throw refuse(errors);
    return {
      login,
      firstName: text(form.firstName),
      lastName: text(form.lastName),
      email: text(form.email),
      telefon: text(form.telefon) || null,
      telefonKom: text(form.telefonKom) || null,
      ...(dataOd ? { dataOd } : {}),
      dataDo: form.dataDo,
      klientSymbol,
      stacjaSerw,
      // only a role single sign-on serves has one (schemas/meta/sso.schema.json roles)
      ssoSubject: role === 'MANAGER' || role === 'ADMIN' ? text(form.ssoSubject) || null : null,
    };
  }

  const personalWords = (v: { login: string; firstName: string; lastName: string; email: string }) => [v.login, v.firstName, v.lastName, v.email.split('@')[0]];
  /** The saved account as the users table shows it. */
  const savedUser = (request: FastifyRequest, id: number) => app.tableQueries.byId(RESOURCE, request.session!, String(id));
  /** The trail's entry of a change to an account (issue 37): the user entity's fields, the password as "zmieniono". */
  const audit = async (trx: Transaction<DB>, request: FastifyRequest, id: number, action: string, before: Record<string, unknown> | null, password?: string) => {
    const after = await trx.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst() ?? null;
    await recordRequestChange(trx, request, {
      resource: RESOURCE, recordKey: id, action, before, after, fields: entityFields(app.config.bundle.schemas.user),
      extra: password === undefined ? undefined : { password: [before?.passwordHash ?? null, 'set'] },
    });
  };
  const accountRow = (trx: Transaction<DB>, id: number) => trx.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst().then((r) => r ?? null);

  app.post<{ Body: UserForm }>('/api/users', {
    config: { access: { resource: RESOURCE }, operation: op('create', 'Create a user account') },
    schema: {
      description: 'Creates an account (the add and the copy of the users table). Role MANAGER unless given; the advisor role only when enabled in the configuration. ' +
        'A password given here follows the password policy and must be changed at the first sign-in.',
      body: { $ref: 'user-form#' },
      response: { 200: { $ref: 'user-saved-response#' }, 400: errorResponse, 403: errorResponse },
    },
    handler: async (request) => {
      const form = request.body;
      const rola: Role = form.rola ?? 'MANAGER';
      if (rola === 'ADVISOR' && app.config.bundle.config.advisorRoleEnabled !== true) {
        throw refuse([{ field: 'rola', message: t('user:errors.advisorDisabled') }]);
      }
      const values = await accountValues(form, rola);
      if (form.password !== undefined) assertAcceptablePassword(app, 'password', form.password, personalWords(values));
      const id = await app.db.transaction().execute(async (trx) => {
        const created = await app.users.admin.create(trx, { ...values, rola });
        if (form.password !== undefined) await setPassword(trx, created, form.password, { firstLogin: true, validityDays: security().passwordValidityDays });
        await audit(trx, request, created, 'create', null, form.password);
        return created;
      });
      return { message: t('user:messages.added'), user: await savedUser(request, id) };
    },
  });

  app.put<{ Params: { id: string }; Body: UserForm }>('/api/users/:id', {
    config: { access: { resource: RESOURCE }, operation: op('update', 'Change a user account') },
    schema: {
      description: 'Changes an account. The role stays as created (a form may repeat it). A password given here is set as by PUT /api/users/change-password. The account\'s other sessions end.',
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } },
      body: { $ref: 'user-form#' },
      response: { 200: { $ref: 'user-saved-response#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      const session = request.session!;
      const id = Number(request.params.id);
      const current = await app.users.byId(id);
      if (!current) throw notFound();
      const form = request.body;
      if (form.rola !== undefined && form.rola !== current.rola) throw refuse([{ field: 'rola', message: t('user:errors.roleChange') }]);
      const values = await accountValues(form, current.rola as Role, id);
      const own = id === session.userId;
      if (form.password !== undefined) assertAcceptablePassword(app, 'password', form.password, personalWords(values));
      await app.db.transaction().execute(async (trx) => {
        const before = await accountRow(trx, id);
        if (!(await app.users.admin.update(trx, id, values))) throw notFound();
        // an administrator's password is temporary for anyone else; one's own is one's own
        if (form.password !== undefined) await setPassword(trx, id, form.password, { firstLogin: !own, validityDays: security().passwordValidityDays });
        // what the account may see may have changed: its sessions end (one's own current one stays)
        await app.sessions.revokeAllOf(id, own ? session.tokenHash : undefined, trx);
        await audit(trx, request, id, 'update', before, form.password);
      });
      return { message: t('user:messages.updated'), user: await savedUser(request, id) };
    },
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id', {
    config: { access: { resource: RESOURCE }, operation: op('delete', 'Delete a user account, keeping its history') },
    schema: {
      description: 'Deletes an account, keeping its history readable (docs/decisions.md "Deleting a user"); its sessions end. One\'s own account cannot be deleted.',
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: '^[1-9][0-9]{0,8}$' } } },
      response: { 200: { $ref: 'message-response#' }, 400: errorResponse, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      const id = Number(request.params.id);
      if (id === request.session!.userId) throw new HttpError(400, t('user:errors.deleteSelf'), { code: 'DELETE_SELF' });
      await app.db.transaction().execute(async (trx) => {
        const before = await accountRow(trx, id);
        if (!(await app.users.admin.softDelete(trx, id))) throw notFound();
        await app.sessions.revokeAllOf(id, undefined, trx);
        await audit(trx, request, id, 'delete', before);
      });
      return { message: t('user:messages.deleted') };
    },
  });

  app.get<{ Querystring: { searchText?: string } }>('/api/auto-complete/clients', {
    // ACCESS.md "auto-complete/clients: ADMIN" (the user form's client choice)
    config: { access: { resource: RESOURCE }, operation: { resource: 'auto-complete', action: 'clients', summary: 'Clients whose symbol or name contains the text' } },
    schema: {
      description: `Clients whose symbol or name contains searchText (at most ${AUTOCOMPLETE_LIMIT}).`,
      querystring: { type: 'object', properties: { searchText: { type: 'string', maxLength: 100, pattern: '^[^\\u0000]*$' } } },
      response: { 200: { $ref: 'client-autocomplete#' }, 400: errorResponse },
    },
    handler: async (request) => app.users.admin.clients(request.query.searchText ?? '', AUTOCOMPLETE_LIMIT),
  });

  app.get<{ Querystring: { searchText?: string } }>('/api/auto-complete/stations', {
    // ACCESS.md "auto-complete/stations: ADMIN" (the user form's service station choice for an advisor)
    config: { access: { resource: RESOURCE }, operation: { resource: 'auto-complete', action: 'stations', summary: 'Service stations whose symbol or name contains the text' } },
    schema: {
      description: `Service stations whose symbol or name contains searchText (at most ${AUTOCOMPLETE_LIMIT}).`,
      querystring: { type: 'object', properties: { searchText: { type: 'string', maxLength: 100, pattern: '^[^\\u0000]*$' } } },
      response: { 200: { $ref: 'station-autocomplete#' }, 400: errorResponse },
    },
    handler: async (request) => app.users.admin.stations(request.query.searchText ?? '', AUTOCOMPLETE_LIMIT),
  });
}
