/**
 * Sessions as the routes use them: create, end, end all of a user, switch the vehicle. A thin
 * repository over server/auth/sessions.ts, which owns the storage (and the per-request lookup
 * the auth plugin makes); `trx` lets a change join the caller's transaction (a new password
 * and the end of the other sessions are one write).
 */
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import { createSession, DEFAULT_SESSION_LIFETIME, listUserSessions, revokeSession, revokeUserSessions, setSessionVehicle, type SessionLifetime, type SessionOrigin } from '../auth/sessions.ts';
import { sessionLifetimeOf } from '../config/security.ts';
import type { DB } from '../db/types.generated.ts';
import { sessionCacheOf } from '../auth/session-cache.ts';

type Db = Kysely<DB> | Transaction<DB>;

/** `lifetime`: the configured one, read at every sign-in (security.session). */
export function sessionsRepository(db: Kysely<DB>, lifetime: () => SessionLifetime = () => DEFAULT_SESSION_LIFETIME) {
  return {
    /** A new session; answers the bearer token (only its hash is stored). */
    create: (userId: number, role: Role, pojazdId: number | null, origin?: SessionOrigin, trx?: Transaction<DB>) => createSession(trx ?? db, userId, role, pojazdId, origin, lifetime()),
    /** The live sessions of a user (the sessions list), newest first. */
    listOf: (userId: number) => listUserSessions(db, userId),
    revoke: async (tokenHash: string, trx?: Transaction<DB>) => {
      await revokeSession(trx ?? db, tokenHash);
      // inside a transaction the other processes hear of it at the commit; this one forgets it now
      if (trx) sessionCacheOf(db)?.delete(tokenHash);
    },
    /** This process's cache forgets a session ended inside a transaction (the others hear of it at the commit). */
    forget: (tokenHash: string) => sessionCacheOf(db)?.delete(tokenHash),
    /** Ends every session of a user except, optionally, the one making the change. */
    revokeAllOf: (userId: number, keepTokenHash?: string, trx?: Transaction<DB>) => revokeUserSessions(trx ?? db, userId, keepTokenHash),
    setVehicle: (tokenHash: string, pojazdId: number, trx?: Transaction<DB>) => setSessionVehicle(trx ?? db, tokenHash, pojazdId),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: ReturnType<typeof sessionsRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('sessions', sessionsRepository(app.db, () => sessionLifetimeOf(app.config.bundle.app)));
}, { name: 'sessions-repository', dependencies: ['db'] });
