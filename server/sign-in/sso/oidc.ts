/**
 * The OpenID Connect side of a single sign-on (issue 36), with openid-client: the provider's
 * configuration (discovered once per issuer, client and secret, then kept for an hour), the
 * authorization URL of a new flow (PKCE S256, state, nonce) and the checks of the answer
 * (authorization code grant: state, `iss`, PKCE, the ID token's signature, issuer, audience,
 * expiry and nonce — all done by openid-client). Every failure becomes one of a few refusal codes
 * whose Polish texts are locales/pl/login.json `sso.errors`.
 */
import * as client from 'openid-client';
import type { SsoSettings } from './settings.ts';

/** Why a sign-in through the provider was refused (locales/pl/login.json sso.errors.<code>). */
export type SsoRefusalCode = 'STATE' | 'CODE' | 'TOKEN' | 'DENIED' | 'UNAVAILABLE' | 'NO_ACCOUNT' | 'ACCOUNT_EXPIRED' | 'LOCKED';

export class SsoRefusal extends Error {
  constructor(readonly code: SsoRefusalCode, why: string) {
    super(why);
  }
}

/** http is allowed for a provider on this machine only (a test's, a developer's Keycloak); the meta-schema allows no other. */
const LOOPBACK = /^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/|$)/;
const DISCOVERY_TTL_MS = 60 * 60_000;
/** Seconds the provider has to answer a discovery or token call. */
const PROVIDER_TIMEOUT_S = 10;
const discovered = new Map<string, { at: number; config: Promise<client.Configuration> }>();

async function configurationOf(sso: SsoSettings): Promise<client.Configuration> {
  const secret = process.env[sso.clientSecretEnv];
  if (!secret) throw new SsoRefusal('UNAVAILABLE', `the environment variable ${sso.clientSecretEnv} (the client secret) is not set`);
  const key = JSON.stringify([sso.issuer, sso.clientId, secret]);
  const known = discovered.get(key);
  if (known && Date.now() - known.at < DISCOVERY_TTL_MS) return known.config;
  const insecure = LOOPBACK.test(sso.issuer) ? { execute: [client.allowInsecureRequests] } : {};
  const config = client.discovery(new URL(sso.issuer), sso.clientId, undefined, client.ClientSecretBasic(secret), { ...insecure, timeout: PROVIDER_TIMEOUT_S });
  discovered.set(key, { at: Date.now(), config });
  // a provider that did not answer is asked again at the next sign-in
  config.catch(() => discovered.delete(key));
  return config.catch((e: unknown) => {
    throw new SsoRefusal('UNAVAILABLE', `discovery of ${sso.issuer} failed: ${(e as Error).message}`);
  });
}

/** A new flow's secrets and the provider's authorization URL carrying their public halves. */
export async function authorizationRequest(sso: SsoSettings, redirectUri: string) {
  const config = await configurationOf(sso);
  const state = client.randomState();
  const nonce = client.randomNonce();
  const codeVerifier = client.randomPKCECodeVerifier();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: (sso.scopes ?? ['openid', 'email', 'profile']).join(' '),
    response_type: 'code',
    state,
    nonce,
    code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
  });
  return { url, state, nonce, codeVerifier };
}

/** The ID token's claims of a callback, after every check; a SsoRefusal when one fails. */
export async function verifiedClaims(sso: SsoSettings, callbackUrl: URL, expected: { state: string; nonce: string; codeVerifier: string }) {
  const config = await configurationOf(sso);
  try {
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      expectedState: expected.state,
      expectedNonce: expected.nonce,
      pkceCodeVerifier: expected.codeVerifier,
      idTokenExpected: true,
    });
    const claims = tokens.claims();
    if (!claims) throw new SsoRefusal('TOKEN', 'no ID token');
    return claims;
  } catch (e) {
    throw refusalOf(e);
  }
}

function refusalOf(e: unknown): SsoRefusal {
  if (e instanceof SsoRefusal) return e;
  const why = (e as Error)?.message ?? String(e);
  // the provider refused the code at its token endpoint: expired, used already, or not for this client
  if (e instanceof client.ResponseBodyError) return new SsoRefusal(e.error === 'invalid_grant' ? 'CODE' : 'UNAVAILABLE', `${e.error}: ${e.error_description ?? why}`);
  // the provider sent the person back with an error (access_denied, login_required …)
  if (e instanceof client.AuthorizationResponseError) return new SsoRefusal('DENIED', `${e.error}: ${e.error_description ?? why}`);
  if (e instanceof client.ClientError) {
    const code = (e as { code?: string }).code;
    // the answer's `iss` or `state` parameter does not match what this flow expects
    if (code === 'OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' || (code === 'OAUTH_INVALID_RESPONSE' && /state/i.test(why))) return new SsoRefusal('STATE', why);
    // network, timeouts
    if (code === 'OAUTH_RESPONSE_IS_NOT_JSON' || code === 'OAUTH_RESPONSE_IS_NOT_CONFORM') return new SsoRefusal('UNAVAILABLE', why);
    // the ID token's issuer, audience, nonce, times or signature
    return new SsoRefusal('TOKEN', `${code}: ${why}`);
  }
  return new SsoRefusal('UNAVAILABLE', why);
}
