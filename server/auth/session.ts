/**
 * A signed-in session as the server checks it on every call: written by auth/sessions.ts, kept by
 * auth/session-cache.ts (a module of its own so that the two do not import each other).
 */
import type { Role } from '../../runtime/core/conditions.ts';

export interface Session {
  tokenHash: string;
  userId: number;
  login: string;
  role: Role;
  klientSymbol: string | null;
  stacjaSerw: string | null;
  pojazdId: number | null;
  /** A current terms document exists that this user has not accepted (spec §4 "Terms modal"). */
  termsPending: boolean;
  /** The user has not chosen their own password yet (first sign-in, or a password an administrator set). */
  firstLogin: boolean;
}
