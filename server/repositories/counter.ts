/**
 * Odometer readings (spec §7 POST /counter, payload "counter": pojaId, licznik, palStan, data):
 * the reading and the vehicle's current reading and its day change in one transaction, or not at all.
 */
import fp from 'fastify-plugin';
import type { Kysely, Transaction } from 'kysely';
import type { CounterReading } from './vehicle-state.ts';
import type { DB } from '../db/types.generated.ts';
import type { VehicleScope } from '../access/scopes.ts';
import { lockVehicle, recordReading, requireNotBelowLast } from './vehicle-state.ts';

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
    async add(input: CounterInput, scope: VehicleScope, userId: number, alsoInTransaction?: (trx: Transaction<DB>, reading: CounterReading & { pojazdId: number; before: { aktStanLicz: number | null; aktDataLicz: unknown } }) => Promise<unknown>) {
      return db.transaction().execute(async (trx) => {
        const car = await lockVehicle(trx, input.pojaId, scope);
        requireNotBelowLast(car, input.licznik, 'licznik');
        const reading = { licznik: input.licznik, palStan: input.palStan, at: input.data ?? new Date().toISOString(), userId };
        await recordReading(trx, car, reading);
        // what the reading causes (its webhook event, issue 35) commits with it or not at all
        await alsoInTransaction?.(trx, { pojazdId: car.pojazdId, ...reading, before: { aktStanLicz: car.aktStanLicz, aktDataLicz: car.aktDataLicz } });
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
