/**
 * Which portal account a person the provider signed in is (issue 36). The provider vouches for
 * the person; the portal decides the account: one live account found by the variant's `match`
 * (the e-mail claim, or the claim value the administrator set on the account), served by THIS
 * variant (its client is one the variant claims, or the default variant's), in a role the variant's
 * single sign-on allows. Everything else is one refusal, NO_ACCOUNT, whatever the reason — an
 * unknown person, another client's account, a role not allowed, two accounts of one person — so the
 * answer says nothing about which accounts exist. A refused account that exists is counted against
 * its lock-out like a wrong password (the provider's person is then guessing at somebody's
 * account); a found one that is locked or ended is refused as a password sign-in would be.
 */
import type { FastifyInstance } from 'fastify';
import type { IDToken } from 'openid-client';
import type { Lockout } from '../../repositories/users.ts';
import { SsoRefusal } from './oidc.ts';
import { ssoOf, variantOfAccount, type SsoSettings } from './settings.ts';
import { ssoStore } from './store.ts';
import { systemActor } from '../../audit/index.ts';

/** What the login history names the attempt by when no account is found: the claim the match reads. */
export function personOf(sso: SsoSettings, claims: IDToken): string | undefined {
  const value = sso.match.by === 'email' ? claims.email : claims[sso.match.claim];
  return typeof value === 'string' && value.trim() ? value.trim() : undefined;
}

const LOGIN_CHARS = /[^A-Za-z0-9ĄĆĘŁŃÓŚŹŻąćęłńóśźż._-]+/g;
const name = (v: unknown) => (typeof v === 'string' ? v.trim().slice(0, 50) : '');

/**
 * The account id of the person, or a SsoRefusal. `variant`: the variant whose provider signed the
 * person in; `address`: the client address the lock-out counts for.
 */
export async function accountFor(app: FastifyInstance, variant: string, claims: IDToken, address: string): Promise<number> {
  const sso = ssoOf(app.config.forVariant(variant).bundle)!;
  const store = ssoStore(app.db);
  const lockout = app.config.bundle.app.security.lockout as Lockout;
  const person = personOf(sso, claims);
  // an e-mail the provider itself says it has not verified names nobody
  if (!person || (sso.match.by === 'email' && claims.email_verified === false)) throw new SsoRefusal('NO_ACCOUNT', 'the token names no one the match can use');

  const found = await store.candidates(sso.match.by, person);
  const ours = found.filter((u) => (sso.roles as readonly string[]).includes(u.rola) && variantOfAccount(app, u.klientSymbol) === variant);
  if (ours.length === 1) {
    const user = (await app.users.byId(ours[0].id))!;
    const minutes = await app.users.lockedMinutes(user.login, address);
    if (minutes > 0) throw new SsoRefusal('LOCKED', String(minutes));
    if (user.dataDo && String(user.dataDo).slice(0, 10) < new Date().toISOString().slice(0, 10)) {
      throw new SsoRefusal('ACCOUNT_EXPIRED', 'the account has ended');
    }
    return user.id;
  }
  // accounts that exist but are not this provider's to sign in: counted as failures of those logins
  for (const u of found) if (!ours.includes(u) && (await app.users.recordFailure(u.login, address, lockout))) app.metrics.lockouts.inc();
  if (ours.length > 1) throw new SsoRefusal('NO_ACCOUNT', `${ours.length} accounts match ${person}`);
  if (found.length === 0 && sso.createUsers && typeof claims.email === 'string' && claims.email_verified !== false) {
    return createAccount(app, sso, claims, person, address);
  }
  throw new SsoRefusal('NO_ACCOUNT', found.length ? `${found.length} accounts of other clients or roles match ${person}` : `no account matches ${person}`);
}

/** The account a first sign-in makes, only as app.sso.createUsers says (its role, its client). */
async function createAccount(app: FastifyInstance, sso: SsoSettings, claims: IDToken, person: string, address: string): Promise<number> {
  const store = ssoStore(app.db);
  const email = String(claims.email).trim().slice(0, 50);
  const [given, ...rest] = name(claims.name).split(/\s+/);
  const login = await store.freeLogin(email.split('@')[0].replace(LOGIN_CHARS, '.'));
  const id = await store.createAccount({
    login,
    email,
    firstName: name(claims.given_name) || given || login,
    lastName: name(claims.family_name) || rest.join(' ') || login,
    rola: sso.createUsers!.role,
    klientSymbol: sso.createUsers!.client,
    ssoSubject: sso.match.by === 'claim' ? person : null,
  }, app.writes, { ...systemActor('single-sign-on'), label: `single-sign-on:${sso.createUsers!.client}`, address });
  app.log.info({ login, client: sso.createUsers!.client }, 'single sign-on created an account');
  return id;
}
