/**
 * Passwords (spec §7 "Passwords"; issue 45, "routes only translate HTTP"): one's own change, the
 * first-sign-in change or an administrator's, and the forgotten-password flow (a single-use code
 * sent by e-mail). A new password always passes the policy and strength rules
 * (auth/new-password.ts); setting one ends the account's other sessions, in the same transaction
 * as the password and its trail entry, so a password someone else learnt stops working everywhere
 * the moment the new one is kept. The password itself is never in the trail: only "zmieniono".
 */
import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { CHANGED, recordChange, type Actor } from '../audit/index.ts';
import { recordPasswordResetByCode, recordResetCodeSent } from '../audit/password-reset.ts';
import { assertAcceptablePassword, setPassword } from '../auth/new-password.ts';
import { verifyPassword } from '../auth/password.ts';
import type { Session } from '../auth/sessions.ts';
import { resetLink } from '../config/security.ts';
import { HttpError } from '../http-error.ts';
import { isMailConfigured, sendMail } from '../mail/mailer.ts';

/** Letters and digits that cannot be mistaken for one another when typed from an e-mail. */
const CODE_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
const CODE_LENGTH = 10;

export function newResetCode(): string {
  return Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join('');
}

const hashCode = (code: string) => createHash('sha256').update(code.trim().toUpperCase()).digest();

const personalWords = (u: { login: string; firstName: string | null; lastName: string | null; email: string | null }) =>
  [u.login, u.firstName, u.lastName, u.email?.split('@')[0]];

export function passwordService(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);
  const security = () => app.config.bundle.app.security as { resetCode: { validMinutes: number; maxAttempts: number }; passwordValidityDays: number };
  const fieldError = (status: number, field: string, message: string, code = 'VALIDATION') =>
    new HttpError(status, message, { code, errors: [{ field, message }] });
  const account = async (id: number) => {
    const user = await app.users.byId(id);
    if (!user) throw new HttpError(404, t('errors:notFound'));
    return user;
  };

  return {
    /** One's own password, knowing the current one (the password change page; POST /api/password/change-password and /api/account). */
    async changeOwn(actor: Actor, session: Session, currentPassword: string, newPassword: string): Promise<void> {
      const user = await account(session.userId);
      if (!(await verifyPassword(currentPassword, user.passwordHash ?? ''))) {
        throw fieldError(400, 'currentPassword', t('password:errors.currentWrong'));
      }
      if (newPassword === currentPassword) throw fieldError(400, 'newPassword', t('password:errors.sameAsCurrent'));
      assertAcceptablePassword(app, 'newPassword', newPassword, personalWords(user));
      await app.db.transaction().execute(async (trx) => {
        await setPassword(trx, user.id, newPassword, { firstLogin: false, validityDays: security().passwordValidityDays });
        await app.sessions.revokeAllOf(user.id, session.tokenHash, trx);
        await recordChange(trx, { actor, resource: 'users', recordKey: user.id, action: 'password-change', changes: { password: [CHANGED, CHANGED] } });
      });
    },

    /**
     * PUT /api/users/change-password: the forced change after the first sign-in (one's own account,
     * while it still has to change it), or an administrator's setting of anyone's, which that user
     * must change at the next sign-in. Another's account does not exist for a non-admin (ACCESS.md: self).
     */
    async set(actor: Actor, session: Session, userId: number, password: string): Promise<void> {
      const isAdmin = session.role === 'ADMIN';
      const own = userId === session.userId;
      const target = await app.users.byId(userId);
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
          actor, resource: 'users', recordKey: userId, action: own ? 'password-change' : 'password-reset',
          changes: { password: [target.passwordHash ? CHANGED : null, CHANGED], ...(target.firstLogin !== firstLogin ? { firstLogin: [target.firstLogin, firstLogin] } : {}) },
        });
      });
    },

    /**
     * POST /api/password/reset-password: a reset code for every open account with this e-mail,
     * in one message to that address. The caller learns nothing of whether such an account
     * exists; a mail server that is not configured, or a message that fails, is a 503 and keeps no
     * code, and no trail entry. `origin`: the address the caller reached the portal at, for the link
     * in the message; `address`: the caller's, for the trail.
     */
    async requestReset(email: string, from: { origin: string; address: string | null; log: FastifyBaseLogger }): Promise<void> {
      const { origin, log } = from;
      // checked before looking the address up, so an unconfigured server answers every address alike
      if (!isMailConfigured(await app.settings.emailConfig())) {
        log.error('password reset requested but the e-mail configuration is incomplete');
        throw new HttpError(503, t('password:errors.resetMailFailed'), { code: 'MAIL' });
      }
      const accounts = await app.users.openByEmail(email);
      const { validMinutes } = security().resetCode;
      const codes = accounts.map((a) => ({ userId: a.id, login: a.login, code: newResetCode() }));
      try {
        await app.db.transaction().execute(async (trx) => {
          const expiresAt = new Date(Date.now() + validMinutes * 60_000);
          for (const c of codes) {
            // a new code replaces any earlier one of the account; the trail says one was sent, never which
            await app.users.resets.replace(trx, c.userId, hashCode(c.code).toString('hex'), expiresAt);
            await recordResetCodeSent(trx, { id: c.userId, login: c.login }, expiresAt, from.address);
          }
          if (codes.length) {
            const link = resetLink(app.config.bundle.app, origin);
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
        log.error({ err: error }, 'password reset mail not sent');
        throw new HttpError(503, t('password:errors.resetMailFailed'), { code: 'MAIL' });
      }
    },

    /**
     * PUT /api/password/change-forgotten-password: a new password with the code from the e-mail.
     * A wrong code counts an attempt; a right one is spent with the change, every session of the
     * account ends and the trail records it as the account's own (`address`: the caller's), in one
     * transaction.
     */
    async resetWithCode(username: string, resetToken: string, newPassword: string, address: string | null): Promise<void> {
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
      assertAcceptablePassword(app, 'newPassword', newPassword, personalWords(user));
      await app.db.transaction().execute(async (trx) => {
        if (!(await app.users.resets.spend(trx, pending.tokenHash))) throw invalid(); // used by a parallel request
        await setPassword(trx, user.id, newPassword, { firstLogin: false, validityDays: security().passwordValidityDays });
        await app.sessions.revokeAllOf(user.id, undefined, trx);
        await recordPasswordResetByCode(trx, user, address);
      });
    },
  };
}

export type PasswordService = ReturnType<typeof passwordService>;

declare module 'fastify' {
  interface FastifyInstance {
    passwordService: PasswordService;
  }
}

export default fp(
  async (app) => {
    app.decorate('passwordService', passwordService(app));
  },
  { name: 'password-service', dependencies: ['config', 'db', 'users-repository', 'sessions-repository', 'settings-repository'] },
);
