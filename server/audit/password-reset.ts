/**
 * The forgotten-password flow in the trail (issue 45): a reset code mailed for an account, and the
 * new password set with it. Both are made by someone without a session, so neither entry can name
 * a signed-in user the way a password change does:
 *
 * - a code sent is the system's password reset (like a refused sign-in, the system's sign-in), with
 *   the account's login as its label and the caller's address, in the transaction that stores the
 *   code and queues the mail: a mail that fails takes the code and the entry back with it;
 * - a password set with a code is the account's own user, who proved it with the code (like a
 *   sign-in names its user), with the address but no session, in the transaction that spends the
 *   code, sets the password and ends the sessions.
 *
 * The code and the password are never written: only that they changed ("zmieniono").
 */
import type { Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { Actor } from './actor.ts';
import { recordChange } from './record.ts';
import { CHANGED } from './secrets.ts';

/** The trail's resource of an account (the users administration's, where "Historia zmian" finds it). */
const RESOURCE = 'users';

interface Account { id: number; login: string }

/** A reset code stored for `account`, valid until `expiresAt`, mailed at the request of `address`. */
export function recordResetCodeSent(trx: Transaction<DB>, account: Account, expiresAt: Date, address: string | null) {
  const actor: Actor = { kind: 'system', job: 'password-reset', label: account.login, address };
  return recordChange(trx, {
    actor, resource: RESOURCE, recordKey: account.id, action: 'password-reset-request',
    changes: { resetCode: [null, CHANGED], expiresAt: [null, expiresAt.toISOString()] },
  });
}

/** A new password set for `account` with its mailed code (spent now); `firstLogin` is cleared when it was set. */
export function recordPasswordResetByCode(trx: Transaction<DB>, account: Account & { rola: string; passwordHash: string | null; firstLogin: boolean }, address: string | null) {
  const actor: Actor = { kind: 'user', userId: account.id, role: account.rola, label: account.login, address };
  return recordChange(trx, {
    actor, resource: RESOURCE, recordKey: account.id, action: 'password-reset-by-code',
    changes: {
      password: [account.passwordHash ? CHANGED : null, CHANGED], resetCode: [CHANGED, null],
      ...(account.firstLogin ? { firstLogin: [true, false] } : {}),
    },
  });
}
