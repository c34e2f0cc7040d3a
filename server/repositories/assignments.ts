/**
 * Handover (Wydanie) and return (Zdanie) of a vehicle (spec §2 Assignments, §7 POST
 * /assignment/pickup, /assignment/dropoff, GET /assignment/last/{pojazdId}). Each write is made in
 * the caller's transaction (services/assignments.ts, with its trail entry and event) over the
 * assignment, the vehicle's state (czyWydany, dataWyd, its user) and its current reading. The
 * rules (issue 14):
 * - at most one open assignment per vehicle: checked under the vehicle's row lock, and kept by
 *   the partial unique index vehicle_assignment_one_open_idx (two handovers at the same moment:
 *   one commits, the other is refused with 409);
 * - a return needs an open assignment and is never before its handover;
 * - a handover is never before the vehicle's last return;
 * - handover and return readings are never below the vehicle's last reading.
 */
import fp from 'fastify-plugin';
import type { AssignmentDropoffRequest, AssignmentPickupRequest } from '../../runtime/core/generated/api.ts';
import { sql, type Kysely, type Transaction } from 'kysely';
import { configuredBuilder } from '../db/configured-tables.ts';
import type { DB } from '../db/types.generated.ts';
import type { VehicleScope } from '../access/scopes.ts';
import { lockVehicle, recordReading, requireNotBelowLast } from './vehicle-state.ts';
import { isUniqueViolation, RuleViolation } from './write-rules.ts';

const ONE_OPEN_INDEX = 'vehicle_assignment_one_open_idx';
/** Spec §9 "Default end-of-day time": a return without a time is at the end of its day. */
export const END_OF_DAY = '23:59';
/** A handover without a time is at the start of its day. */
export const START_OF_DAY = '00:00';

export type PickupInput = AssignmentPickupRequest;

export type DropoffInput = AssignmentDropoffRequest;

/** 'YYYY-MM-DD HH:mm' read as a moment in the database session's time zone (the portal's). */
async function moment(trx: Transaction<DB>, day: string, time: string): Promise<Date> {
  const { rows } = await sql<{ at: Date }>`select cast(${`${day} ${time}`} as timestamptz) as at`.execute(trx);
  return rows[0].at;
}

const openAssignment = (trx: Transaction<DB>, pojazdId: number) =>
  trx.selectFrom('vehicle_assignment').select(['przydzialId', 'dataWy', 'licznikWy'])
    .where('pojazdId', '=', pojazdId).where('dataZd', 'is', null).executeTakeFirst();

export function assignmentsRepository(db: Kysely<DB>) {
  return {
    /** Hands the vehicle over in the caller's transaction; returns the new assignment's id. */
    async pickup(trx: Transaction<DB>, input: PickupInput, scope: VehicleScope, userId: number): Promise<{ przydzialId: number }> {
      const car = await lockVehicle(trx, input.pojazdId, scope);
      if (await openAssignment(trx, car.pojazdId)) throw new RuleViolation(409, 'pojazdId', 'assignment:errors.alreadyIssued', { rejestr: car.rejestr });
      const employee = await trx.selectFrom('employee').select('pracId')
        .where('pracId', '=', input.pracId).where('klient', '=', car.klientSymbol).executeTakeFirst();
      if (!employee) throw new RuleViolation(400, 'pracId', 'assignment:errors.employeeOfOtherClient');
      const at = await moment(trx, input.dataWy, input.czasWy ?? START_OF_DAY);
      const lastReturn = await trx.selectFrom('vehicle_assignment').select((eb) => eb.fn.max('dataZd').as('dataZd'))
        .where('pojazdId', '=', car.pojazdId).executeTakeFirst();
      if (lastReturn?.dataZd && at < new Date(lastReturn.dataZd as unknown as string)) {
        throw new RuleViolation(400, 'dataWy', 'assignment:errors.handoverBeforeLastReturn');
      }
      requireNotBelowLast(car, input.licznikWy, 'licznikWy');
      let przydzialId: number;
      try {
        ({ przydzialId } = await trx.insertInto('vehicle_assignment').values({
          pojazdId: car.pojazdId, pracId: input.pracId, klientSymbol: car.klientSymbol, dataWy: at, licznikWy: input.licznikWy,
          palWy: input.palWy ?? null, uwagiWy: input.uwagiWy ?? null, opWydal: input.opWydal,
        }).returning('przydzialId').executeTakeFirstOrThrow());
      } catch (error) {
        // only reachable when the row lock was bypassed (another writer): the index still holds
        if (isUniqueViolation(error, ONE_OPEN_INDEX)) throw new RuleViolation(409, 'pojazdId', 'assignment:errors.alreadyIssued', { rejestr: car.rejestr });
        throw error;
      }
      // the vehicle is out, with this employee as its user
      await trx.updateTable('car').set({ czyWydany: true, dataWyd: sql<string>`cast(${at} as date)`, pracId: input.pracId })
        .where('pojazdId', '=', car.pojazdId).execute();
      await recordReading(trx, car, { licznik: input.licznikWy, palStan: input.palWy, at: at.toISOString(), userId });
      return { przydzialId };
    },

    /** Takes the vehicle back in the caller's transaction: closes its open assignment; returns that assignment's id. */
    async dropoff(trx: Transaction<DB>, input: DropoffInput, scope: VehicleScope, userId: number): Promise<{ przydzialId: number }> {
      const car = await lockVehicle(trx, input.pojazdId, scope);
      const open = await openAssignment(trx, car.pojazdId);
      if (!open) throw new RuleViolation(409, 'pojazdId', 'assignment:errors.notIssued', { rejestr: car.rejestr });
      const at = await moment(trx, input.dataZd, input.czasZd ?? END_OF_DAY);
      if (at < new Date(open.dataWy as unknown as string)) throw new RuleViolation(400, 'dataZd', 'assignment:errors.returnBeforeHandover');
      requireNotBelowLast(car, input.licznikZd, 'licznikZd');
      if (open.licznikWy !== null && input.licznikZd < open.licznikWy) {
        throw new RuleViolation(400, 'licznikZd', 'assignment:errors.returnBelowHandover', { licznikWy: open.licznikWy });
      }
      await trx.updateTable('vehicle_assignment').set({
        dataZd: at, licznikZd: input.licznikZd, palZd: input.palZd ?? null, palStanZd: input.palStanZd ?? null,
        uwagiZd: input.uwagiZd ?? null, opOdebral: input.opOdebral,
      }).where('przydzialId', '=', open.przydzialId).execute();
      // the last user stays the vehicle's user until the next handover (docs/decisions.md)
      await trx.updateTable('car').set({ czyWydany: false }).where('pojazdId', '=', car.pojazdId).execute();
      await recordReading(trx, car, { licznik: input.licznikZd, palStan: input.palStanZd ?? input.palZd, at: at.toISOString(), userId });
      return { przydzialId: open.przydzialId };
    },

    /** The vehicle's latest assignment (open or not) within the caller's assignment scope, or null. */
    async last(pojazdId: number, scope: VehicleScope) {
      const row = await db.selectFrom('v_assignment').selectAll()
        .where('pojazdId', '=', pojazdId)
        .where((eb) => scope(configuredBuilder(eb)))
        .orderBy('dataWy', 'desc').orderBy('przydzialId', 'desc')
        .limit(1).executeTakeFirst();
      return row ?? null;
    },
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    assignments: ReturnType<typeof assignmentsRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('assignments', assignmentsRepository(app.db));
}, { name: 'assignments-repository', dependencies: ['db'] });
