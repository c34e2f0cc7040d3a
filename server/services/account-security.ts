/**
 * Changes to an account's security (issues 36, 37 and 45, "routes only translate HTTP"): the
 * caller's own authenticator app, recovery codes and passkeys (Ustawienia → Bezpieczeństwo), and an
 * administrator's unlock and reset of a second factor from the user's dialog. Each is one
 * transaction that changes the factors (server/auth/second-factor.ts, in the caller's transaction)
 * and records the trail entry of resource `users`, the account as its record, as its last
 * statement; the login history (spec §3 "Login history") is written after the commit, as it always
 * was. An administrator's reset ends the account's sessions in the same transaction as its factors
 * and its entry: a failure between them can no longer leave the sessions alive.
 *
 * The route has checked what the caller may do (his password or code, the configuration's
 * requirement of a second factor) before it calls.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Transaction } from 'kysely';
import { recordChange, type Actor, type Changes } from '../audit/index.ts';
import type { DB } from '../db/types.generated.ts';
import type { LoginOutcome } from '../repositories/login-history.ts';

/** The account a change is made to (its id for the trail, its login and role for the login history). */
export interface SecurityAccount {
  id: number;
  login: string;
  rola: string;
}

/** A passkey as the browser's registration answer was verified (auth/webauthn.ts). */
export interface VerifiedPasskey {
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
}

export function securityService(app: FastifyInstance) {
  const store = () => app.secondFactor.store;

  /** The trail's entry of a change to an account's security (issue 37): resource users, the account as its record. */
  const entry = (trx: Transaction<DB>, actor: Actor, userId: number, action: string, changes: Changes) =>
    recordChange(trx, { actor, resource: 'users', recordKey: userId, action, changes });

  const history = (user: SecurityAccount, event: 'SECOND_FACTOR' | 'SECOND_FACTOR_RESET' | 'UNLOCK', outcome: LoginOutcome) =>
    app.loginHistory.record({ login: user.login, rola: user.rola, event, outcome, success: true });

  return {
    /** The authenticator app is confirmed with a first code: answers the new recovery codes (shown this once). */
    async confirmTotp(actor: Actor, user: SecurityAccount): Promise<string[]> {
      const codes = await app.db.transaction().execute(async (trx) => {
        const made = await store().confirmTotp(trx, user.id);
        await entry(trx, actor, user.id, 'totp-enable', { totp: [false, true], recoveryCodes: [null, 'new'] });
        return made;
      });
      await history(user, 'SECOND_FACTOR', 'TOTP_ENABLED');
      return codes;
    },

    /** The authenticator app is switched off: its secret and the recovery codes go. */
    async disableTotp(actor: Actor, user: SecurityAccount): Promise<void> {
      await app.db.transaction().execute(async (trx) => {
        await store().disableTotp(trx, user.id);
        await entry(trx, actor, user.id, 'totp-disable', { totp: [true, false], recoveryCodes: ['old', null] });
      });
      await history(user, 'SECOND_FACTOR', 'TOTP_DISABLED');
    },

    /** New recovery codes (answered this once); the old ones stop working. */
    async renewRecoveryCodes(actor: Actor, user: SecurityAccount): Promise<string[]> {
      const codes = await app.db.transaction().execute(async (trx) => {
        const made = await store().regenerateRecoveryCodes(trx, user.id);
        await entry(trx, actor, user.id, 'recovery-codes-renew', { recoveryCodes: ['old', 'new'] });
        return made;
      });
      await history(user, 'SECOND_FACTOR', 'RECOVERY_CODES_RENEWED');
      return codes;
    },

    /** A verified passkey joins the account under the name its user gives it; answers its id. */
    async addPasskey(actor: Actor, user: SecurityAccount, passkey: VerifiedPasskey, name: string): Promise<number> {
      const trimmed = name.trim();
      const id = await app.db.transaction().execute(async (trx) => {
        const added = await store().addPasskey(trx, user.id, { ...passkey, name: trimmed });
        await entry(trx, actor, user.id, 'passkey-add', { passkeyId: [null, added], passkeyName: [null, trimmed] });
        return added;
      });
      await history(user, 'SECOND_FACTOR', 'PASSKEY_ADDED');
      return id;
    },

    /** Renames one of the account's passkeys (an entry only when the name changed); false when it has no such passkey. */
    async renamePasskey(actor: Actor, userId: number, id: number, name: string): Promise<boolean> {
      const trimmed = name.trim();
      return app.db.transaction().execute(async (trx) => {
        const before = await store().renamePasskey(trx, userId, id, trimmed);
        if (before === undefined) return false;
        if (before !== trimmed) await entry(trx, actor, userId, 'passkey-rename', { passkeyId: [id, id], passkeyName: [before, trimmed] });
        return true;
      });
    },

    /** Removes one of the account's passkeys (the route has checked it is his and not his last required factor). */
    async removePasskey(actor: Actor, user: SecurityAccount, id: number): Promise<void> {
      await app.db.transaction().execute(async (trx) => {
        const name = await store().removePasskey(trx, user.id, id);
        if (name !== undefined) await entry(trx, actor, user.id, 'passkey-remove', { passkeyId: [id, null], passkeyName: [name, null] });
      });
      await history(user, 'SECOND_FACTOR', 'PASSKEY_REMOVED');
    },

    /**
     * An administrator's unlock: the failed sign-ins and lock-outs of the account's login, from every
     * address, are forgotten. Recorded (trail and login history) only when a lock-out was in force;
     * answers how many were.
     */
    async unlock(actor: Actor, user: SecurityAccount): Promise<number> {
      const lockouts = await app.db.transaction().execute(async (trx) => {
        const count = await app.users.clearLockouts(trx, user);
        if (count > 0) await entry(trx, actor, user.id, 'unlock', { lockouts: [count, 0] });
        return count;
      });
      if (lockouts > 0) await history(user, 'UNLOCK', 'UNLOCKED_BY_ADMIN');
      return lockouts;
    },

    /**
     * An administrator's reset of a second factor: the authenticator app, the recovery codes and the
     * passkeys of the account go and its sessions end (the administrator's own current one stays when
     * he resets his own), with the entry naming the administrator, in one transaction.
     */
    async resetSecondFactor(actor: Actor, user: SecurityAccount, keepTokenHash?: string): Promise<void> {
      await app.db.transaction().execute(async (trx) => {
        const removed = await store().resetAll(trx, user.id);
        await app.sessions.revokeAllOf(user.id, keepTokenHash, trx);
        await entry(trx, actor, user.id, 'second-factor-reset', {
          totp: [removed.totp, false], passkeys: [removed.passkeys, 0], unusedRecoveryCodes: [removed.recoveryCodes, 0],
        });
      });
      await history(user, 'SECOND_FACTOR_RESET', 'RESET_BY_ADMIN');
    },
  };
}

export type SecurityService = ReturnType<typeof securityService>;

declare module 'fastify' {
  interface FastifyInstance {
    securityService: SecurityService;
  }
}

export default fp(
  async (app) => {
    app.decorate('securityService', securityService(app));
  },
  { name: 'security-service', dependencies: ['db', 'second-factor', 'users-repository', 'sessions-repository', 'login-history-repository'] },
);
