/**
 * Single sign-on per client variant (issue 36, docs/decisions.md "Single sign-on per client"):
 * OpenID Connect, authorization code with PKCE, state and nonce (server/sign-in/sso/).
 *
 * 1. GET /api/user/sso/start — the sign-in page's "Zaloguj przez …" link. Starts a flow for the
 *    variant serving the page (its host) and sends the browser to the provider. The flow's secrets
 *    stay in the database (any process may get the callback); the browser gets a short-lived
 *    HttpOnly cookie whose hash the flow keeps, so the flow ends only in the browser that began it.
 * 2. GET /api/user/sso/callback — where the provider sends the person back (the redirect URI to
 *    register). Takes the flow once (a replayed state finds nothing), checks the answer, finds the
 *    account, and sends the browser to the sign-in page with a one-time code in the URL fragment
 *    (`/#sso=…`: never sent to a server, never in a log or a Referer).
 * 3. POST /api/user/sso/session — the runtime exchanges that code for the same answer as a
 *    password sign-in (POST /api/user/auth), or the refusal in Polish.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Role } from '../../runtime/core/conditions.ts';
import { accountFor, personOf } from '../sign-in/sso/accounts.ts';
import { authorizationRequest, SsoRefusal, verifiedClaims, type SsoRefusalCode } from '../sign-in/sso/oidc.ts';
import { ssoOf } from '../sign-in/sso/settings.ts';
import { FLOW_TTL_MS, sha256, ssoStore } from '../sign-in/sso/store.ts';
import { sessionConfig } from '../config/security.ts';
import { HttpError } from '../http-error.ts';
import { recordSignInFailureAlone } from '../audit/sign-in.ts';
import type { SignInOutcome } from '../metrics/registry.ts';
import { perAddressLimit } from '../rate-limit.ts';
import type { LoginOutcome } from '../repositories/login-history.ts';
import { completeSignIn } from '../sign-in/complete.ts';

const CALLBACK_PATH = '/api/user/sso/callback';
/** The browser's half of a flow; sent back only to the callback. */
const COOKIE = 'portal_sso';
const random = () => randomBytes(32).toString('base64url');

/** Where the provider sends the person back: this host's callback (register it at the provider). */
const redirectUriOf = (request: FastifyRequest) => `${request.protocol}://${request.host}${CALLBACK_PATH}`;

function cookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === COOKIE) return v.join('=');
  }
  return undefined;
}

/** The login history's outcome and the metric's label of a refusal. */
const OUTCOMES: Record<SsoRefusalCode, LoginOutcome> = {
  STATE: 'SSO_REFUSED', CODE: 'SSO_REFUSED', TOKEN: 'SSO_REFUSED', DENIED: 'SSO_REFUSED', UNAVAILABLE: 'SSO_REFUSED',
  NO_ACCOUNT: 'SSO_NO_ACCOUNT', ACCOUNT_EXPIRED: 'ACCOUNT_EXPIRED', LOCKED: 'LOCKED',
};

export default async function ssoRoutes(app: FastifyInstance) {
  const store = ssoStore(app.db);
  const errorResponse = { $ref: 'error-response#' };
  const redirect = (description: string) => ({ type: 'null', description });

  /** Ends a browser step: the sign-in page picks up the outcome under a one-time code. */
  async function handBack(reply: FastifyReply, variant: string, outcome: { userId: number } | { refusal: string }) {
    const code = random();
    await store.handOff(code, variant, outcome);
    return reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer').redirect(`/#sso=${code}`, 302);
  }

  async function refused(request: FastifyRequest, reply: FastifyReply, variant: string, refusal: SsoRefusal, login: string) {
    const outcome = OUTCOMES[refusal.code];
    request.log.warn({ refusal: refusal.code, why: refusal.message, variant }, 'single sign-on refused');
    app.metrics.signIns.inc({ outcome: outcome.toLowerCase() as SignInOutcome });
    await app.loginHistory.record({ login, rola: null, event: 'SSO_SIGN_IN', outcome, success: false });
    // the audit trail (issue 37): a refused single sign-on, the person as the provider named them
    await recordSignInFailureAlone(app.db, request, { login, userId: null, outcome, method: 'sso' });
    return handBack(reply, variant, { refusal: refusal.code === 'LOCKED' ? `LOCKED:${refusal.message}` : refusal.code });
  }

  app.get('/api/user/sso/start', {
    config: { access: 'public', operation: { resource: 'session', action: 'ssoStart', summary: 'Single sign-on: the redirect to the client\'s identity provider', errorPages: true } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'The sign-in page\'s "Zaloguj przez …" link, for a variant with single sign-on (app.sso). Redirects (302) to the provider\'s ' +
        'authorization endpoint (authorization code, PKCE S256, state, nonce) and sets a short-lived HttpOnly cookie for the callback. When the ' +
        'provider cannot be reached the redirect goes back to the sign-in page with the refusal (#sso=…). 404 when the variant has no single sign-on.',
      response: { 302: redirect('To the identity provider, or back to the sign-in page with a refusal'), 404: errorResponse, 429: errorResponse },
    },
    handler: async (request, reply) => {
      const { variant } = app.config.bundle;
      const sso = ssoOf(app.config.bundle);
      if (!sso) throw new HttpError(404, app.config.t('login:sso.errors.notConfigured'), { code: 'SSO_NOT_CONFIGURED' });
      let start;
      try {
        start = await authorizationRequest(sso, redirectUriOf(request));
      } catch (e) {
        if (e instanceof SsoRefusal) return refused(request, reply, variant, e, sso.name);
        throw e;
      }
      const browser = random();
      await store.startFlow(start.state, { variant, nonce: start.nonce, codeVerifier: start.codeVerifier, redirectUri: redirectUriOf(request), browserHash: sha256(browser) });
      const secure = request.protocol === 'https' ? '; Secure' : '';
      // SameSite=Lax: the provider's redirect back is a top-level navigation, which still carries it
      reply.header('set-cookie', `${COOKIE}=${browser}; Path=${CALLBACK_PATH}; Max-Age=${FLOW_TTL_MS / 1000}; HttpOnly; SameSite=Lax${secure}`);
      return reply.header('cache-control', 'no-store').redirect(start.url.href, 302);
    },
  });

  app.get<{ Querystring: Record<string, string> }>(CALLBACK_PATH, {
    config: { access: 'public', operation: { resource: 'session', action: 'ssoCallback', summary: 'Single sign-on: the provider\'s answer, back to the sign-in page', errorPages: true } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'The redirect URI to register at the provider: https://<the variant\'s host>/api/user/sso/callback. Takes the flow of `state` once ' +
        '(unknown, replayed, expired or started in another browser: refused), exchanges the code with the PKCE verifier, checks the ID token ' +
        '(signature, issuer, audience, expiry, nonce), finds the account (app.sso.match) and redirects (302) to the sign-in page with a one-time ' +
        'code in the fragment (#sso=…) that POST /api/user/sso/session turns into the session or the refusal.',
      querystring: {
        type: 'object',
        additionalProperties: { type: 'string', maxLength: 4096 },
        properties: {
          code: { type: 'string', maxLength: 4096 },
          state: { type: 'string', maxLength: 512 },
          iss: { type: 'string', maxLength: 1024 },
          error: { type: 'string', maxLength: 256 },
          error_description: { type: 'string', maxLength: 1024 },
        },
      },
      response: { 302: redirect('Back to the sign-in page, #sso=<one-time code>'), 429: errorResponse },
    },
    handler: async (request, reply) => {
      const hostVariant = app.config.bundle.variant;
      const state = request.query.state;
      const flow = state ? await store.takeFlow(state) : undefined;
      const browser = cookieOf(request);
      // the cookie has done its work whatever happens next
      reply.header('set-cookie', `${COOKIE}=; Path=${CALLBACK_PATH}; Max-Age=0; HttpOnly; SameSite=Lax`);
      const sso = flow && app.config.forVariant(flow.variant).bundle.variant === flow.variant ? ssoOf(app.config.forVariant(flow.variant).bundle) : undefined;
      const name = sso?.name ?? ssoOf(app.config.bundle)?.name ?? '-';
      if (!flow || !state) return refused(request, reply, hostVariant, new SsoRefusal('STATE', state ? 'no flow has this state (replayed, expired or made up)' : 'no state'), name);
      if (!browser || sha256(browser) !== flow.browserHash) return refused(request, reply, flow.variant, new SsoRefusal('STATE', 'the flow was started in another browser'), name);
      if (!sso) return refused(request, reply, flow.variant, new SsoRefusal('UNAVAILABLE', `variant ${flow.variant} has no single sign-on any more`), name);

      // the provider's answer (code, state, iss) from the parsed query, for openid-client to check
      // against the redirect URI (the route is public; the flow's state and browser cookie were checked above)
      const answer = new URLSearchParams();
      for (const [key, value] of Object.entries(request.query as Record<string, unknown>)) {
        for (const one of ([] as unknown[]).concat(value)) if (typeof one === 'string') answer.append(key, one);
      }
      const search = answer.size ? `?${answer}` : '';
      let claims;
      try {
        claims = await verifiedClaims(sso, new URL(flow.redirectUri + search), { state, nonce: flow.nonce, codeVerifier: flow.codeVerifier });
      } catch (e) {
        if (e instanceof SsoRefusal) return refused(request, reply, flow.variant, e, sso.name);
        throw e;
      }
      try {
        const userId = await accountFor(app, flow.variant, claims, request.ip.slice(0, 64));
        return handBack(reply, flow.variant, { userId });
      } catch (e) {
        if (e instanceof SsoRefusal) return refused(request, reply, flow.variant, e, (personOf(sso, claims) ?? sso.name).slice(0, 50));
        throw e;
      }
    },
  });

  app.post<{ Body: { code: string } }>('/api/user/sso/session', {
    config: { access: 'public', operation: { resource: 'session', action: 'ssoSession', summary: 'Single sign-on: the session (bearer token, user details) or the refusal' } },
    onRequest: perAddressLimit(app, 'signIn'),
    schema: {
      description: 'The runtime sends the one-time code of the sign-in page\'s fragment (#sso=…). The answer is that of POST /api/user/auth; a refusal ' +
        'is 401 (unknown, used or expired code; the provider\'s answer failed a check; no account of this variant for the person) or 429 (the account is locked), ' +
        'with the Polish reason. A person the provider knows but the portal does not is answered like any other refused person.',
      body: { $ref: 'sso-session-request#' },
      response: { 200: { $ref: 'auth-response#' }, 401: errorResponse, 429: errorResponse },
    },
    handler: async (request) => {
      const handoff = await store.takeHandoff(request.body.code);
      const variant = handoff?.variant ?? app.config.bundle.variant;
      const { t, bundle } = app.config.forVariant(variant);
      const name = ssoOf(bundle)?.name ?? '';
      if (!handoff) throw new HttpError(401, t('login:sso.errors.STATE', { name }), { code: 'SSO_STATE' });
      if (handoff.refusal) {
        const [code, minutes] = handoff.refusal.split(':');
        if (code === 'LOCKED') throw new HttpError(429, t('login:errors.locked', { minutes: Number(minutes) }), { code: 'LOCKED' });
        if (code === 'ACCOUNT_EXPIRED') throw new HttpError(401, t('login:errors.accountExpired'), { code: 'User credentials have expired' });
        throw new HttpError(401, t(`login:sso.errors.${code}`, { name }), { code: `SSO_${code}` });
      }
      const user = await app.users.byId(handoff.userId!);
      if (!user) throw new HttpError(401, t('login:sso.errors.NO_ACCOUNT', { name }), { code: 'SSO_NO_ACCOUNT' });
      // the same completion as every sign-in (terms, first password, roles and row scope follow from the session)
      return completeSignIn(app, request, { user, vehicle: null, viaIdentityProvider: true });
    },
  });
}
