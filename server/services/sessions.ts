/**
 * Ending and moving sessions (issue 45, "routes only translate HTTP"): sign-out, an advisor's change
 * of vehicle, a session ended from the sessions list by its user or an administrator, and every
 * other session ended at once. Each is one transaction that changes the session and records its
 * entry in the trail (server/audit/sign-in.ts), so the end of a session and its entry commit
 * together; the login history (spec §3 "Login history") is written after the commit, as it always
 * was, and only for what happened. The sessions themselves are app.sessions' (repositories/sessions.ts).
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Actor } from '../audit/index.ts';
import { recordSessionEnd, recordVehicleChange } from '../audit/sign-in.ts';
import { revokeSession, type Session } from '../auth/sessions.ts';
import { HttpError } from '../http-error.ts';
import type { LoginOutcome } from '../repositories/login-history.ts';

/** Who ended a session from the list: its own user, or an administrator from the user's dialog. */
export type SessionEndedBy = Extract<LoginOutcome, 'ENDED_BY_USER' | 'ENDED_BY_ADMIN'>;

export function sessionService(app: FastifyInstance) {
  const t = (k: string, v?: Record<string, unknown>) => app.config.t(k, v);

  return {
    /** POST /api/user/logout: the session the call was made with ends. */
    async signOut(actor: Actor, session: Session): Promise<void> {
      await app.db.transaction().execute(async (trx) => {
        await app.sessions.revoke(session.tokenHash, trx);
        await recordSessionEnd(trx, actor, session.userId, 'sign-out');
      });
      await app.loginHistory.record({ login: session.login, rola: session.role, event: 'SIGN_OUT', outcome: 'SIGNED_OUT', success: true });
    },

    /**
     * POST /api/user/re-logging: an advisor's session moves to the vehicle of this plate and VIN
     * part; the token stays. Answers the account and the vehicle for the caller's user details;
     * a vehicle that does not fit is written to the login history and answered 404.
     */
    async changeVehicle(actor: Actor, session: Session, choice: { rejestr: string; vin: string }) {
      const user = await app.users.byId(session.userId);
      if (!user) throw new HttpError(401, t('errors:unauthorized'), { code: 'UNAUTHORIZED' });
      const vehicle = await app.users.vehicleFor({ role: 'ADVISOR', ...choice }, user);
      if (!vehicle) {
        await app.loginHistory.record({ login: user.login, rola: user.rola, event: 'VEHICLE_CHANGE', outcome: 'VEHICLE_NOT_FOUND', success: false });
        throw new HttpError(404, t('login:errors.vehicleNotFound'), { code: 'VEHICLE_NOT_FOUND' });
      }
      const previous = session.pojazdId === null ? undefined
        : await app.db.selectFrom('car').select('rejestr').where('pojazdId', '=', session.pojazdId).executeTakeFirst();
      // which vehicle's data the session reaches and its entry in the trail commit together
      await app.db.transaction().execute(async (trx) => {
        await app.sessions.setVehicle(session.tokenHash, vehicle.pojazdId, trx);
        await recordVehicleChange(trx, actor, user.id, [previous?.rejestr ?? null, vehicle.rejestr]);
      });
      await app.loginHistory.record({ login: user.login, rola: user.rola, event: 'VEHICLE_CHANGE', outcome: 'VEHICLE_CHANGED', success: true, rejestr: vehicle.rejestr });
      return { user, vehicle };
    },

    /**
     * Ends the session of `user` its list names by `id` (DELETE /api/account/sessions/:id, or an
     * administrator's DELETE /api/users/:id/sessions/:sessionId); false when there is none. The
     * entry names the session by its list id, never by its token.
     */
    async endSession(actor: Actor, user: { id: number; login: string; rola: string }, id: string, endedBy: SessionEndedBy): Promise<boolean> {
      const session = (await app.sessions.listOf(user.id)).find((s) => s.id === id);
      if (!session) return false;
      await app.db.transaction().execute(async (trx) => {
        await revokeSession(trx, session.tokenHash);
        await recordSessionEnd(trx, actor, user.id, 'session-end', { sessionId: [id, null] });
      });
      // inside the transaction only the commit tells the other processes; this one forgets it now
      app.sessions.forget(session.tokenHash);
      await app.loginHistory.record({ login: user.login, rola: user.rola, event: 'SESSION_END', outcome: endedBy, success: true });
      return true;
    },

    /** POST /api/account/sessions/end-others: every session of the caller but the one the call was made with ends. */
    async endOthers(actor: Actor, session: Session): Promise<void> {
      await app.db.transaction().execute(async (trx) => {
        await app.sessions.revokeAllOf(session.userId, session.tokenHash, trx);
        await recordSessionEnd(trx, actor, session.userId, 'session-end', { others: [null, true] });
      });
      const user = await app.users.byId(session.userId);
      if (!user) throw new HttpError(401, t('errors:unauthorized'), { code: 'UNAUTHORIZED' });
      await app.loginHistory.record({ login: user.login, rola: user.rola, event: 'SESSION_END', outcome: 'ENDED_BY_USER', success: true });
    },
  };
}

export type SessionService = ReturnType<typeof sessionService>;

declare module 'fastify' {
  interface FastifyInstance {
    sessionService: SessionService;
  }
}

export default fp(
  async (app) => {
    app.decorate('sessionService', sessionService(app));
  },
  { name: 'session-service', dependencies: ['config', 'db', 'users-repository', 'sessions-repository', 'login-history-repository'] },
);
