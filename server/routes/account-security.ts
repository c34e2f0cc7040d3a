/**
 * Ustawienia → Bezpieczeństwo (issue 36), for every role: the second factor (TOTP with recovery
 * codes, passkeys) and the sessions signed in now, each of which can be ended; and the same
 * sessions, a reset of the second factor and an unlock of a locked-out login, for an
 * administrator from the user's dialog.
 *
 * The enrolment calls are open to a user the configuration asks for a second factor before they
 * have one (`secondFactorExempt`; the runtime's first session gate), and before the terms and the
 * first password change, which come after it. Secrets (the TOTP secret, recovery codes) are in
 * one answer only and never logged (plugins/request-log.ts redacts their fields). Ending a session
 * deletes it: every process's session cache hears of it at the commit (migration 008). The route
 * checks what the caller may do and answers; each change, with its trail entry and login history,
 * is the security service's (services/account-security.ts) or the session service's.
 */
import { describeUserAgent } from '../auth/session-device.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { verifyPassword } from '../auth/password.ts';
import { clientAddress, secondFactorRequired, type SignInAccount } from '../sign-in/complete.ts';
import { registrationOptions, relyingPartyOf, verifiedRegistration } from '../auth/webauthn.ts';
import { actorOf } from '../audit/index.ts';
import { failureRecorder } from '../audit/sign-in.ts';
import { HttpError } from '../http-error.ts';
import { DEFAULT_SESSION_LIFETIME, signedInWithin } from '../auth/sessions.ts';
import { sessionLifetimeOf } from '../config/security.ts';
import type { Lockout } from '../repositories/users.ts';

const RESOURCE = 'security';
const idPattern = '^[1-9][0-9]{0,8}$';
const sessionIdPattern = '^[A-Za-z0-9_-]{22}$';

export default async function accountSecurityRoutes(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);
  const store = app.secondFactor.store;
  const op = (action: string, summary: string) => ({ resource: RESOURCE, action, summary });
  const errorResponse = { $ref: 'error-response#' };
  const own = { access: 'signedIn' as const, termsExempt: true, firstLoginExempt: true };
  const enrolment = { ...own, secondFactorExempt: true };
  const admin = { access: { roles: ['ADMIN' as const] } };
  const refuse = (field: string, key: string) => {
    const message = t(key);
    return new HttpError(400, message, { code: 'VALIDATION', errors: [{ field, message }] });
  };
  const notFound = () => new HttpError(404, t('errors:notFound'));
  const noContent = { type: 'null', description: 'Done' };
  const codesAnswer = {
    type: 'object', required: ['recoveryCodes'], additionalProperties: false,
    properties: { recoveryCodes: { type: 'array', items: { type: 'string' }, description: 'Ten one-time recovery codes: shown this once, kept hashed.' } },
  };
  const sessionList = {
    type: 'array',
    items: {
      type: 'object', additionalProperties: false,
      properties: {
        id: { type: 'string' }, current: { type: 'boolean' }, device: { type: 'string' }, browser: { type: 'string' },
        address: { type: ['string', 'null'] }, createdAt: { type: 'string', format: 'date-time' }, lastSeenAt: { type: 'string', format: 'date-time' },
      },
    },
  };

  /** The account of the caller (a session of a deleted account has ended before it gets here). */
  async function me(request: FastifyRequest) {
    const user = await app.users.byId(request.session!.userId);
    if (!user) throw new HttpError(401, t('errors:unauthorized'), { code: 'UNAUTHORIZED' });
    return user;
  }

  const describe = (userAgent: string | null) => describeUserAgent(userAgent, t);

  async function sessionsOf(userId: number, currentHash?: string) {
    const rows = (await app.sessions.listOf(userId)).map((s) => ({
      id: s.id, current: s.tokenHash === currentHash, ...describe(s.userAgent), address: s.address,
      createdAt: new Date(s.createdAt).toISOString(), lastSeenAt: new Date(s.lastSeenAt).toISOString(),
    }));
    // "Ta sesja" first: the one a person recognises, the others measured against it (issue 49)
    return [...rows.filter((s) => s.current), ...rows.filter((s) => !s.current)];
  }

  /**
   * The password (and, where asked, a code) of a change that weakens the account: a wrong one
   * counts towards the sign-in lock-out of the login for this address, like a wrong password at
   * sign-in, so a stolen session cannot guess it; while locked, refused with 429.
   */
  async function confirmIdentity(request: FastifyRequest, user: Pick<SignInAccount, 'id' | 'login' | 'passwordHash'>, password: string, code?: string) {
    const address = clientAddress(request);
    const minutes = await app.users.lockedMinutes(user.login, address);
    if (minutes > 0) throw new HttpError(429, t('login:errors.locked', { minutes }), { code: 'LOCKED' });
    const fail = async (field: string, key: string) => {
      // the trail (issue 37): a wrong password or code of a signed-in user is a failed proof like a sign-in's, and may lock
      const record = failureRecorder(request, { login: user.login, userId: user.id, outcome: field === 'password' ? 'BAD_CREDENTIALS' : 'BAD_SECOND_FACTOR', method: field === 'password' ? 'password' : 'totp' });
      await app.users.recordFailure(user.login, address, app.config.bundle.app.security.lockout as Lockout, record);
      return refuse(field, key);
    };
    if (!(await verifyPassword(password, user.passwordHash))) throw await fail('password', 'security:errors.passwordWrong');
    if (code !== undefined && !(await store.checkTotp(user.id, code.replace(/\s/g, '')))) throw await fail('code', 'security:errors.codeInvalid');
  }

  const security = app.securityService;

  app.get('/api/account/security', {
    config: { ...enrolment, operation: op('overview', 'The caller\'s second factor, passkeys and sessions (Ustawienia → Bezpieczeństwo)') },
    schema: {
      response: {
        200: {
          type: 'object', additionalProperties: false, required: ['required', 'totp', 'recoveryCodesLeft', 'passkeys', 'sessions'],
          properties: {
            required: { type: 'boolean', description: 'The configuration asks this user for a second factor (security.secondFactorRequiredWhen).' },
            totp: { type: 'boolean', description: 'An authenticator app is set up.' },
            recoveryCodesLeft: { type: 'integer' },
            passkeys: {
              type: 'array',
              items: {
                type: 'object', additionalProperties: false,
                properties: { id: { type: 'integer' }, name: { type: 'string' }, createdAt: { type: 'string', format: 'date-time' }, lastUsedAt: { type: ['string', 'null'], format: 'date-time' } },
              },
            },
            sessions: sessionList,
          },
        },
      },
    },
    handler: async (request) => {
      const session = request.session!;
      const factors = await store.factorsOf(session.userId);
      return {
        required: secondFactorRequired(app, session.role),
        totp: factors.totp,
        recoveryCodesLeft: factors.recoveryCodesLeft,
        passkeys: factors.passkeys.map((p) => ({ id: Number(p.id), name: p.name, createdAt: new Date(p.createdAt).toISOString(), lastUsedAt: p.lastUsedAt ? new Date(p.lastUsedAt).toISOString() : null })),
        sessions: await sessionsOf(session.userId, session.tokenHash),
      };
    },
  });

  app.post('/api/account/totp/setup', {
    config: { ...enrolment, operation: op('totpSetup', 'Begin setting up an authenticator app: its secret as text and as a QR code') },
    schema: {
      description: 'A new secret (replacing one not yet confirmed); TOTP is on only after POST /api/account/totp/confirm with a first code. 409 when it is on already.',
      response: {
        200: {
          type: 'object', required: ['secret', 'otpauthUrl', 'qrDataUrl'], additionalProperties: false,
          properties: { secret: { type: 'string', description: 'Base32; shown to type into the app' }, otpauthUrl: { type: 'string' }, qrDataUrl: { type: 'string', description: 'data:image/png;base64 QR code of otpauthUrl' } },
        },
        409: errorResponse,
      },
    },
    handler: async (request) => {
      const user = await me(request);
      const issuer = app.config.t(String(app.config.bundle.app.loginAppName ?? 'Portal'));
      const made = await store.beginTotp(user.id, user.login, issuer);
      if (!made) throw new HttpError(409, t('security:errors.totpAlreadyOn'), { code: 'TOTP_ALREADY_ON' });
      return made;
    },
  });

  app.post<{ Body: { code: string } }>('/api/account/totp/confirm', {
    config: { ...enrolment, operation: op('totpConfirm', 'Confirm the authenticator app with a first code; answers the recovery codes') },
    schema: {
      body: { $ref: 'totp-confirm-request#' },
      response: { 200: codesAnswer, 400: errorResponse },
    },
    handler: async (request) => {
      const user = await me(request);
      if (!(await store.checkTotp(user.id, request.body.code.replace(/\s/g, ''), { pending: true }))) throw refuse('code', 'security:errors.codeInvalid');
      return { recoveryCodes: await security.confirmTotp(actorOf(request), user) };
    },
  });

  app.post<{ Body: { password: string; code: string } }>('/api/account/totp/disable', {
    config: { ...own, operation: op('totpDisable', 'Switch the authenticator app off (the password and a current code)') },
    schema: {
      description: 'Refused with 400 while the configuration asks this user for a second factor and no passkey remains; a wrong password or code counts towards the sign-in lock-out.',
      body: { $ref: 'totp-disable-request#' },
      response: { 204: noContent, 400: errorResponse, 429: errorResponse },
    },
    handler: async (request, reply) => {
      const user = await me(request);
      const factors = await store.factorsOf(user.id);
      if (!factors.totp) throw refuse('code', 'security:errors.totpOff');
      await confirmIdentity(request, user, request.body.password, request.body.code);
      if (secondFactorRequired(app, user.rola) && factors.passkeys.length === 0) throw refuse('code', 'security:errors.lastFactorRequired');
      await security.disableTotp(actorOf(request), user);
      return reply.status(204).send();
    },
  });

  app.post<{ Body: { password: string } }>('/api/account/recovery-codes', {
    config: { ...own, operation: op('recoveryCodes', 'New recovery codes (the password); the old ones stop working') },
    schema: {
      body: { $ref: 'recovery-codes-request#' },
      response: { 200: codesAnswer, 400: errorResponse, 429: errorResponse },
    },
    handler: async (request) => {
      const user = await me(request);
      if (!(await store.factorsOf(user.id)).totp) throw refuse('password', 'security:errors.totpOff');
      await confirmIdentity(request, user, request.body.password);
      return { recoveryCodes: await security.renewRecoveryCodes(actorOf(request), user) };
    },
  });

  app.post('/api/account/passkeys/options', {
    config: { ...enrolment, operation: op('passkeyOptions', 'Begin registering a passkey: the options for the browser') },
    schema: {
      description: 'PublicKeyCredentialCreationOptionsJSON for navigator.credentials.create (@simplewebauthn/browser startRegistration), with a ticket to send back with the answer. ' +
        'A passkey signs in alone, so only a session signed in within security.session.recentSignInMinutes may add one: otherwise 403 SIGN_IN_AGAIN.',
      response: { 403: errorResponse, 200: { type: 'object', required: ['ticket', 'options'], properties: { ticket: { type: 'string' }, options: { type: 'object', additionalProperties: true } } } },
    },
    handler: async (request) => {
      const user = await me(request);
      // a passkey signs in alone: only a fresh sign-in may add one, so a stolen session cannot add its own way in (ASVS 7.5.1)
      const recent = sessionLifetimeOf(app.config.bundle.app).recentSignInMinutes ?? DEFAULT_SESSION_LIFETIME.recentSignInMinutes!;
      if (!(await signedInWithin(app.db, request.session!.tokenHash, recent))) throw new HttpError(403, t('security:errors.signInAgain'), { code: 'SIGN_IN_AGAIN' });
      const rpName = app.config.t(String(app.config.bundle.app.loginAppName ?? 'Portal'));
      const options = await registrationOptions(relyingPartyOf(request), rpName, { id: user.id, login: user.login, name: `${user.firstName ?? ''} ${user.lastName ?? ''}`.trim() || user.login }, await store.passkeysOf(user.id));
      const ticket = await store.newTicket({ userId: user.id, purpose: 'REGISTER_PASSKEY' });
      await store.setChallenge(ticket, options.challenge);
      return { ticket, options };
    },
  });

  app.post<{ Body: { ticket: string; name: string; response: RegistrationResponseJSON } }>('/api/account/passkeys', {
    config: { ...enrolment, operation: op('passkeyAdd', 'Register a passkey: the browser\'s answer and the name the user gives it') },
    schema: {
      body: { $ref: 'passkey-add-request#' },
      response: { 201: { type: 'object', required: ['id'], properties: { id: { type: 'integer' } } }, 400: errorResponse },
    },
    handler: async (request, reply) => {
      const user = await me(request);
      const { ticket, name, response } = request.body;
      const row = await store.ticket(ticket, 'REGISTER_PASSKEY');
      if (!row || row.userId !== user.id || !row.challenge || !(await store.spendTicket(ticket))) throw refuse('response', 'security:errors.passkeyExpired');
      const made = await verifiedRegistration(relyingPartyOf(request), row.challenge, response);
      if (!made) throw refuse('response', 'security:errors.passkeyNotRegistered');
      if (await store.passkeyByCredential(made.credentialId)) throw refuse('response', 'security:errors.passkeyKnown');
      const id = await security.addPasskey(actorOf(request), user, made, name);
      reply.code(201);
      return { id };
    },
  });

  app.put<{ Params: { id: string }; Body: { name: string } }>('/api/account/passkeys/:id', {
    config: { ...own, operation: op('passkeyRename', 'Rename one of the caller\'s passkeys') },
    schema: {
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: idPattern } } },
      body: { $ref: 'passkey-rename-request#' },
      response: { 204: noContent, 404: errorResponse },
    },
    handler: async (request, reply) => {
      if (!(await security.renamePasskey(actorOf(request), request.session!.userId, Number(request.params.id), request.body.name))) throw notFound();
      return reply.status(204).send();
    },
  });

  app.delete<{ Params: { id: string } }>('/api/account/passkeys/:id', {
    config: { ...own, operation: op('passkeyRemove', 'Remove one of the caller\'s passkeys') },
    schema: {
      description: 'Refused with 400 when it is the last second factor of a user the configuration asks for one.',
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: idPattern } } },
      response: { 204: noContent, 400: errorResponse, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const user = await me(request);
      const factors = await store.factorsOf(user.id);
      const id = Number(request.params.id);
      if (!factors.passkeys.some((p) => Number(p.id) === id)) throw notFound();
      if (secondFactorRequired(app, user.rola) && !factors.totp && factors.passkeys.length === 1) throw refuse('id', 'security:errors.lastFactorRequired');
      await security.removePasskey(actorOf(request), user, id);
      return reply.status(204).send();
    },
  });

  app.delete<{ Params: { id: string } }>('/api/account/sessions/:id', {
    config: { ...own, secondFactorExempt: true, operation: op('sessionEnd', 'End one of the caller\'s sessions (Wyloguj)') },
    schema: {
      params: { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: sessionIdPattern } } },
      response: { 204: noContent, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const user = await me(request);
      if (!(await app.sessionService.endSession(actorOf(request), user, request.params.id, 'ENDED_BY_USER'))) throw notFound();
      return reply.status(204).send();
    },
  });

  app.post('/api/account/sessions/end-others', {
    config: { ...own, secondFactorExempt: true, operation: op('sessionsEndOthers', 'End every session of the caller but this one (Wyloguj wszędzie indziej)') },
    schema: { response: { 204: noContent } },
    handler: async (request, reply) => {
      await app.sessionService.endOthers(actorOf(request), request.session!);
      return reply.status(204).send();
    },
  });

  // ---- the administrator, from the user's dialog ----
  const userParams = { type: 'object', required: ['id'], properties: { id: { type: 'string', pattern: idPattern } } };
  async function account(id: string) {
    const user = await app.users.byId(Number(id));
    if (!user) throw notFound();
    return user;
  }

  app.get<{ Params: { id: string } }>('/api/users/:id/sessions', {
    config: { ...admin, operation: op('userSessions', 'The sessions a user is signed in with now (ADMIN)') },
    schema: { params: userParams, response: { 200: sessionList, 404: errorResponse } },
    handler: async (request) => {
      const user = await account(request.params.id);
      return sessionsOf(user.id, request.session!.tokenHash);
    },
  });

  app.delete<{ Params: { id: string; sessionId: string } }>('/api/users/:id/sessions/:sessionId', {
    config: { ...admin, operation: op('userSessionEnd', 'End a session of a user (ADMIN); on every process at once') },
    schema: {
      params: { type: 'object', required: ['id', 'sessionId'], properties: { id: { type: 'string', pattern: idPattern }, sessionId: { type: 'string', pattern: sessionIdPattern } } },
      response: { 204: noContent, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const user = await account(request.params.id);
      if (!(await app.sessionService.endSession(actorOf(request), user, request.params.sessionId, 'ENDED_BY_ADMIN'))) throw notFound();
      return reply.status(204).send();
    },
  });

  // An account locked out after too many failed sign-ins (screens/app.json security.lockout) is
  // locked per address for some minutes: the helpdesk's answer to its owner is to unlock it now.
  const lockoutList = {
    type: 'array',
    description: 'The lock-outs of the account\'s login in force now, one per address, the latest-ending first.',
    items: {
      type: 'object', required: ['address', 'lockedUntil'], additionalProperties: false,
      properties: { address: { type: 'string' }, lockedUntil: { type: 'string', format: 'date-time' } },
    },
  };

  app.get<{ Params: { id: string } }>('/api/users/:id/lockouts', {
    config: { ...admin, operation: op('userLockouts', 'The sign-in lock-outs of a user in force now (ADMIN)') },
    schema: { params: userParams, response: { 200: lockoutList, 404: errorResponse } },
    handler: async (request) => {
      const user = await account(request.params.id);
      return (await app.users.lockoutsOf(user.login)).map((l) => ({ address: l.address, lockedUntil: l.lockedUntil.toISOString() }));
    },
  });

  app.delete<{ Params: { id: string } }>('/api/users/:id/lockouts', {
    config: { ...admin, operation: op('userUnlock', 'Unlock a user locked out after failed sign-ins (ADMIN)') },
    schema: {
      description: 'Forgets the failed sign-ins and lock-outs of the account\'s login from every address: the user may sign in at once. ' +
        'Recorded in the audit trail (users, unlock) and the login history (UNLOCK) when a lock-out was in force; nothing to unlock is no error.',
      params: userParams,
      response: { 204: noContent, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const user = await account(request.params.id);
      await security.unlock(actorOf(request), user);
      return reply.status(204).send();
    },
  });

  app.post<{ Params: { id: string } }>('/api/users/:id/second-factor/reset', {
    config: { ...admin, operation: op('userSecondFactorReset', 'Reset a user\'s second factor (ADMIN): set up again at the next sign-in') },
    schema: {
      description: 'Removes the authenticator app, the recovery codes and the passkeys of the account and ends its sessions; recorded in the login history (SECOND_FACTOR_RESET).',
      params: userParams,
      response: { 204: noContent, 404: errorResponse },
    },
    handler: async (request, reply) => {
      const user = await account(request.params.id);
      // the factors go and the sessions end in one transaction with the entry naming the administrator
      await security.resetSecondFactor(actorOf(request), user, user.id === request.session!.userId ? request.session!.tokenHash : undefined);
      return reply.status(204).send();
    },
  });

}
