/**
 * Per-address limits of the public calls a stranger can hammer (issue 9): sign-in, the reset
 * request (it sends mail) and the reset-code check. `screens/app.json` → `security.rateLimit`
 * gives each a number of calls per client address within a window; the values are read at every
 * call, so a configuration refresh applies them at once. Counts are kept in this process's
 * memory (@fastify/rate-limit's LRU): several server processes each count on their own, so the
 * effective limit is the configured one times the number of processes. That is enough here,
 * because the lock-out that actually stops guessing one login is in the database
 * (user-auth.ts); this limit only slows password spraying and mail flooding from one address.
 * Behind a reverse proxy set TRUST_PROXY, or every client shares the proxy's address.
 */
import type { FastifyInstance, onRequestHookHandler } from 'fastify';
import { HttpError } from './http-error.ts';

export type LimitedCall = 'signIn' | 'resetRequest' | 'resetCode';
export interface CallLimit { max: number; windowMinutes: number }

declare module 'fastify' {
  interface FastifyInstance {
    /** Tests only (AppOptions.liftRateLimits): the limits below are not applied. */
    rateLimitsLifted: boolean;
  }
}

export function perAddressLimit(app: FastifyInstance, call: LimitedCall): onRequestHookHandler {
  const limit = () => {
    const configured = (app.config.bundle.app.security as { rateLimit: Record<LimitedCall, CallLimit> }).rateLimit[call];
    return app.rateLimitsLifted ? { ...configured, max: 1_000_000 } : configured;
  };
  return app.rateLimit({
    max: async () => limit().max,
    timeWindow: async () => limit().windowMinutes * 60_000,
    errorResponseBuilder: (_request, context) => new HttpError(429, app.config.t('login:errors.tooManyAttempts', {
      minutes: Math.max(1, Math.ceil(context.ttl / 60_000)),
    }), { code: 'TOO_MANY_REQUESTS' }),
  }) as onRequestHookHandler;
}
