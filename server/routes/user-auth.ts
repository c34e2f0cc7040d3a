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
import { verifyPassword } from '../auth/password.ts';
import { passwordSignInRefused } from '../sign-in/sso/settings.ts';
import { completeSignIn, secondFactorRequired, userDetails, type SignInVehicle } from '../sign-in/complete.ts';
import { accountRolesFor, resetLink, sessionConfig } from '../config/security.ts';
import { HttpError } from '../http-error.ts';
import { perAddressLimit } from '../rate-limit.ts';
import type { LoginOutcome } from '../repositories/login-history.ts';
import type { SignInOutcome } from '../metrics/registry.ts';
import type { Lockout } from '../repositories/users.ts';
import { failureRecorder, recordSignInFailureAlone } from '../audit/sign-in.ts';
import { actorOf } from '../audit/index.ts';

interface AuthBody {
  username: string;
  password: string;
  role: 'USER' | 'MANAGER' | 'ADVISOR';
  rejestr?: string | null;
  vin?: string | null;
}

// Compared against when the login is unknown, so that a wrong login takes as long as a wrong password.
const DUMMY_HASH = 'scrypt$16384$8$1$AAAAAAAAAAAAAAAAAAAAAA==$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=';

const today = () => new Date().toISOString().slice(0, 10);
const isoDate = (v: unknown): string | null => (v == null ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

export default async function userAuthRoutes(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);

  const lockout = () => app.config.bundle.app.security.lockout as Lockout;

  app.post<{ Body: AuthBody }>('/api/user/auth', {
    config: { access: 'public', operation: { resource: 'session', action: 'signIn', summary: 'Sign in: a bearer token and the user\'s details' } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'Every refusal that could tell whether the login exists or the password is right (unknown login, wrong password, ' +
        'role choice or vehicle) answers the same 401 UNAUTHORIZED. Failed sign-ins of one login name from one address lock it for ' +
        'that address for a few minutes (429 LOCKED), known or unknown alike; each address has a call limit (429 TOO_MANY_REQUESTS). ' +
        'An account with a second factor (issue 36) gets `secondFactor` { ticket, methods } instead of a token: the sign-in ends with ' +
        'POST /api/user/auth/second-factor (a TOTP or recovery code) or /api/user/auth/passkey.',
      body: { $ref: 'auth-request#' },
      response: { 200: { $ref: 'auth-response#' }, 401: { $ref: 'error-response#' }, 429: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const body = request.body;
      const address = request.ip.slice(0, 64);
      const user = await app.users.byLogin(body.username);
      // `code` carries the spec's machine value for outside clients; `detail` is the Polish text to show.
      const refuse = async (code: string, detail: string, outcome: LoginOutcome, status = 401, recorded = false) => {
        app.metrics.signIns.inc({ outcome: outcome.toLowerCase() as SignInOutcome });
        // the audit trail (issue 37): a refusal the lock-out did not count (and record) has a transaction of its own
        if (!recorded) await recordSignInFailureAlone(app.db, request, { login: body.username, userId: user?.id ?? null, outcome, method: 'password' });
        await app.loginHistory.record({ login: body.username, rola: user?.rola ?? body.role, event: 'SIGN_IN', outcome, success: false });
        throw new HttpError(status, detail, { code });
      };
      // a locked login is refused before the password is even checked, so guessing gains nothing
      const minutes = await app.users.lockedMinutes(body.username, address);
      if (minutes > 0) return refuse('LOCKED', t('login:errors.locked', { minutes }), 'LOCKED', 429);

      // an unknown login is checked against a dummy hash: it takes as long as a wrong password
      const passwordOk = await verifyPassword(body.password, user?.passwordHash ?? DUMMY_HASH);
      /** The one answer for every failure that must not tell what was wrong; it counts towards the lock. */
      const badCredentials = async (outcome: LoginOutcome) => {
        const record = failureRecorder(request, { login: body.username, userId: user?.id ?? null, outcome, method: 'password' });
        if (await app.users.recordFailure(body.username, address, lockout(), record)) app.metrics.lockouts.inc();
        return refuse('UNAUTHORIZED', t('login:errors.unauthorized'), outcome, 401, true);
      };
      if (!user || !passwordOk || !accountRolesFor(app.config.bundle.app, body.role).includes(user.rola)) {
        return badCredentials('BAD_CREDENTIALS');
      }
      // issue 36: the account's client signs its people in through its own identity provider only. Told only
      // after the password proved right, so it says nothing a stranger could use.
      const provider = passwordSignInRefused(app, user);
      if (provider) return refuse('PASSWORD_SIGN_IN_OFF', t('login:errors.passwordSignInOff', { name: provider }), 'PASSWORD_SIGN_IN_OFF');
      if (user.dataDo && isoDate(user.dataDo)! < today()) {
        return refuse('User credentials have expired', t('login:errors.accountExpired'), 'ACCOUNT_EXPIRED');
      }
      if (user.pwdDo && isoDate(user.pwdDo)! < today()) {
        return refuse('userManagement.warnings.passwordExpired', t('login:errors.passwordExpired'), 'PASSWORD_EXPIRED');
      }

      let vehicle: SignInVehicle | null | undefined = null;
      if (body.role === 'USER' || body.role === 'ADVISOR') {
        vehicle = await app.users.vehicleFor(body, user);
        // a vehicle that does not fit answers like a wrong password: anything else would confirm the password
        if (!vehicle) return badCredentials(body.role === 'USER' ? 'VEHICLE_NOT_ASSIGNED' : 'VEHICLE_NOT_FOUND');
      }
      // an account with a second factor gets a ticket for the second step, not yet a session (issue 36)
      const methods = await app.secondFactor.store.methodsOf(user.id);
      if (methods.length) {
        const ticket = await app.secondFactor.store.newTicket({ userId: user.id, purpose: 'SIGN_IN', role: body.role, pojazdId: vehicle?.pojazdId ?? null });
        return { secondFactor: { ticket, methods } };
      }
      return completeSignIn(app, request, { user, vehicle });
    },
  });

  app.post<{ Body: { rejestr: string; vin: string } }>('/api/user/re-logging', {
    config: { access: { roles: ['ADVISOR'] }, operation: { resource: 'session', action: 'changeVehicle', summary: 'Switch an advisor\'s session to another vehicle' } },
    schema: {
      description: 'An advisor switches the session to another vehicle (plate + last six VIN characters); the token stays the same.',
      body: { $ref: 're-logging-request#' },
      response: { 200: { $ref: 're-logging-response#' }, 404: { $ref: 'error-response#' } },
    },
    handler: async (request) => {
      const session = request.session!;
      const { user, vehicle } = await app.sessionService.changeVehicle(actorOf(request), session, request.body);
      return { userDetails: userDetails(user, vehicle, !session.hasSecondFactor && secondFactorRequired(app, user.rola)) };
    },
  });

  app.post('/api/user/logout', {
    config: { access: 'signedIn', termsExempt: true, firstLoginExempt: true, secondFactorExempt: true, operation: { resource: 'session', action: 'signOut', summary: 'Sign out: the session ends' } },
    schema: { response: { 204: { type: 'null', description: 'Signed out' } } },
    handler: async (request, reply) => {
      await app.sessionService.signOut(actorOf(request), request.session!);
      return reply.status(204).send();
    },
  });
}
