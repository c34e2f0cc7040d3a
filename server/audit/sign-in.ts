/**
 * Sign-ins in the trail (issue 37, docs/decisions.md "Audit trail (issue 37)", "Sign-ins"): a
 * success names the user, the way they proved who they are and the new session's pseudonym, in
 * the transaction that makes the session; a failure names no one — the actor is the system's
 * sign-in with the login as typed (cut to 64 characters), and the account it names, if any, is the
 * record — in the transaction that counts it towards the lock-out, or in one of its own when it is
 * not counted; a lock-out is the system's, in the same transaction that locks. The password or code
 * tried is never written. Nothing here changes what the caller is answered.
 */
import type { FastifyRequest } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { hashToken } from '../auth/sessions.ts';
import { sessionPseudonym, type Actor } from './actor.ts';
import { recordChange } from './record.ts';

export type SignInMethod = 'password' | 'totp' | 'recovery-code' | 'passkey' | 'sso';

export const SIGN_IN_RESOURCE = 'login';
const LOGIN_MAX = 64;

/** The login as typed, cut, for an entry's label: text, never looked up. */
export const typedLogin = (login: unknown) => String(login ?? '').slice(0, LOGIN_MAX);

const address = (request: FastifyRequest) => request.ip?.slice(0, 64) ?? null;
const signInSystem = (request: FastifyRequest, login: string): Actor => ({ kind: 'system', job: 'sign-in', label: typedLogin(login), address: address(request) });

/** A sign-in that made a session (`token`, the new bearer token; only a pseudonym of its hash is kept). */
export function recordSignIn(trx: Transaction<DB>, request: FastifyRequest, user: { id: number; login: string; rola: string }, token: string, method: SignInMethod) {
  return recordChange(trx, {
    actor: { kind: 'user', userId: user.id, role: user.rola, label: user.login, address: address(request), session: sessionPseudonym(hashToken(token)) },
    resource: SIGN_IN_RESOURCE, recordKey: user.id, action: 'sign-in', changes: { method: [null, method] },
  });
}

export interface Failure {
  /** The login as the caller typed it. */
  login: string;
  /** The account the login names, or null (the entry says so to the administrator, never to the caller). */
  userId: number | null;
  /** The login history's outcome (BAD_CREDENTIALS, LOCKED, BAD_SECOND_FACTOR …). */
  outcome: string;
  method: SignInMethod;
}

/** A refused sign-in, in the caller's transaction (the one that counts it) … */
export function recordSignInFailure(trx: Transaction<DB>, request: FastifyRequest, failure: Failure) {
  return recordChange(trx, {
    actor: signInSystem(request, failure.login), resource: SIGN_IN_RESOURCE, recordKey: failure.userId, action: 'sign-in-failed',
    changes: { login: [null, typedLogin(failure.login)], outcome: [null, failure.outcome], method: [null, failure.method] },
  });
}

/** … or in one of its own (a refusal that writes nothing else: a locked login, an expired account). */
export function recordSignInFailureAlone(db: Kysely<DB>, request: FastifyRequest, failure: Failure) {
  return db.transaction().execute((trx) => recordSignInFailure(trx, request, failure));
}

/**
 * What the lock-out's count runs last in its transaction (users.recordFailure): the failure and,
 * when it locked the login for this address, the lock-out.
 */
export const failureRecorder = (request: FastifyRequest, failure: Failure) => async (trx: Transaction<DB>, lockedUntil: Date | null) => {
  await recordSignInFailure(trx, request, failure);
  if (lockedUntil) {
    await recordChange(trx, {
      actor: signInSystem(request, failure.login), resource: SIGN_IN_RESOURCE, recordKey: failure.userId, action: 'lock-out',
      changes: { login: [null, typedLogin(failure.login)], lockedUntil: [null, lockedUntil.toISOString()] },
    });
  }
};

/** The end of a session by its own user (sign-out), by the user elsewhere or by an administrator. */
export function recordSessionEnd(trx: Transaction<DB>, actor: Actor, userId: number, action: 'sign-out' | 'session-end', changes: Record<string, [unknown, unknown]> = {}) {
  return recordChange(trx, { actor, resource: SIGN_IN_RESOURCE, recordKey: userId, action, changes });
}

/**
 * An advisor's session moved to another vehicle (plate and VIN part, "Zmień pojazd"): which
 * vehicle's data the session reaches changed, so it is in the trail like a sign-in, by plate.
 */
export function recordVehicleChange(trx: Transaction<DB>, actor: Actor, userId: number, plates: [string | null, string]) {
  return recordChange(trx, { actor, resource: SIGN_IN_RESOURCE, recordKey: userId, action: 'vehicle-change', changes: { vehicle: plates } });
}
