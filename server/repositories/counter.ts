/**
 * Odometer readings (spec §7 POST /counter, payload "counter": pojaId, licznik, palStan, data):
 * the reading and the vehicle's current reading and its day change in the caller's transaction
 * (the reading service's, with its trail entry and event), or not at all.
 */
import fp from 'fastify-plugin';
import type { Transaction } from 'kysely';
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

/** A reading as stored, with its vehicle and the vehicle's reading before it. */
export type StoredReading = CounterReading & { pojazdId: number; before: { aktStanLicz: number | null; aktDataLicz: unknown } };

export function counterRepository() {
  return {
    /**
     * Stores the reading in the caller's transaction (services/vehicle-readings.ts records its entry
     * and event in it); RuleViolation when the vehicle is outside `scope` or the reading is below its last one.
     */
    async add(trx: Transaction<DB>, input: CounterInput, scope: VehicleScope, userId: number): Promise<StoredReading> {
      const car = await lockVehicle(trx, input.pojaId, scope);
      requireNotBelowLast(car, input.licznik, 'licznik');
      const reading = { licznik: input.licznik, palStan: input.palStan, at: input.data ?? new Date().toISOString(), userId };
      await recordReading(trx, car, reading);
      return { pojazdId: car.pojazdId, ...reading, before: { aktStanLicz: car.aktStanLicz, aktDataLicz: car.aktDataLicz } };
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    counter: ReturnType<typeof counterRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('counter', counterRepository());
}, { name: 'counter-repository', dependencies: ['db'] });
