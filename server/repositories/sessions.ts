/**
 * Sessions as the routes use them: create, end, end all of a user, switch the vehicle. A thin
 * repository over server/auth/sessions.ts, which owns the storage (and the per-request lookup
 * the auth plugin makes); `trx` lets a change join the caller's transaction (a new password
 * and the end of the other sessions are one write).
 */
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import type { Role } from '../../runtime/core/conditions.ts';
import { createSession, revokeSession, revokeUserSessions, setSessionVehicle } from '../auth/sessions.ts';
import type { DB } from '../db/types.generated.ts';

type Db = Kysely<DB> | Transaction<DB>;

export function sessionsRepository(db: Kysely<DB>) {
  return {
    /** A new session; answers the bearer token (only its hash is stored). */
    create: (userId: number, role: Role, pojazdId: number | null) => createSession(db, userId, role, pojazdId),
    revoke: (tokenHash: string) => revokeSession(db, tokenHash),
    /** Ends every session of a user except, optionally, the one making the change. */
    revokeAllOf: (userId: number, keepTokenHash?: string, trx?: Transaction<DB>) => revokeUserSessions(trx ?? db, userId, keepTokenHash),
    setVehicle: (tokenHash: string, pojazdId: number) => setSessionVehicle(db, tokenHash, pojazdId),
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    sessions: ReturnType<typeof sessionsRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('sessions', sessionsRepository(app.db));
}, { name: 'sessions-repository', dependencies: ['db'] });
