/**
 * Odometer readings (spec §7 POST /counter, payload "counter": pojaId, licznik, palStan, data):
 * the reading and the vehicle's current reading and its day change in one transaction, or not at all.
 */
import fp from 'fastify-plugin';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { lockVehicle, recordReading, requireNotBelowLast, type VehicleScope } from './vehicle-state.ts';

export interface CounterInput {
  pojaId: number;
  licznik: number;
  palStan?: number | null;
  /** When the reading was taken (default: now). */
  data?: string | null;
}

export function counterRepository(db: Kysely<DB>) {
  return {
    /** Stores the reading; RuleViolation when the vehicle is outside `scope` or the reading is below its last one. */
    async add(input: CounterInput, scope: VehicleScope, userId: number) {
      return db.transaction().execute(async (trx) => {
        const car = await lockVehicle(trx, input.pojaId, scope);
        requireNotBelowLast(car, input.licznik, 'licznik');
        await recordReading(trx, car, { licznik: input.licznik, palStan: input.palStan, at: input.data ?? new Date().toISOString(), userId });
        return { pojazdId: car.pojazdId, aktStanLicz: input.licznik };
      });
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    counter: ReturnType<typeof counterRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('counter', counterRepository(app.db));
}, { name: 'counter-repository', dependencies: ['db'] });
