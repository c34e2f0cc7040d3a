/**
 * Signing in with a passkey alone, instead of password + code (issue 36): "Zaloguj się kluczem
 * dostępu" under the login form. Usernameless: the challenge names no account (allowCredentials
 * empty), the browser offers the discoverable credentials it holds for the portal's host, and the
 * answer names its account by the credential id and the user handle the authenticator stored.
 * User verification is required, so the passkey is both factors; the session is made by
 * completeSignIn (sign-in/complete.ts) like every other way in.
 *
 * The login screen's role choice (and a driver's plate, an advisor's plate and VIN) is made before
 * the passkey, sent with the options request (validated like the password form: 400 naming the
 * field), kept with the challenge and checked against the account once the passkey proved it, as
 * the password step checks it. Every refusal before that proof — an unknown passkey, a passkey
 * whose user handle is another account's, an answer for another origin, a challenge that is
 * unknown, expired or already used, a bad signature — answers the same 401, and when the passkey
 * is known it counts towards that account's lock-out for the address like a wrong password. Only
 * the passkey's owner (the signature verified) hears what else is wrong with the account.
 */
import { failureRecorder, recordSignInFailureAlone } from '../audit/sign-in.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { passwordSignInRefused } from '../sign-in/sso/settings.ts';
import { clientAddress, completeSignIn, type SignInVehicle } from '../sign-in/complete.ts';
import { challengeOf, discoverableAuthenticationOptions, relyingPartyOf, userHandleMatches, verifiedAssertion } from '../auth/webauthn.ts';
import { accountRolesFor } from '../config/security.ts';
import { HttpError } from '../http-error.ts';
import { perAddressLimit } from '../rate-limit.ts';
import type { LoginOutcome } from '../repositories/login-history.ts';
import type { SignInOutcome } from '../metrics/registry.ts';
import type { Lockout } from '../repositories/users.ts';

interface Choice { role: 'USER' | 'MANAGER' | 'ADVISOR'; rejestr?: string | null; vin?: string | null }

const today = () => new Date().toISOString().slice(0, 10);
const isoDate = (v: unknown): string | null => (v == null ? null : v instanceof Date ? v.toISOString().slice(0, 10) : String(v).slice(0, 10));

export default async function passkeySignInRoutes(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);
  const store = app.secondFactor.store;
  const lockout = () => app.config.bundle.app.security.lockout as Lockout;
  const errorResponse = { $ref: 'error-response#' };

  app.post<{ Body: Choice }>('/api/user/auth/passkey-only/options', {
    config: { access: 'public', operation: { resource: 'session', action: 'passkeyOnlyOptions', summary: 'Sign in with a passkey alone: the challenge, no account named' } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'Begins a sign-in with a passkey instead of password + code. The body is the login form\'s role choice (with the plate, and ' +
        'for an advisor the last six VIN characters), validated like POST /api/user/auth; it is checked against the passkey\'s account at ' +
        'POST /api/user/auth/passkey-only. Answers PublicKeyCredentialRequestOptionsJSON with no allowCredentials (the browser offers its ' +
        'discoverable credentials for this host) and user verification required; the challenge lives 5 minutes and works once.',
      body: { $ref: 'passkey-only-options-request#' },
      response: { 200: { type: 'object', additionalProperties: true, description: 'PublicKeyCredentialRequestOptionsJSON' }, 400: errorResponse, 429: errorResponse },
    },
    handler: async (request) => {
      const options = await discoverableAuthenticationOptions(relyingPartyOf(request));
      const { role, rejestr, vin } = request.body;
      await store.newPasskeySignIn(options.challenge, { role, rejestr: rejestr || null, vin: vin || null });
      return options;
    },
  });

  app.post<{ Body: { response: AuthenticationResponseJSON } }>('/api/user/auth/passkey-only', {
    config: { access: 'public', operation: { resource: 'session', action: 'passkeyOnly', summary: 'Sign in with a passkey alone: its answer gives a bearer token' } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'The browser\'s answer (AuthenticationResponseJSON) to the challenge of /passkey-only/options. An unknown passkey, a passkey whose ' +
        'user handle names another account, an answer made for another origin, an unknown, expired or already used challenge and a bad signature ' +
        'all answer the same 401 PASSKEY_REFUSED (counted towards the passkey\'s account\'s lock-out like a wrong password). Only after the passkey ' +
        'verified: 429 LOCKED for a locked login, 401 for an ended account, an expired password, a client that signs in through its identity ' +
        'provider, or a role choice or vehicle that does not fit the account (the Polish reason in `detail`). A passkey with user ' +
        'verification stands for both factors: the answer is a session, never a second step.',
      body: { $ref: 'passkey-only-sign-in-request#' },
      response: { 200: { $ref: 'auth-response#' }, 400: errorResponse, 401: errorResponse, 429: errorResponse },
    },
    handler: async (request) => {
      const { response } = request.body;
      const address = clientAddress(request);
      const challenge = challengeOf(response);
      // taken before anything else: a replayed answer finds no challenge, on this process or any other
      const flow = challenge ? await store.takePasskeySignIn(challenge) : undefined;
      const passkey = await store.passkeyByCredential(String(response.id));
      const user = passkey ? await app.users.byId(Number(passkey.userId)) : undefined;

      let counted = false;
      const refuse = async (code: string, detail: string, outcome: LoginOutcome, status = 401): Promise<never> => {
        app.metrics.signIns.inc({ outcome: (outcome === 'BAD_PASSKEY' ? 'bad_credentials' : outcome.toLowerCase()) as SignInOutcome });
        if (user) {
          await app.loginHistory.record({ login: user.login, rola: user.rola, event: 'SIGN_IN', outcome, success: false });
          // the counted failure was recorded with its count (below); the account's own refusals here
          if (outcome !== 'BAD_PASSKEY' || !counted) await recordSignInFailureAlone(app.db, request as FastifyRequest, { login: user.login, userId: user.id, outcome, method: 'passkey' });
        }
        throw new HttpError(status, detail, { code });
      };
      // The one answer before the passkey is proven: nothing tells whether the passkey, or its account, exists.
      const refused = async (): Promise<never> => {
        // a known passkey's failure counts towards its login's lock-out (not while it is locked: guesses then neither count nor extend it)
        if (user && (await app.users.lockedMinutes(user.login, address)) === 0) {
          const record = failureRecorder(request as FastifyRequest, { login: user.login, userId: user.id, outcome: 'BAD_PASSKEY', method: 'passkey' });
          if (await app.users.recordFailure(user.login, address, lockout(), record)) app.metrics.lockouts.inc();
          counted = true;
        }
        return refuse('PASSKEY_REFUSED', t('login:passkey.errors.refused'), 'BAD_PASSKEY');
      };
      if (!flow || !passkey || !user) return refused();
      // a credential of this account, answered with another account's user handle, is not this account's passkey
      if (!userHandleMatches(response.response?.userHandle, user.id)) return refused();
      const counter = await verifiedAssertion(relyingPartyOf(request), flow.challenge, response, passkey, true);
      if (counter === null) return refused();

      // The owner proved the passkey (and unlocked it): from here the answers may name what is wrong with the account.
      const minutes = await app.users.lockedMinutes(user.login, address);
      if (minutes > 0) return refuse('LOCKED', t('login:errors.locked', { minutes }), 'LOCKED', 429);
      const provider = passwordSignInRefused(app, user);
      if (provider) return refuse('PASSWORD_SIGN_IN_OFF', t('login:errors.passwordSignInOff', { name: provider }), 'PASSWORD_SIGN_IN_OFF');
      if (user.dataDo && isoDate(user.dataDo)! < today()) return refuse('User credentials have expired', t('login:errors.accountExpired'), 'ACCOUNT_EXPIRED');
      if (user.pwdDo && isoDate(user.pwdDo)! < today()) return refuse('userManagement.warnings.passwordExpired', t('login:errors.passwordExpired'), 'PASSWORD_EXPIRED');
      const choice = { role: flow.role as Choice['role'], rejestr: flow.rejestr, vin: flow.vin };
      if (!accountRolesFor(app.config.bundle.app, choice.role).includes(user.rola)) return refuse('ROLE_MISMATCH', t('login:passkey.errors.role'), 'BAD_CREDENTIALS');
      let vehicle: SignInVehicle | null | undefined = null;
      if (choice.role === 'USER' || choice.role === 'ADVISOR') {
        vehicle = await app.users.vehicleFor(choice, user);
        if (!vehicle) {
          return choice.role === 'USER'
            ? refuse('VEHICLE_NOT_ASSIGNED', t('login:errors.vehicleNotAssigned'), 'VEHICLE_NOT_ASSIGNED')
            : refuse('VEHICLE_NOT_FOUND', t('login:errors.vehicleNotFound'), 'VEHICLE_NOT_FOUND');
        }
      }
      await store.passkeyUsed(Number(passkey.id), counter);
      return completeSignIn(app, request as FastifyRequest, { user, vehicle, method: 'passkey' });
    },
  });
}
