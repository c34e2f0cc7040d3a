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
  /** The account has a second factor (a confirmed TOTP or a passkey; issue 36). Integration keys: true. */
  hasSecondFactor?: boolean;
  /** The language the user chose (app_user.language, issue 48); null: the configuration's default. */
  language?: string | null;
  /**
   * Set when the caller is an integration key, not a person (issue 34, server/integration/): the
   * session is then judged as a MANAGER of `clients` (klientSymbol is their only one, or null when
   * there are several) or as ADMIN when the key names every client, further limited to `scopes`.
   */
  integration?: IntegrationPrincipal;
}

/** What a request made with an integration key is (CONTRACTS.md "Integration keys"). */
export interface IntegrationPrincipal {
  accountId: number;
  keyId: number;
  /** The clients whose rows the key may touch: every client, or these symbols. */
  clients: 'all' | readonly string[];
  /** `read:<resource>`, `import:<declaration>`, `webhooks`. */
  scopes: readonly string[];
}
