/**
 * Authentication as one hook: a Bearer token is looked up in the database for every request.
 * Routes are closed by default; a route opens itself with `config: { public: true }` and narrows
 * itself to roles with `config: { roles: [...] }`. Row scopes are applied by the resources.
 */
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
  }
}

export function bearerToken(header: string | undefined): string | null {
  const m = /^Bearer\s+([A-Za-z0-9_-]{20,200})$/.exec(header ?? '');
  return m ? m[1] : null;
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
    });
  },
  { name: 'auth', dependencies: ['config', 'db'] },
);
