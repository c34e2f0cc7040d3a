/**
 * The login history (spec §3 "Login history"): every sign-in attempt, sign-out and vehicle change.
 * Codes, not texts (migration 009): the screen shows them through valueLabels
 * (locales/pl/login.json history.kinds / history.reasons), so rewording never rewrites history.
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';

/** SSO_SIGN_IN: through the client's identity provider (issue 36, routes/sso.ts). SECOND_FACTOR: the user's own change of a factor;
 * SECOND_FACTOR_RESET: an administrator's reset; SESSION_END: a session ended from the sessions list (issue 36);
 * UNLOCK: an administrator's unlock of a login locked out after failed sign-ins (issue 37). */
export type LoginEvent = 'SIGN_IN' | 'SSO_SIGN_IN' | 'SIGN_OUT' | 'VEHICLE_CHANGE' | 'SECOND_FACTOR' | 'SECOND_FACTOR_RESET' | 'SESSION_END' | 'UNLOCK';
export type LoginOutcome =
  | 'SUCCESS' | 'BAD_CREDENTIALS' | 'ACCOUNT_EXPIRED' | 'PASSWORD_EXPIRED' | 'LOCKED' | 'SIGNED_OUT'
  | 'VEHICLE_CHANGED' | 'VEHICLE_NOT_ASSIGNED' | 'VEHICLE_NOT_FOUND'
  // issue 36: single sign-on refused (the provider's answer failed a check / no account of the variant), a password where only SSO is allowed
  | 'SSO_REFUSED' | 'SSO_NO_ACCOUNT' | 'PASSWORD_SIGN_IN_OFF'
  | 'BAD_SECOND_FACTOR' | 'BAD_RECOVERY_CODE' | 'BAD_PASSKEY'
  | 'TOTP_ENABLED' | 'TOTP_DISABLED' | 'RECOVERY_CODES_RENEWED' | 'PASSKEY_ADDED' | 'PASSKEY_REMOVED'
  | 'RESET_BY_ADMIN' | 'ENDED_BY_USER' | 'ENDED_BY_ADMIN' | 'UNLOCKED_BY_ADMIN';

export interface LoginHistoryEntry {
  login: string;
  rola: string | null;
  event: LoginEvent;
  outcome: LoginOutcome;
  success: boolean;
  /** The plate a vehicle change switched to. */
  rejestr?: string | null;
}

export function loginHistoryRepository(db: Kysely<DB>) {
  return {
    async record(entry: LoginHistoryEntry): Promise<void> {
      await db.insertInto('login_history').values({
        login: entry.login.slice(0, 50),
        loginDate: new Date(),
        rola: entry.rola,
        rodzaj: entry.event,
        uwagi: entry.outcome,
        success: entry.success,
        rejestr: entry.rejestr ?? null,
      }).execute();
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    loginHistory: ReturnType<typeof loginHistoryRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('loginHistory', loginHistoryRepository(app.db));
}, { name: 'login-history-repository', dependencies: ['db'] });
