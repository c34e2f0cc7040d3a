/**
 * Sign-in and sign-out (spec §3 "Login request/response", §7 "Authentication and session").
 * A USER signs in to the vehicle assigned to them (plate); an ADVISOR to any vehicle whose plate
 * and last six VIN characters match; MANAGER and ADMIN accounts use the office choice. Every
 * attempt is written to the login history. Repeated wrong passwords lock the login for a few
 * minutes (screens/app.json security.lockout): long enough to stop guessing, short enough that
 * an attacker cannot keep someone out for long (and a password reset unlocks at once).
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import { verifyPassword } from '../auth/password.ts';
import { createSession, revokeSession, setSessionVehicle } from '../auth/sessions.ts';
import { HttpError } from '../http-error.ts';

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

  /** Counts a wrong password; the failure that reaches the limit locks the login. */
  const recordFailure = async (user: Record<string, any>) => {
    const { maxFailures, windowMinutes, lockMinutes } = lockout();
    const now = Date.now();
    const inWindow = user.lastFailedAt && now - new Date(user.lastFailedAt).getTime() < windowMinutes * 60_000;
    const failures = (inWindow ? user.failedLogins : 0) + 1;
    const locks = failures >= maxFailures;
    await app.db.updateTable('app_user').set({
      failedLogins: locks ? 0 : failures,
      lastFailedAt: locks ? null : new Date(now),
      lockedUntil: locks ? new Date(now + lockMinutes * 60_000) : null,
    }).where('id', '=', user.id).execute();
  };

  app.post<{ Body: AuthBody }>('/api/user/auth', {
    config: { access: 'public' },
    schema: {
      tags: ['session'],
      body: { $ref: 'auth-request#' },
      response: { 200: { $ref: 'auth-response#' }, 401: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const body = request.body;
      const user = await app.db.selectFrom('app_user').selectAll().where('login', '=', body.username).executeTakeFirst();
      // `code` carries the spec's machine value for outside clients; `detail` is the Polish text to show.
      const refuse = async (code: string, detail: string, reason: string, status = 401) => {
        await history(body.username, user?.rola ?? body.role, false, reason);
        throw new HttpError(status, detail, { code });
      };
      // a locked login is refused before the password is even checked, so guessing gains nothing
      const lockedMs = user?.lockedUntil ? new Date(user.lockedUntil).getTime() - Date.now() : 0;
      if (lockedMs > 0) {
        const minutes = Math.ceil(lockedMs / 60_000);
        return refuse('LOCKED', t('login:errors.locked', { minutes }), t('login:history.locked'), 429);
      }
      const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
      if (user && !passwordOk) await recordFailure(user);
      if (!user || !passwordOk || !ACCOUNT_ROLES_FOR_CHOICE[body.role].includes(user.rola)) {
        return refuse('UNAUTHORIZED', t('login:errors.unauthorized'), t('login:history.badCredentials'));
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
        if (!vehicle) {
          const detail = t(body.role === 'USER' ? 'login:errors.vehicleNotAssigned' : 'login:errors.vehicleNotFound');
          return refuse('UNAUTHORIZED', detail, detail);
        }
      }
      const token = await createSession(app.db, user.id, user.rola, vehicle?.pojazdId ?? null);
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
