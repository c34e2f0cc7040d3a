/**
 * Sign-in and sign-out (spec §3 "Login request/response", §7 "Authentication and session").
 * A USER signs in to the vehicle assigned to them (plate); an ADVISOR to any vehicle whose plate
 * and last six VIN characters match; MANAGER and ADMIN accounts use the office choice. Every
 * attempt is written to the login history.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import { verifyPassword } from '../auth/password.ts';
import { createSession, revokeSession } from '../auth/sessions.ts';
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

async function findVehicle(db: Kysely<any>, body: AuthBody, user: any) {
  const plate = (body.rejestr ?? '').trim().toUpperCase();
  let q = db.selectFrom('car').select(['pojazdId', 'rejestr', 'marka', 'aktStanLicz']).where(sql`upper("rejestr")`, '=', plate);
  if (body.role === 'USER') q = q.where('pracId', '=', user.pracId ?? -1);
  else q = q.where(sql`upper(right("nrPodw", 6))`, '=', (body.vin ?? '').trim().toUpperCase());
  return q.executeTakeFirst();
}

export default async function userAuthRoutes(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v as any);

  const history = (login: string, rola: string | null, success: boolean, uwagi: string) =>
    app.db.insertInto('login_history').values({ login: login.slice(0, 50), loginDate: new Date(), rola, rodzaj: 'LOGOWANIE', uwagi, success }).execute();

  app.post<{ Body: AuthBody }>('/api/user/auth', {
    config: { public: true },
    schema: {
      tags: ['session'],
      body: { $ref: 'auth-request#' },
      response: { 200: { $ref: 'auth-response#' }, 401: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const body = request.body;
      const user = await app.db.selectFrom('app_user').selectAll().where('login', '=', body.username).executeTakeFirst();
      const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
      // `code` carries the spec's machine value for outside clients; `detail` is the Polish text to show.
      const refuse = async (code: string, detail: string, reason: string) => {
        await history(body.username, user?.rola ?? body.role, false, reason);
        throw new HttpError(401, detail, { code });
      };
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
      await history(user.login, user.rola, true, t('login:history.success'));
      return {
        id_token: token,
        body: {
          userDetails: {
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
          },
          postConfig: { logicConfig: { hideRangeForManager: Boolean(app.config.bundle.config.hideRangeForManager) } },
        },
      };
    },
  });

  app.post('/api/user/logout', {
    schema: { tags: ['session'], response: { 204: { type: 'null' } } },
    handler: async (request, reply) => {
      await revokeSession(app.db, request.session!.tokenHash);
      return reply.status(204).send();
    },
  });
}
