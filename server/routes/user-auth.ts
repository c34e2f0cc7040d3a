/**
 * Sign-in and sign-out (spec §3 "Login request/response", §7 "Authentication and session").
 * A USER signs in to the vehicle assigned to them (plate); an ADVISOR to any vehicle whose plate
 * and last six VIN characters match; MANAGER and ADMIN accounts use the office choice. Every
 * attempt is written to the login history. Every refusal that could confirm a login or a password
 * answers alike (docs/security.md "Sign-in, reset and mail-test abuse"). Repeated failures lock a
 * login name for the client address they came from for a few minutes (screens/app.json
 * security.lockout): long enough to stop guessing, while the owner elsewhere is not affected (and
 * a password reset unlocks at once). Each address also has a call limit (security.rateLimit).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import { verifyPassword } from '../auth/password.ts';
import { createSession, revokeSession, setSessionVehicle } from '../auth/sessions.ts';
import { HttpError } from '../http-error.ts';
import { perAddressLimit } from '../rate-limit.ts';

interface AuthBody {
  username: string;
  password: string;
  role: 'USER' | 'MANAGER' | 'ADVISOR';
  rejestr?: string | null;
  vin?: string | null;
}

/** Which account roles may use each choice on the login screen. */
const ACCOUNT_ROLES_FOR_CHOICE: Record<AuthBody['role'], Role[]> = {
  USER: ['USER'],
  ADVISOR: ['ADVISOR'],
  MANAGER: ['MANAGER', 'ADMIN'],
};

// Compared against when the login is unknown, so that a wrong login takes as long as a wrong password.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const today = () => new Date().toISOString().slice(0, 10);
const isoDate = (v: unknown): string | null => (v == null ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

async function findVehicle(db: Kysely<any>, body: Pick<AuthBody, 'role' | 'rejestr' | 'vin'>, user: any) {
  const plate = (body.rejestr ?? '').trim().toUpperCase();
  let q = db.selectFrom('car').select(['pojazdId', 'rejestr', 'marka', 'aktStanLicz']).where(sql`upper("rejestr")`, '=', plate);
  if (body.role === 'USER') q = q.where('pracId', '=', user.pracId ?? -1);
  else q = q.where(sql`upper(right("nrPodw", 6))`, '=', (body.vin ?? '').trim().toUpperCase());
  return q.executeTakeFirst();
}

interface Lockout { maxFailures: number; windowMinutes: number; lockMinutes: number }

/** What the session and the runtime keep of the signed-in user (schemas/api/user-details). */
function userDetails(user: any, vehicle: any) {
  return {
    id: user.id,
    login: user.login,
    username: user.login,
    firstName: user.firstName,
    lastName: user.lastName,
    rola: user.rola,
    dataDo: isoDate(user.dataDo),
    pwdDo: isoDate(user.pwdDo),
    firstLogin: Boolean(user.firstLogin),
    email: user.email,
    telefon: user.telefon,
    telefonKom: user.telefonKom,
    pojazdId: vehicle?.pojazdId ?? null,
    rejestr: vehicle?.rejestr ?? null,
    stanLicz: vehicle?.aktStanLicz ?? null,
    marka: vehicle?.marka ?? null,
    stacjaSerw: user.stacjaSerw,
    klientSymbol: user.klientSymbol,
  };
}

export default async function userAuthRoutes(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v as any);

  const history = (login: string, rola: string | null, success: boolean, uwagi: string, rodzaj = t('login:history.kindSignIn')) =>
    app.db.insertInto('login_history').values({ login: login.slice(0, 50), loginDate: new Date(), rola, rodzaj, uwagi, success }).execute();
  const lockout = () => app.config.bundle.app.security.lockout as Lockout;

  /**
   * Failed sign-ins count per login *name* and client address (table sign_in_failure), whether or
   * not the login exists: an unknown login is locked exactly like a real one, so no answer tells
   * them apart, and a stranger at another address cannot lock the owner out. The account's
   * "failedLogins"/"lockedUntil" (users table) mirror the latest count; that update runs for an
   * unknown login too (touching no row), so both take the same work.
   */
  const lockedMinutes = async (login: string, address: string): Promise<number> => {
    const row = await app.db.selectFrom('sign_in_failure').select('lockedUntil')
      .where('login', '=', login).where('address', '=', address).executeTakeFirst();
    const ms = row?.lockedUntil ? new Date(row.lockedUntil).getTime() - Date.now() : 0;
    return ms > 0 ? Math.ceil(ms / 60_000) : 0;
  };

  /** Counts a failed sign-in; the failure that reaches the limit locks the login for this address. */
  const recordFailure = async (login: string, address: string) => {
    const { maxFailures, windowMinutes, lockMinutes } = lockout();
    const now = new Date();
    const windowStart = new Date(now.getTime() - windowMinutes * 60_000);
    await app.db.transaction().execute(async (trx) => {
      // rows whose window and lock are both over are forgotten
      await trx.deleteFrom('sign_in_failure').where('lastFailedAt', '<', windowStart)
        .where((eb) => eb.or([eb('lockedUntil', 'is', null), eb('lockedUntil', '<', now)])).execute();
      const { failures } = await trx.insertInto('sign_in_failure')
        .values({ login, address, failures: 1, lastFailedAt: now, lockedUntil: null })
        .onConflict((oc) => oc.columns(['login', 'address']).doUpdateSet({
          failures: sql`case when sign_in_failure."lastFailedAt" >= ${windowStart} then sign_in_failure."failures" + 1 else 1 end`,
          lastFailedAt: now,
          lockedUntil: null,
        }))
        .returning('failures').executeTakeFirstOrThrow();
      const locks = Number(failures) >= maxFailures;
      const lockedUntil = locks ? new Date(now.getTime() + lockMinutes * 60_000) : null;
      if (locks) {
        await trx.updateTable('sign_in_failure').set({ failures: 0, lockedUntil })
          .where('login', '=', login).where('address', '=', address).execute();
      }
      // The account's own lockedUntil is not touched: it ends the account's sessions
      // (auth/sessions.ts), and a stranger's guesses from another address must not sign the owner out.
      await trx.updateTable('app_user').set({ failedLogins: locks ? 0 : Number(failures), lastFailedAt: now })
        .where('login', '=', login).execute();
    });
  };

  app.post<{ Body: AuthBody }>('/api/user/auth', {
    config: { access: 'public' },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      tags: ['session'],
      description: 'Every refusal that could tell whether the login exists or the password is right (unknown login, wrong password, ' +
        'role choice or vehicle) answers the same 401 UNAUTHORIZED. Failed sign-ins of one login name from one address lock it for ' +
        'that address for a few minutes (429 LOCKED), known or unknown alike; each address has a call limit (429 TOO_MANY_REQUESTS).',
      body: { $ref: 'auth-request#' },
      response: { 200: { $ref: 'auth-response#' }, 401: { $ref: 'error-response#' }, 429: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const body = request.body;
      const address = request.ip.slice(0, 64);
      const user = await app.db.selectFrom('app_user').selectAll().where('login', '=', body.username).executeTakeFirst();
      // `code` carries the spec's machine value for outside clients; `detail` is the Polish text to show.
      const refuse = async (code: string, detail: string, reason: string, status = 401) => {
        await history(body.username, user?.rola ?? body.role, false, reason);
        throw new HttpError(status, detail, { code });
      };
      // a locked login is refused before the password is even checked, so guessing gains nothing
      const minutes = await lockedMinutes(body.username, address);
      if (minutes > 0) return refuse('LOCKED', t('login:errors.locked', { minutes }), t('login:history.locked'), 429);

      // an unknown login is checked against a dummy hash: it takes as long as a wrong password
      const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
      /** The one answer for every failure that must not tell what was wrong; it counts towards the lock. */
      const badCredentials = async (reason: string) => {
        await recordFailure(body.username, address);
        return refuse('UNAUTHORIZED', t('login:errors.unauthorized'), reason);
      };
      if (!user || !passwordOk || !ACCOUNT_ROLES_FOR_CHOICE[body.role].includes(user.rola)) {
        return badCredentials(t('login:history.badCredentials'));
      }
      if (user.dataDo && isoDate(user.dataDo)! < today()) {
        return refuse('User credentials have expired', t('login:errors.accountExpired'), t('login:history.accountExpired'));
      }
      if (user.pwdDo && isoDate(user.pwdDo)! < today()) {
        return refuse('userManagement.warnings.passwordExpired', t('login:errors.passwordExpired'), t('login:history.passwordExpired'));
      }

      let vehicle: any = null;
      if (body.role === 'USER' || body.role === 'ADVISOR') {
        vehicle = await findVehicle(app.db, body, user);
        // a vehicle that does not fit answers like a wrong password: anything else would confirm the password
        if (!vehicle) return badCredentials(t(body.role === 'USER' ? 'login:errors.vehicleNotAssigned' : 'login:errors.vehicleNotFound'));
      }
      const token = await createSession(app.db, user.id, user.rola, vehicle?.pojazdId ?? null);
      await app.db.deleteFrom('sign_in_failure').where('login', '=', user.login).where('address', '=', address).execute();
      if (user.failedLogins > 0 || user.lockedUntil) {
        await app.db.updateTable('app_user').set({ failedLogins: 0, lastFailedAt: null, lockedUntil: null }).where('id', '=', user.id).execute();
      }
      await history(user.login, user.rola, true, t('login:history.success'));
      return {
        id_token: token,
        body: {
          userDetails: userDetails(user, vehicle),
          postConfig: { logicConfig: { hideRangeForManager: Boolean(app.config.bundle.config.hideRangeForManager) } },
        },
      };
    },
  });

  app.post<{ Body: { rejestr: string; vin: string } }>('/api/user/re-logging', {
    config: { access: { roles: ['ADVISOR'] } },
    schema: {
      tags: ['session'],
      description: 'An advisor switches the session to another vehicle (plate + last six VIN characters); the token stays the same.',
      body: { $ref: 're-logging-request#' },
      response: { 200: { $ref: 're-logging-response#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const session = request.session!;
      const user = await app.db.selectFrom('app_user').selectAll().where('id', '=', session.userId).executeTakeFirstOrThrow();
      const vehicle = await findVehicle(app.db, { role: 'ADVISOR', ...request.body }, user);
      if (!vehicle) {
        await history(user.login, user.rola, false, t('login:errors.vehicleNotFound'), t('login:history.kindVehicleChange'));
        throw new HttpError(404, t('login:errors.vehicleNotFound'), { code: 'VEHICLE_NOT_FOUND' });
      }
      await setSessionVehicle(app.db, session.tokenHash, vehicle.pojazdId);
      await history(user.login, user.rola, true, vehicle.rejestr, t('login:history.kindVehicleChange'));
      return { userDetails: userDetails(user, vehicle) };
    },
  });

  app.post('/api/user/logout', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true },
    schema: { tags: ['session'], response: { 204: { type: 'null' } } },
    handler: async (request, reply) => {
      const session = request.session!;
      await revokeSession(app.db, session.tokenHash);
      await history(session.login, session.role, true, t('login:history.signedOut'), t('login:history.kindSignOut'));
      return reply.status(204).send();
    },
  });
}
