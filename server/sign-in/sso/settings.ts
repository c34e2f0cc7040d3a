/**
 * A client variant's single sign-on (issue 36): `app.sso` of its variant.json, validated by
 * schemas/meta/sso.schema.json. What the portal needs to know about it besides the callback:
 * which variant serves an account (its client's, else the default), and whether that account may
 * still sign in with a password.
 */
import type { FastifyInstance } from 'fastify';
import type { Bundle } from '../../config/bundle.ts';

export interface SsoSettings {
  name: string;
  issuer: string;
  clientId: string;
  clientSecretEnv: string;
  roles: readonly ('MANAGER' | 'ADMIN')[];
  match: { by: 'email' } | { by: 'claim'; claim: string };
  passwordSignIn: boolean;
  createUsers?: { role: 'MANAGER'; client: string };
  scopes?: readonly string[];
}

/** The single sign-on of a variant's bundle, if it has one. */
export const ssoOf = (bundle: Bundle): SsoSettings | undefined => (bundle.app.sso as SsoSettings | undefined) ?? undefined;

/** The variant that serves an account: the one claiming its client, else the default one. */
export const variantOfAccount = (app: FastifyInstance, klientSymbol: string | null) => app.config.forClient(klientSymbol).bundle.variant;

/**
 * The provider's name when this account must sign in through its variant's provider and not with a
 * password (`passwordSignIn: false`, and its role is one the provider signs in); undefined otherwise.
 */
export function passwordSignInRefused(app: FastifyInstance, user: { rola: string; klientSymbol: string | null }): string | undefined {
  const sso = ssoOf(app.config.forClient(user.klientSymbol).bundle);
  if (!sso || sso.passwordSignIn) return undefined;
  return (sso.roles as readonly string[]).includes(user.rola) ? sso.name : undefined;
}
