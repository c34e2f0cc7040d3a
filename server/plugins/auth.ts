/**
 * Authentication as one hook: a Bearer token is looked up in the database for every request.
 * Routes are closed by default; a route opens itself with `config: { public: true }` and narrows
 * itself to roles with `config: { roles: [...] }`. Row scopes are applied by the resources.
 * Until a user whom `security.termsRequiredWhen` (screens/app.json) names has accepted every
 * current terms document, only routes marked `termsExempt` answer them.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Role } from '../../runtime/core/conditions.ts';
import { findSession, type Session } from '../auth/sessions.ts';
import { HttpError } from '../http-error.ts';

declare module 'fastify' {
  interface FastifyRequest {
    session: Session | null;
  }
  interface FastifyContextConfig {
    public?: boolean;
    roles?: Role[];
    /**
     * Open to a signed-in USER or MANAGER who has not accepted the current terms yet (ACCESS.md:
     * only the terms calls, sign-out and the password calls are).
     */
    termsExempt?: boolean;
  }
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

export default fp(
  async (app) => {
    app.decorateRequest('session', null);
    app.addHook('onRequest', async (request) => {
      if (!request.url.startsWith('/api/')) return;
      const token = bearerToken(request.headers.authorization);
      request.session = token ? await findSession(app.db, token) : null;
      const config = request.routeOptions.config ?? {};
      if (config.public) return;
      if (!request.session) throw new HttpError(401, app.config.t('errors:unauthorized'), { code: 'UNAUTHORIZED' });
      if (config.roles && !config.roles.includes(request.session.role)) {
        throw new HttpError(403, app.config.t('errors:forbidden'), { code: 'FORBIDDEN' });
      }
      if (request.session.termsPending && !config.termsExempt && termsRequired(app, request.session)) {
        throw new HttpError(403, app.config.t('terms:notAccepted'), { code: 'TERMS_NOT_ACCEPTED' });
      }
    });
  },
  { name: 'auth', dependencies: ['config', 'db'] },
);
