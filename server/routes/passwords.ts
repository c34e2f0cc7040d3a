/**
 * Password calls of spec §7 "Passwords": change one's own, the first-login change, an
 * administrator setting one, and the forgotten-password flow (a single-use code sent by e-mail).
 * HTTP only (issue 45): the rules, the transaction, the ended sessions and the trail are
 * app.passwordService's (server/services/passwords.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf } from '../audit/index.ts';
import { perAddressLimit } from '../rate-limit.ts';

/** The caller's address as the trail keeps it (as a sign-in's: server/audit/sign-in.ts). */
const callerAddress = (request: FastifyRequest) => request.ip?.slice(0, 64) ?? null;

interface ChangeBody { currentPassword: string; newPassword: string }
interface UsersChangeBody { userId: number; password: string; firstLogin?: boolean }
interface ResetBody { email: string }
interface ForgottenBody { username: string; resetToken: string; newPassword: string }

export default async function passwordRoutes(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);
  const op = (action: string, summary: string) => ({ resource: 'password', action, summary });
  const errorResponse = { $ref: 'error-response#' };
  const ok = (key: string) => ({ message: t(key) });

  /** Own password, knowing the current one (the password change page). */
  const changeOwn = async (request: FastifyRequest<{ Body: ChangeBody }>) => {
    await app.passwordService.changeOwn(actorOf(request), request.session!, request.body.currentPassword, request.body.newPassword);
    return ok('password:changed');
  };

  const changeSchema = { body: { $ref: 'password-change-request#' }, response: { 200: { $ref: 'message-response#' }, 404: errorResponse } };
  const own = { access: 'signedIn', termsExempt: true, firstLoginExempt: true } as const;
  app.post<{ Body: ChangeBody }>('/api/password/change-password', {
    config: { ...own, operation: op('change', 'Change one\'s own password, knowing the current one') },
    schema: changeSchema,
    handler: changeOwn,
  });
  // spec §7 "POST /account: password change (passwordChangeDTO)": the same change under its other name
  app.post<{ Body: ChangeBody }>('/api/account', {
    config: { ...own, operation: op('changeAccount', 'Change one\'s own password (the account page\'s call)') },
    schema: changeSchema,
    handler: changeOwn,
  });

  app.put<{ Body: UsersChangeBody }>('/api/users/change-password', {
    config: { ...own, operation: op('set', 'Set a password: the first-sign-in change, or an administrator\'s') },
    schema: {
      description: 'firstLogin: the forced change after the first sign-in (own account only, while the account still has to change it). ' +
        'By an administrator: any user\'s password, which that user must change at the next sign-in.',
      body: { $ref: 'users-change-password-request#' },
      response: { 200: { $ref: 'message-response#' }, 403: errorResponse, 404: errorResponse },
    },
    handler: async (request) => {
      await app.passwordService.set(actorOf(request), request.session!, request.body.userId, request.body.password);
      return ok('password:changed');
    },
  });

  app.post<{ Body: ResetBody }>('/api/password/reset-password', {
    config: { access: 'public', operation: op('resetRequest', 'Send a password reset code by e-mail') },
    onRequest: perAddressLimit(app, 'resetRequest'),
    schema: {
      description: 'Sends a reset code to every active account with this e-mail. The answer is the same whether or not such an account exists.',
      body: { $ref: 'reset-password-request#' },
      response: { 200: { $ref: 'message-response#' }, 429: errorResponse, 503: errorResponse },
    },
    handler: async (request) => {
      await app.passwordService.requestReset(request.body.email, { origin: `${request.protocol}://${request.host}`, address: callerAddress(request), log: request.log });
      return ok('password:resetSent');
    },
  });

  app.put<{ Body: ForgottenBody }>('/api/password/change-forgotten-password', {
    config: { access: 'public', operation: op('resetChange', 'Set a new password with a reset code from the e-mail') },
    onRequest: perAddressLimit(app, 'resetCode'),
    schema: {
      body: { $ref: 'forgotten-password-change-request#' },
      response: { 200: { $ref: 'message-response#' }, 429: errorResponse },
    },
    handler: async (request) => {
      const { username, resetToken, newPassword } = request.body;
      await app.passwordService.resetWithCode(username, resetToken, newPassword, callerAddress(request));
      return ok('password:changedForgotten');
    },
  });
}
