/**
 * Password calls of spec §7 "Passwords": change one's own, the first-login change, an
 * administrator setting one, and the forgotten-password flow (a single-use code sent by e-mail).
 * A new password always passes the policy and strength rules (auth/new-password.ts); changing it
 * ends the user's other sessions, so a password someone else learnt stops working everywhere.
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { actorOf, CHANGED, recordChange } from '../audit/index.ts';
import { assertAcceptablePassword, setPassword } from '../auth/new-password.ts';
import { verifyPassword } from '../auth/password.ts';
import { resetLink } from '../config/security.ts';
import { HttpError } from '../http-error.ts';
import { isMailConfigured, sendMail } from '../mail/mailer.ts';
import { perAddressLimit } from '../rate-limit.ts';

/** Letters and digits that cannot be mistaken for one another when typed from an e-mail. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 10;

export function newResetCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

const hashCode = (code: string) => createHash('sha256').update(code.trim().toUpperCase()).digest();

interface ChangeBody { currentPassword: string; newPassword: string }
interface UsersChangeBody { userId: number; password: string; firstLogin?: boolean }
interface ResetBody { email: string }
interface ForgottenBody { username: string; resetToken: string; newPassword: string }

export default async function passwordRoutes(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);
  const security = () => app.config.bundle.app.security as { resetCode: { validMinutes: number; maxAttempts: number }; passwordValidityDays: number };
  const op = (action: string, summary: string) => ({ resource: 'password', action, summary });
  const errorResponse = { $ref: 'error-response#' };
  const ok = (key: string) => ({ message: t(key) });
  const fieldError = (status: number, field: string, message: string, code = 'VALIDATION') =>
    new HttpError(status, message, { code, errors: [{ field, message }] });

  const account = async (id: number) => {
    const user = await app.users.byId(id);
    if (!user) throw new HttpError(404, t('errors:notFound'));
    return user;
  };
  const personalWords = (u: { login: string; firstName: string | null; lastName: string | null; email: string | null }) =>
    [u.login, u.firstName, u.lastName, u.email?.split('@')[0]];

  /** Own password, knowing the current one (the password change page). */
  const changeOwn = async (request: FastifyRequest<{ Body: ChangeBody }>) => {
    const session = request.session!;
    const user = await account(session.userId);
    if (!(await verifyPassword(request.body.currentPassword, user.passwordHash ?? ''))) {
      throw fieldError(400, 'currentPassword', t('password:errors.currentWrong'));
    }
    if (request.body.newPassword === request.body.currentPassword) throw fieldError(400, 'newPassword', t('password:errors.sameAsCurrent'));
    assertAcceptablePassword(app, 'newPassword', request.body.newPassword, personalWords(user));
    await app.db.transaction().execute(async (trx) => {
      await setPassword(trx, user.id, request.body.newPassword, { firstLogin: false, validityDays: security().passwordValidityDays });
      await app.sessions.revokeAllOf(user.id, session.tokenHash, trx);
      await recordChange(trx, { actor: actorOf(request), resource: 'users', recordKey: user.id, action: 'password-change', changes: { password: [CHANGED, CHANGED] } });
    });
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
      const session = request.session!;
      const { userId, password } = request.body;
      const isAdmin = session.role === 'ADMIN';
      const own = userId === session.userId;
      const target = await app.users.byId(userId);
      // another user's account does not exist for a non-admin (ACCESS.md: self)
      if (!target || (!own && !isAdmin)) throw new HttpError(404, t('errors:notFound'));
      if (own && !target.firstLogin && !isAdmin) throw new HttpError(403, t('password:errors.useChangeForm'), { code: 'FORBIDDEN' });
      assertAcceptablePassword(app, 'password', password, personalWords(target));
      // an administrator's choice is temporary: the user picks their own at the next sign-in
      const firstLogin = isAdmin && !own;
      await app.db.transaction().execute(async (trx) => {
        await setPassword(trx, userId, password, { firstLogin, validityDays: security().passwordValidityDays });
        await app.sessions.revokeAllOf(userId, own ? session.tokenHash : undefined, trx);
        // the trail (issue 37): an administrator's reset of another's password, or one's own change
        await recordChange(trx, {
          actor: actorOf(request), resource: 'users', recordKey: userId, action: own ? 'password-change' : 'password-reset',
          changes: { password: [target.passwordHash ? CHANGED : null, CHANGED], ...(target.firstLogin !== firstLogin ? { firstLogin: [target.firstLogin, firstLogin] } : {}) },
        });
      });
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
      // checked before looking the address up, so an unconfigured server answers every address alike
      if (!isMailConfigured(await app.settings.emailConfig())) {
        request.log.error('password reset requested but the e-mail configuration is incomplete');
        throw new HttpError(503, t('password:errors.resetMailFailed'), { code: 'MAIL' });
      }
      const accounts = await app.users.openByEmail(request.body.email);
      const { validMinutes } = security().resetCode;
      const codes = accounts.map((a) => ({ userId: a.id, login: a.login, code: newResetCode() }));
      try {
        await app.db.transaction().execute(async (trx) => {
          for (const c of codes) {
            // a new code replaces any earlier one of the account
            await app.users.resets.replace(trx, c.userId, hashCode(c.code).toString('hex'), new Date(Date.now() + validMinutes * 60_000));
          }
          if (codes.length) {
            const link = resetLink(app.config.bundle.app, `${request.protocol}://${request.host}`);
            const accountsText = codes.map((c) => t('password:resetMail.account', { login: c.login, code: c.code })).join('\n');
            try {
              await sendMail(trx, {
                to: accounts[0].email!,
                subject: t('password:resetMail.subject', { app: app.config.bundle.app.loginAppName }),
                text: t('password:resetMail.text', { accounts: accountsText, minutes: validMinutes, link, app: app.config.bundle.app.loginAppName }),
              });
            } catch (error) {
              app.metrics.emails.failed.inc({ kind: 'passwordReset' });
              throw error;
            }
            app.metrics.emails.sent.inc({ kind: 'passwordReset' });
          }
        });
      } catch (error) {
        // the codes are rolled back with the failed message; the user is told to contact the administrator
        request.log.error({ err: error }, 'password reset mail not sent');
        throw new HttpError(503, t('password:errors.resetMailFailed'), { code: 'MAIL' });
      }
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
      const invalid = () => fieldError(400, 'resetToken', t('password:errors.resetCodeInvalid'), 'RESET_CODE');
      const user = await app.users.byLoginIgnoringCase(username);
      if (!user) throw invalid();
      const pending = await app.users.resets.pending(user.id);
      const { maxAttempts } = security().resetCode;
      if (!pending || pending.attempts >= maxAttempts) throw invalid();
      const given = hashCode(resetToken);
      if (!timingSafeEqual(given, Buffer.from(pending.tokenHash, 'hex'))) {
        await app.users.resets.countAttempt(pending.tokenHash);
        throw invalid();
      }
      // the code is right; a password that breaks the rules leaves it usable for a better one
      assertAcceptablePassword(app, 'newPassword', newPassword, [user.login, user.firstName, user.lastName, user.email?.split('@')[0]]);
      await app.db.transaction().execute(async (trx) => {
        if (!(await app.users.resets.spend(trx, pending.tokenHash))) throw invalid(); // used by a parallel request
        await setPassword(trx, user.id, newPassword, { firstLogin: false, validityDays: security().passwordValidityDays });
        await app.sessions.revokeAllOf(user.id, undefined, trx);
      });
      return ok('password:changedForgotten');
    },
  });
}
