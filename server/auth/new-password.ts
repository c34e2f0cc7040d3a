/**
 * Writing a new password (spec §5 "Password"): the same policy and strength rules the browser
 * shows as the user types (runtime/core/password-rules.ts), checked again here because the server
 * protects the data; then the hash, a fresh expiry and an unlocked account.
 */
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { MIN_ACCEPTED_SCORE, policyViolations, type PasswordPolicy } from '../../runtime/core/password-rules.ts';
import { passwordScore } from '../../runtime/core/password-strength.ts';
import { HttpError } from '../http-error.ts';
import { hashPassword } from './password.ts';

/** Refuses (400 on `field`) a password that breaks the policy or is too guessable. */
export function assertAcceptablePassword(app: FastifyInstance, field: string, password: string, userInputs: (string | null | undefined)[]) {
  const t = app.config.t;
  const policy = app.config.bundle.app.passwordPolicy as PasswordPolicy;
  const broken = policyViolations(password, policy);
  const messages = broken.map((v) => t(v.key, { n: v.n }));
  if (!messages.length && passwordScore(password, userInputs.filter((s): s is string => Boolean(s))) < MIN_ACCEPTED_SCORE) {
    messages.push(t('password:rules.tooWeak'));
  }
  if (messages.length) {
    throw new HttpError(400, messages.join(' '), { code: 'VALIDATION', errors: [{ field, message: messages[0] }] });
  }
}

export interface SetPasswordOptions {
  /** The user must change it at the next sign-in (a password an administrator chose). */
  firstLogin: boolean;
  validityDays: number;
}

/** Stores a new password: hash, expiry (pwdDo), first-login flag; clears a lock-out. */
export async function setPassword(db: Kysely<DB>, userId: number, password: string, options: SetPasswordOptions): Promise<void> {
  const pwdDo = new Date(Date.now() + options.validityDays * 86_400_000).toISOString().slice(0, 10);
  await db.updateTable('app_user').set({
    passwordHash: await hashPassword(password),
    pwdDo,
    firstLogin: options.firstLogin,
    failedLogins: 0,
    lastFailedAt: null,
    lockedUntil: null,
  }).where('id', '=', userId).execute();
  // the lock-out counts per login name and address (user-auth.ts): a new password lifts all of them
  await db.deleteFrom('sign_in_failure').where('login', '=', db.selectFrom('app_user').select('login').where('id', '=', userId)).execute();
}
