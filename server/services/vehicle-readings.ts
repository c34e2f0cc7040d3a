/**
 * A new odometer reading (spec §7 POST /counter; issue 45, "routes only translate HTTP"): the
 * reading, the vehicle's current reading and its day (repositories/counter.ts, `app.counter`) and
 * what the reading causes through the one write path (services/write.ts) — the `reading.added`
 * event to the subscribed systems (issue 35) and the trail's entry of resource `car`, action
 * `reading` (the vehicle's reading before and the new one) — in one transaction.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import { scopeOfResource } from '../access/scopes.ts';
import type { Actor } from '../audit/index.ts';
import type { Session } from '../auth/sessions.ts';
import type { CounterInput } from '../repositories/counter.ts';

export function readingService(app: FastifyInstance) {
  return {
    /** Records a reading of a vehicle the caller's vehicle scope reaches; answers the vehicle and its new reading. */
    async add(actor: Actor, session: Session, input: CounterInput): Promise<{ pojazdId: number; aktStanLicz: number }> {
      return app.db.transaction().execute(async (trx) => {
        const r = await app.counter.add(trx, input, scopeOfResource(app, 'car', session), session.userId);
        await app.writes.record(trx, {
          actor, resource: 'car', key: r.pojazdId, action: 'reading',
          extra: { aktStanLicz: [r.before.aktStanLicz, r.licznik], data: [null, new Date(r.at).toISOString()], ...(r.palStan == null ? {} : { palStan: [null, r.palStan] }) },
          facts: { licznik: r.licznik, palStan: r.palStan ?? null, data: new Date(r.at).toISOString() },
        });
        return { pojazdId: r.pojazdId, aktStanLicz: input.licznik };
      });
    },
  };
}

export type ReadingService = ReturnType<typeof readingService>;

declare module 'fastify' {
  interface FastifyInstance {
    readingService: ReadingService;
  }
}

export default fp(
  async (app) => {
    app.decorate('readingService', readingService(app));
  },
  { name: 'reading-service', dependencies: ['config', 'db', 'write-service', 'counter-repository'] },
);
