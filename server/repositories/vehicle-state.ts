/**
 * The vehicle a write touches, read and locked inside the write's transaction: handovers,
 * returns, readings and damages of one vehicle run one after another (`for update` on its car
 * row), so "the last reading" and "the open assignment" a rule compares with cannot change
 * under it. The caller's row scope comes in as a filter on the car table (the route builds it
 * from schemas/resources/car.json, access/row-scope.ts): a vehicle outside it is absent.
 */
import { sql, type Transaction } from 'kysely';
import type { VehicleScope } from '../access/scopes.ts';
import { configuredBuilder } from '../db/configured-tables.ts';
import type { DB } from '../db/types.generated.ts';
import { absent, RuleViolation } from './write-rules.ts';

/** Spec §5 "Numbers: 0 to 999999999". */
export const MAX_READING = 999_999_999;

export async function lockVehicle(trx: Transaction<DB>, pojazdId: number, scope: VehicleScope) {
  const car = await trx.selectFrom('car')
    .select(['pojazdId', 'klientSymbol', 'stacjaSerw', 'pracId', 'rejestr', 'nrPodw', 'rokProd', 'markaOpis', 'modelOpis',
      'aktStanLicz', 'aktDataLicz', 'czyWydany'])
    .where('pojazdId', '=', pojazdId)
    .where((eb) => scope(configuredBuilder(eb)))
    .forUpdate()
    .executeTakeFirst();
  if (!car) throw absent();
  return car;
}

export type LockedVehicle = Awaited<ReturnType<typeof lockVehicle>>;

/** A reading below the vehicle's last one is refused, naming the field (issue 14, docs/decisions.md). */
export function requireNotBelowLast(car: LockedVehicle, reading: number, field: string): void {
  const last = car.aktStanLicz ?? 0;
  if (reading < last) throw new RuleViolation(400, field, 'car:counter.belowLast', { last });
}

/**
 * Stores a reading in the vehicle's history and makes it the vehicle's current one (reading,
 * its day, the fuel level when given). `at` is the moment of the reading (an ISO text or
 * 'YYYY-MM-DD HH:mm' in the portal's time zone, which is the session's).
 */
/** A reading as recorded, for what it causes. */
export interface CounterReading {
  pojazdId: number;
  licznik: number;
  palStan?: number | null;
  at: string;
}

export async function recordReading(
  trx: Transaction<DB>, car: LockedVehicle,
  reading: { licznik: number; palStan?: number | null; at: string; userId: number },
): Promise<void> {
  const at = sql<Date>`cast(${reading.at} as timestamptz)`;
  await trx.insertInto('mileage_reading').values({
    pojazdId: car.pojazdId, licznik: reading.licznik, palStan: reading.palStan ?? null, data: at, userId: reading.userId,
  }).execute();
  await trx.updateTable('car').set({
    aktStanLicz: reading.licznik,
    aktDataLicz: sql<string>`cast(${at} as date)`,
    ...(reading.palStan === undefined || reading.palStan === null ? {} : { stanPal: reading.palStan }),
  }).where('pojazdId', '=', car.pojazdId).execute();
}
