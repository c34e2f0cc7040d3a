/**
 * The second step of a sign-in (issue 36): after the password, an account with a second factor
 * holds a ticket (POST /api/user/auth) and ends the sign-in here with a TOTP code, a recovery code
 * or a passkey. Every wrong try counts towards the lock-out of the login for the address exactly
 * like a wrong password (screens/app.json security.lockout) and spends the ticket after a few; the
 * answers name what was wrong with the code, never anything about the account (the ticket already
 * proves the password). The session itself is made by completeSignIn (sign-in/complete.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import { clientAddress, completeSignIn, type SignInAccount } from '../sign-in/complete.ts';
import { authenticationOptions, relyingPartyOf, verifiedAssertion } from '../auth/webauthn.ts';
import { HttpError } from '../http-error.ts';
import { perAddressLimit } from '../rate-limit.ts';
import type { LoginOutcome } from '../repositories/login-history.ts';
import type { Lockout } from '../repositories/users.ts';
import { failureRecorder, recordSignInFailureAlone, type SignInMethod } from '../audit/sign-in.ts';

export default async function secondFactorRoutes(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);
  const store = app.secondFactor.store;
  const lockout = () => app.config.bundle.app.security.lockout as Lockout;
  const errorResponse = { $ref: 'error-response#' };
  const responses = { 200: { $ref: 'auth-response#' }, 400: errorResponse, 401: errorResponse, 429: errorResponse };

  /** The live ticket and its account, or a 401 asking to sign in again; a locked login is refused first. */
  async function ticketOf(request: FastifyRequest, ticket: string) {
    const row = await store.ticket(ticket, 'SIGN_IN');
    const user = row ? await app.users.byId(row.userId) : undefined;
    if (!row || !user) throw new HttpError(401, t('security:errors.ticketExpired'), { code: 'TICKET_EXPIRED' });
    const minutes = await app.users.lockedMinutes(user.login, clientAddress(request));
    if (minutes > 0) {
      await recordSignInFailureAlone(app.db, request, { login: user.login, userId: user.id, outcome: 'LOCKED', method: 'password' });
      await app.loginHistory.record({ login: user.login, rola: user.rola, event: 'SIGN_IN', outcome: 'LOCKED', success: false });
      throw new HttpError(429, t('login:errors.locked', { minutes }), { code: 'LOCKED' });
    }
    return { row, user };
  }

  /** A wrong second factor: counted towards the lock-out and the ticket's tries, recorded, refused with its own words. */
  async function wrong(request: FastifyRequest, ticket: string, user: { id: number; login: string; rola: string }, message: string, outcome: LoginOutcome, method: SignInMethod): Promise<never> {
    const record = failureRecorder(request, { login: user.login, userId: user.id, outcome, method });
    if (await app.users.recordFailure(user.login, clientAddress(request), lockout(), record)) app.metrics.lockouts.inc();
    await store.ticketFailed(ticket);
    app.metrics.signIns.inc({ outcome: 'bad_credentials' });
    await app.loginHistory.record({ login: user.login, rola: user.rola, event: 'SIGN_IN', outcome, success: false });
    throw new HttpError(401, message, { code: 'SECOND_FACTOR_INVALID' });
  }

  /** The ticket spent, the vehicle of the password step, and the session made. */
  async function finish(request: FastifyRequest, ticket: string, row: { pojazdId: number | null }, user: SignInAccount, method: SignInMethod) {
    if (!(await store.spendTicket(ticket))) throw new HttpError(401, t('security:errors.ticketExpired'), { code: 'TICKET_EXPIRED' });
    const vehicle = row.pojazdId === null ? null
      : await app.db.selectFrom('car').select(['pojazdId', 'rejestr', 'marka', 'aktStanLicz']).where('pojazdId', '=', row.pojazdId).executeTakeFirst();
    return completeSignIn(app, request, { user, vehicle, method });
  }

  app.post<{ Body: { ticket: string; code?: string; recoveryCode?: string } }>('/api/user/auth/second-factor', {
    config: { access: 'public', operation: { resource: 'session', action: 'secondFactor', summary: 'Second step of a sign-in: a code of the authenticator app or a recovery code' } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'Ends a sign-in begun by POST /api/user/auth that answered `secondFactor`. Exactly one of `code` (6 digits of the ' +
        'authenticator app; a code is accepted once) and `recoveryCode` (one of the ten recovery codes; each works once). A wrong code ' +
        'answers 401 SECOND_FACTOR_INVALID and counts towards the lock-out like a wrong password; an unknown, expired or used-up ticket 401 TICKET_EXPIRED.',
      body: { $ref: 'second-factor-request#' },
      response: responses,
    },
    handler: async (request) => {
      const { ticket, code, recoveryCode } = request.body;
      if ((code === undefined) === (recoveryCode === undefined)) {
        const message = t('security:errors.codeMissing');
        throw new HttpError(400, message, { code: 'VALIDATION', errors: [{ field: 'code', message }] });
      }
      const { row, user } = await ticketOf(request, ticket);
      if (code !== undefined) {
        if (!(await store.checkTotp(user.id, code.replace(/\s/g, '')))) await wrong(request, ticket, user, t('security:errors.codeInvalid'), 'BAD_SECOND_FACTOR', 'totp');
      } else if (!(await store.useRecoveryCode(user.id, recoveryCode!))) {
        await wrong(request, ticket, user, t('security:errors.recoveryCodeInvalid'), 'BAD_RECOVERY_CODE', 'recovery-code');
      }
      return finish(request, ticket, row, user, code !== undefined ? 'totp' : 'recovery-code');
    },
  });

  app.post<{ Body: { ticket: string } }>('/api/user/auth/passkey-options', {
    config: { access: 'public', operation: { resource: 'session', action: 'passkeyOptions', summary: 'Second step of a sign-in with a passkey: the challenge for the browser' } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'WebAuthn authentication options (PublicKeyCredentialRequestOptionsJSON) for the passkeys of the ticket\'s account; hand them to navigator.credentials.get (@simplewebauthn/browser startAuthentication).',
      body: { $ref: 'passkey-options-request#' },
      response: { 200: { type: 'object', additionalProperties: true, description: 'PublicKeyCredentialRequestOptionsJSON' }, 401: errorResponse, 429: errorResponse },
    },
    handler: async (request) => {
      const { user } = await ticketOf(request, request.body.ticket);
      const options = await authenticationOptions(relyingPartyOf(request), await store.passkeysOf(user.id));
      await store.setChallenge(request.body.ticket, options.challenge);
      return options;
    },
  });

  app.post<{ Body: { ticket: string; response: AuthenticationResponseJSON } }>('/api/user/auth/passkey', {
    config: { access: 'public', operation: { resource: 'session', action: 'passkey', summary: 'Second step of a sign-in: the passkey\'s answer to the challenge' } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'The browser\'s answer (AuthenticationResponseJSON). A passkey of another account, an answer for another origin or an old challenge ' +
        'answers 401 SECOND_FACTOR_INVALID and counts towards the lock-out like a wrong password.',
      body: { $ref: 'passkey-sign-in-request#' },
      response: responses,
    },
    handler: async (request) => {
      const { ticket, response } = request.body;
      const { row, user } = await ticketOf(request, ticket);
      const passkey = await store.passkeyByCredential(String(response.id));
      const refused = () => wrong(request, ticket, user, t('security:errors.passkeyInvalid'), 'BAD_PASSKEY', 'passkey');
      // a passkey of another account is refused exactly like a wrong one: nothing tells whose it is
      if (!passkey || passkey.userId !== user.id || !row.challenge) return refused();
      const counter = await verifiedAssertion(relyingPartyOf(request), row.challenge, response, passkey);
      if (counter === null) return refused();
      await store.passkeyUsed(Number(passkey.id), counter);
      return finish(request, ticket, row, user, 'passkey');
    },
  });
}
