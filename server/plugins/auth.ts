/**
 * Route access, deny by default (ACCESS.md, docs/security.md "Route access"). Every route declares
 * in its route options who may call it:
 *
 *   config: { access: 'public' }                 anyone, no session needed
 *   config: { access: 'signedIn' }               any signed-in role (rows are the resource's business)
 *   config: { access: { roles: ['ADMIN'] } }     only these roles
 *   config: { access: { resource: 'invoice' } }  the roles schemas/resources/invoice.json names
 *
 * and optionally `signed` (POST and PUT are signed writes unless a route says `signed: false`),
 * `termsExempt` and `firstLoginExempt` (open while the terms or a new password are pending).
 *
 * The declaration is read from the MATCHED route (request.routeOptions.config), never from the
 * URL text, so no spelling of a path (%61pi, //api, an absolute URL in the request line) can
 * reach a route with another route's rules. A route registered without a declaration stops
 * start-up (`requireAccessDeclarations`), routes added by plugins included: a plugin's routes get
 * theirs from the scope it is registered in (`declareScopeAccess`).
 */
import { requestContext } from '@fastify/request-context';
import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '../../runtime/core/conditions.ts';
import { SessionCache } from '../auth/session-cache.ts';
import { findSession, type Session } from '../auth/sessions.ts';
import { sessionLifetimeOf } from '../config/security.ts';
import type { IntegrationPrincipal } from '../auth/session.ts';
import { HttpError } from '../http-error.ts';
import { secondFactorRequired } from '../auth/second-factor-rule.ts';
import { FailedKeys, type Limit } from '../integration/failed-keys.ts';
import { looksLikeKey } from '../integration/keys.ts';
import { findKeySession } from '../integration/principal.ts';
import { keyMayCall } from '../integration/scopes.ts';
import { effectiveAccess } from '../access/row-scope.ts';

export type RouteAccess = 'public' | 'signedIn' | { roles: Role[] } | { resource: string };

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
    /** The integration key the request is made with (issue 34), or null for a person's session. */
    integration: IntegrationPrincipal | null;
    /**
     * The role of the session a public call carries, null without one (issue 47): the configuration
     * bundle sent after sign-in is the role's (server/config/role-view.ts). A public call is never
     * refused for its session, so this grants nothing.
     */
    callerRole: Role | null;
  }
  interface FastifyInstance {
    /** The sessions checked lately (server/auth/session-cache.ts). */
    sessionCache: SessionCache;
  }
  interface FastifyContextConfig {
    /** Who may call the route; required on every route (the server does not start without it). */
    access?: RouteAccess;
    /** A signed write (X-Nonce, X-Signature over the raw body). Defaults to true for POST and PUT, false otherwise. */
    signed?: boolean;
    /**
     * Open to a signed-in USER or MANAGER who has not accepted the current terms yet (ACCESS.md:
     * only the terms calls, sign-out and the password calls are).
     */
    termsExempt?: boolean;
    /** Open to a user who has not chosen their own password yet (first sign-in, or a password an administrator set). */
    firstLoginExempt?: boolean;
    /** Open to a user the configuration asks for a second factor before they have set one up (its enrolment calls; issue 36). */
    secondFactorExempt?: boolean;
    /**
     * A public route that checks a bearer token of its own (GET /metrics: METRICS_TOKEN): the token
     * is never looked up as a session, so it costs no query and works while the database is away.
     */
    ownBearerToken?: boolean;
    /** The content types a signed route takes besides application/json (e.g. multipart/form-data). */
    bodyTypes?: string[];
    /**
     * A signed POST that only reads (a table block, a count): its nonce is recorded beside the
     * handler instead of before it, one database round trip less (plugins/signature.ts).
     */
    readOnly?: boolean;
    /**
     * Whether an integration key may call the route (issue 34, CONTRACTS.md): 'read' — a resource
     * route, the key needs `read:<resource>`; 'import' — the key needs an `import:…` scope (the
     * handler checks which with mayImport); 'webhooks' — the key needs `webhooks`; 'reports' — `read:reports`. Without it a key
     * gets 403 KEY_NOT_ALLOWED: terms, passwords, sign-in, settings, the studio are never a key's.
     */
    keys?: 'read' | 'import' | 'webhooks' | 'reports';
  }
}

/** One registered route with its resolved declaration, as the onRoute hook saw it. */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: RouteAccess;
  signed: boolean;
}

/** Methods whose requests are signed writes unless the route says otherwise (spec §7). */
export const SIGNED_BY_DEFAULT = new Set(['POST', 'PUT']);

/** The scope's default declaration for routes that plugins (swagger-ui, static) add without one. */
const SCOPE_ACCESS = 'routeAccessOfScope';

/** Declares the access of every route a plugin registered inside this (encapsulated) scope adds. */
export function declareScopeAccess(scope: FastifyInstance, access: RouteAccess): void {
  scope.decorate(SCOPE_ACCESS, { getter: () => access });
}

/**
 * The first onRoute hook of the application: a route must declare its access (or be added inside a
 * scope that declares it for its plugin's routes), else start-up fails naming the route. The
 * resolved declaration (with `signed` made explicit) is written back into the route's config and
 * listed in `routes`, which the route-access test walks.
 */
export function requireAccessDeclarations(app: FastifyInstance): DeclaredRoute[] {
  const routes: DeclaredRoute[] = [];
  app.addHook('onRoute', function (this: FastifyInstance, route: RouteOptions) {
    const methods = ([] as string[]).concat(route.method);
    const access = route.config?.access ?? ((this as unknown as Record<string, RouteAccess | undefined>)[SCOPE_ACCESS]);
    if (!access || !isAccess(access)) {
      throw new Error(
        `route ${methods.join(',')} ${route.url} declares no access: add config.access ('public', 'signedIn', { roles: [...] } or { resource: '...' }) to its route options`,
      );
    }
    const signedByDefault = methods.some((m) => SIGNED_BY_DEFAULT.has(m));
    const signed = route.config?.signed ?? signedByDefault;
    route.config = { ...(route.config ?? {}), access, signed };
    for (const method of methods) routes.push({ method, url: route.url, access, signed });
  });
  return routes;
}

function isAccess(value: unknown): value is RouteAccess {
  if (value === 'public' || value === 'signedIn') return true;
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  if (Array.isArray(v.roles)) return v.roles.length > 0 && v.roles.every((r) => typeof r === 'string');
  return typeof v.resource === 'string';
}

export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header ?? '');
  return m ? m[1] : null;
}

/** Whether the configuration makes this session's user accept the terms before anything else. */
export function termsRequired(app: FastifyInstance, session: Session): boolean {
  const { bundle, conditions } = app.config;
  const rule = bundle.app.security?.termsRequiredWhen;
  return rule !== undefined && conditions.matches(rule, { role: session.role, variant: bundle.variant, config: bundle.config });
}

/** The roles a declaration lets in; a resource's come from its declaration as the bundle holds it now. */
export function rolesOf(app: FastifyInstance, access: Exclude<RouteAccess, 'public' | 'signedIn'>): readonly string[] {
  if ('roles' in access) return access.roles;
  const resource = app.config.bundle.resources[access.resource];
  return resource ? Object.keys(effectiveAccess(resource, app.config.bundle.resources)) : [];
}

export default fp(
  async (app) => {
    app.decorateRequest('session', null);
    app.decorateRequest('integration', null);
    app.decorateRequest('callerRole', null);
    const failedKeys = new FailedKeys();
    // a session checked here is trusted for a few seconds, until the database says it changed
    const cache = await SessionCache.start(app.db);
    app.decorate('sessionCache', cache);
    app.addHook('onClose', async () => cache.close());
    app.addHook('onRequest', async (request, reply) => {
      // no route matched: the not-found handler answers 404 and nothing else runs
      if (request.is404) return;
      const config = request.routeOptions.config ?? {};
      const access = config.access;
      // cannot happen (start-up refuses such a route), but if it did: closed, not open
      if (!access) throw new HttpError(403, app.config.t('errors:forbidden'), { code: 'FORBIDDEN' });
      const token = bearerToken(request.headers.authorization);
      if (access === 'public') {
        // a public call that carries a session (the runtime's start-up after sign-in) is served by
        // the variant of the user's client, when a variant claims clients; an unknown token is ignored
        // (and, issue 48, in the user's own language: the bundle and the pre-configuration after sign-in)
        if (token && !config.ownBearerToken && !looksLikeKey(token)) {
          const known = await findSession(app.db, token, sessionLifetimeOf(app.config.bundle.app));
          if (app.config.choosesByClient) app.config.useClientVariant(known?.klientSymbol);
          app.config.preferLanguage(known?.language);
          request.callerRole = known?.role ?? null;
        }
        return;
      }
      // an integration key (issue 34): its own checks, and none of a person's gates (terms, first password)
      if (token && looksLikeKey(token)) return authenticateKey(request, reply, token, config);
      request.session = token ? await findSession(app.db, token, sessionLifetimeOf(app.config.bundle.app)) : null;
      const session = request.session;
      if (!session) throw new HttpError(401, app.config.t('errors:unauthorized'), { code: 'UNAUTHORIZED' });
      // from here on the request follows the variant of the user's client, if a variant claims it,
      // and speaks the user's own language (issue 48)
      app.config.useClientVariant(session.klientSymbol);
      app.config.preferLanguage(session.language);
      if (access !== 'signedIn' && !rolesOf(app, access).includes(session.role)) {
        throw new HttpError(403, app.config.t('errors:forbidden'), { code: 'FORBIDDEN' });
      }
      // the same order as the runtime's session gates (screens/app.json): the second factor's enrolment
      // first (right after the password), then the terms, then the new password
      if (!session.hasSecondFactor && !config.secondFactorExempt && secondFactorRequired(app, session.role)) {
        throw new HttpError(403, app.config.t('security:errors.enrolmentRequired'), { code: 'SECOND_FACTOR_REQUIRED' });
      }
      if (session.termsPending && !config.termsExempt && termsRequired(app, session)) {
        throw new HttpError(403, app.config.t('terms:notAccepted'), { code: 'TERMS_NOT_ACCEPTED' });
      }
      if (session.firstLogin && !config.firstLoginExempt) {
        throw new HttpError(403, app.config.t('password:errors.firstLoginRequired'), { code: 'FIRST_LOGIN_REQUIRED' });
      }
    });

    /**
     * A key's call: refused with 429 while its address has failed too often, 401 when the key is
     * wrong, expired or revoked (counted as a failure), 403 when the route is not open to keys or
     * the key lacks the scope; otherwise the request goes on as the key's session.
     */
    async function authenticateKey(request: FastifyRequest, reply: FastifyReply, token: string, config: FastifyContextConfig): Promise<void> {
      const configured = (app.config.bundle.app.security as { rateLimit: { signIn: Limit } }).rateLimit.signIn;
      const limit = app.rateLimitsLifted ? { ...configured, max: 1_000_000 } : configured;
      const blocked = failedKeys.blockedFor(request.ip, limit);
      if (blocked) reply.header('retry-after', String(blocked * 60));
      if (blocked) throw new HttpError(429, app.config.t('login:errors.tooManyAttempts', { minutes: blocked }), { code: 'TOO_MANY_REQUESTS' });
      const session = await findKeySession(app.db, token, request.ip);
      if (!session) {
        failedKeys.record(request.ip, limit);
        throw new HttpError(401, app.config.t('integration-account:errors.keyInvalid'), { code: 'UNAUTHORIZED' });
      }
      request.session = session;
      request.integration = session.integration!;
      requestContext.set('keyId', session.integration!.keyId);
      app.config.useClientVariant(session.klientSymbol);
      const verdict = keyMayCall(app.config.bundle.resources, config, session);
      if (verdict === 'routeClosed') throw new HttpError(403, app.config.t('integration-account:errors.keyNotAllowed'), { code: 'KEY_NOT_ALLOWED' });
      if (verdict === 'scopeMissing') throw new HttpError(403, app.config.t('integration-account:errors.scopeMissing'), { code: 'FORBIDDEN' });
      const access = config.access!;
      if (config.keys === 'read' && access !== 'signedIn' && access !== 'public' && !rolesOf(app, access).includes(session.role)) {
        throw new HttpError(403, app.config.t('errors:forbidden'), { code: 'FORBIDDEN' });
      }
    }
  },
  { name: 'auth', dependencies: ['config', 'db'] },
);
