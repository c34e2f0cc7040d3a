/**
 * User accounts as the administrator keeps them (spec §2 Users, §5 "User form", §7 Users; issue
 * 45, "routes only translate HTTP"): create, change and delete, each in one transaction with the
 * password (when the form gives one), the end of the account's sessions and the trail entry of
 * the user entity's fields (the password only as "zmieniono"). The form's rules are checked again
 * here, whatever the browser checked: login required, at most 50 letters, digits, dots,
 * underscores and hyphens, unique ignoring case; names, e-mail and dataDo required; the role is
 * chosen on create only, the advisor role only while config.advisorRoleEnabled; a manager needs a
 * client, an advisor a service station, and every other role has neither (the form clears them).
 * A changed or deleted account's sessions end at once (the session cache is told by the
 * database, migration 008).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import type { UserForm } from '../../runtime/core/generated/api.ts';
import { entityFields, recordRowChange, type Actor } from '../audit/index.ts';
import { assertAcceptablePassword, setPassword } from '../auth/new-password.ts';
import type { Session } from '../auth/sessions.ts';
import type { DB } from '../db/types.generated.ts';
import { HttpError } from '../http-error.ts';
import type { AccountValues } from '../repositories/users.ts';

const RESOURCE = 'users';

/** The user form (schemas: user-form), as the administrator sends it: the generated shape of its schema, one source. */
export type { UserForm };

interface FieldError { field: string; message: string }

export function accountService(app: FastifyInstance) {
  const t = (key: string, vars?: Record<string, unknown>) => app.config.t(key, vars);
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
  /** The trail's entry of a change to an account (issue 37): the user entity's fields, the password as "zmieniono". */
  const audit = async (trx: Transaction<DB>, actor: Actor, id: number, action: string, before: Record<string, unknown> | null, password?: string) => {
    const after = await trx.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst() ?? null;
    await recordRowChange(trx, actor, {
      resource: RESOURCE, recordKey: id, action, before, after, fields: entityFields(app.config.bundle.schemas.user),
      extra: password === undefined ? undefined : { password: [before?.passwordHash ?? null, 'set'] },
    });
  };
  const accountRow = (trx: Transaction<DB>, id: number) => trx.selectFrom('app_user').selectAll().where('id', '=', id).executeTakeFirst().then((r) => r ?? null);

  return {
    /**
     * POST /api/users: a new account (the add and the copy of the users table); role MANAGER unless
     * given. A password given here must be changed at the first sign-in. Answers the account's id.
     */
    async create(actor: Actor, form: UserForm): Promise<number> {
      const rola: Role = form.rola ?? 'MANAGER';
      if (rola === 'ADVISOR' && app.config.bundle.config.advisorRoleEnabled !== true) {
        throw refuse([{ field: 'rola', message: t('user:errors.advisorDisabled') }]);
      }
      const values = await accountValues(form, rola);
      if (form.password !== undefined) assertAcceptablePassword(app, 'password', form.password, personalWords(values));
      return app.db.transaction().execute(async (trx) => {
        const created = await app.users.admin.create(trx, { ...values, rola });
        if (form.password !== undefined) await setPassword(trx, created, form.password, { firstLogin: true, validityDays: security().passwordValidityDays });
        await audit(trx, actor, created, 'create', null, form.password);
        return created;
      });
    },

    /** PUT /api/users/:id: the role stays as created; the account's sessions end (the caller's own current one stays). */
    async update(actor: Actor, session: Session, id: number, form: UserForm): Promise<void> {
      const current = await app.users.byId(id);
      if (!current) throw notFound();
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
        await audit(trx, actor, id, 'update', before, form.password);
      });
    },

    /** DELETE /api/users/:id: the account goes, its history stays readable (docs/decisions.md "Deleting a user"); its sessions end. */
    async remove(actor: Actor, session: Session, id: number): Promise<void> {
      if (id === session.userId) throw new HttpError(400, t('user:errors.deleteSelf'), { code: 'DELETE_SELF' });
      await app.db.transaction().execute(async (trx) => {
        const before = await accountRow(trx, id);
        if (!(await app.users.admin.softDelete(trx, id))) throw notFound();
        await app.sessions.revokeAllOf(id, undefined, trx);
        await audit(trx, actor, id, 'delete', before);
      });
    },
  };
}

export type AccountService = ReturnType<typeof accountService>;

declare module 'fastify' {
  interface FastifyInstance {
    accountService: AccountService;
  }
}

export default fp(
  async (app) => {
    app.decorate('accountService', accountService(app));
  },
  { name: 'account-service', dependencies: ['config', 'db', 'users-repository', 'sessions-repository'] },
);
