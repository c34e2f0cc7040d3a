/**
 * THE completion of a sign-in, once every factor the account needs is proven (issue 36): the
 * password step when the account has no second factor, the second step (a TOTP code, a recovery
 * code, a passkey) otherwise — and any other way of proving who someone is (single sign-on) calls
 * this same function. It makes the session (with the browser's user agent and address, shown on
 * Ustawienia → Bezpieczeństwo), switches to the variant of the user's client, clears the address's
 * failed sign-ins, counts and records the success, and answers what POST /api/user/auth answers.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Selectable } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import { secondFactorRequired } from '../auth/second-factor-rule.ts';
import type { DB } from '../db/types.generated.ts';
import { sessionConfig } from '../config/security.ts';
import { recordSignIn, type SignInMethod } from '../audit/sign-in.ts';

const isoDate = (v: unknown): string | null => (v == null ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

/** The account signing in (its app_user row). */
export type SignInAccount = Selectable<DB['app_user']>;
/** The vehicle a USER or ADVISOR signs in to (repositories/users.ts `vehicleFor`). */
export type SignInVehicle = Pick<Selectable<DB['car']>, 'pojazdId' | 'rejestr' | 'marka' | 'aktStanLicz'>;

/** What the session and the runtime keep of the signed-in user (schemas/api/user-details). */
export function userDetails(user: SignInAccount, vehicle: SignInVehicle | null | undefined, secondFactorPending = false) {
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
    // the configuration asks this user for a second factor they have not set up yet: enrolment first
    secondFactorPending,
    email: user.email,
    telefon: user.telefon,
    telefonKom: user.telefonKom,
    // the user's own employee record: a driver is the participant of the damages they report
    pracId: user.pracId ?? null,
    pojazdId: vehicle?.pojazdId ?? null,
    rejestr: vehicle?.rejestr ?? null,
    stanLicz: vehicle?.aktStanLicz ?? null,
    marka: vehicle?.marka ?? null,
    stacjaSerw: user.stacjaSerw,
    klientSymbol: user.klientSymbol,
    language: user.language ?? null,
  };
}

/** The client address as counted by the lock-out and shown in the sessions list. */
export const clientAddress = (request: FastifyRequest) => request.ip.slice(0, 64);

export { secondFactorRequired };

export interface SignInCompletion {
  /** The account (app_user row). */
  user: SignInAccount;
  /** The vehicle a USER or ADVISOR signed in to, or null. */
  vehicle: SignInVehicle | null | undefined;
  /** Proven by the client's identity provider (single sign-on): recorded as such, and its second factor is the provider's. */
  viaIdentityProvider?: boolean;
  /** How the last factor was proven, for the audit trail (default: the password, or the provider's sign-in). */
  method?: SignInMethod;
}

/** Makes the session of a user who proved every factor; answers the sign-in reply (schemas/api/auth-response). */
export async function completeSignIn(app: FastifyInstance, request: FastifyRequest, { user, vehicle, viaIdentityProvider = false, method }: SignInCompletion) {
  const address = clientAddress(request);
  // the session and its entry in the audit trail (issue 37) commit together
  const token = await app.db.transaction().execute(async (trx) => {
    const made = await app.sessions.create(user.id, user.rola as Role, vehicle?.pojazdId ?? null, {
      userAgent: String(request.headers['user-agent'] ?? '').slice(0, 500) || null,
      address,
      viaIdentityProvider,
    }, trx);
    await recordSignIn(trx, request, user, made, method ?? (viaIdentityProvider ? 'sso' : 'password'));
    return made;
  });
  // the session is served by the variant of the user's client from now on (config/variants.ts)
  app.config.useClientVariant(user.klientSymbol);
  await app.users.clearFailures(user, address);
  app.metrics.signIns.inc({ outcome: 'success' });
  await app.loginHistory.record({ login: user.login, rola: user.rola, event: viaIdentityProvider ? 'SSO_SIGN_IN' : 'SIGN_IN', outcome: 'SUCCESS', success: true });
  const pending = !viaIdentityProvider && secondFactorRequired(app, user.rola) && !(await app.secondFactor.store.hasFactor(user.id));
  return {
    id_token: token,
    body: {
      userDetails: userDetails(user, vehicle, pending),
      postConfig: { variant: app.config.bundle.variant, logicConfig: sessionConfig(app.config.bundle.app, app.config.bundle.config) },
    },
  };
}
