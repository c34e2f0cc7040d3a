/**
 * Damage reports (spec §2 Damage wizard, §3 Damage, §7 POST /damage/add, GET /damage/{id}). A
 * damage is written whole or not at all, in one transaction: its row in the orders list (a
 * service_order with czySzkoda, autTyp 3, as the seed's damages have) and the damage with its
 * reporter, its participant (an employee of the vehicle's client) and its external participant,
 * in the caller's transaction (services/damages.ts opens it and records what the report causes).
 * Its case number is SZK/<year>/<order id on 7 digits>, the one format of the seed.
 */
import fp from 'fastify-plugin';
import type { DamageAddRequest } from '../../runtime/core/generated/api.ts';
import { sql, type Transaction } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { caseNumber } from '../seed/sql-util.ts';
import type { VehicleScope } from '../access/scopes.ts';
import { lockVehicle } from './vehicle-state.ts';
import { RuleViolation } from './write-rules.ts';

/** The external participant (the other party), spec §3 "External participant". */
export const EXTERNAL_FIELDS = [
  'sprawcaNazImie', 'sprawcaMiejscow', 'sprawcaKodPoczt', 'sprawcaUlica', 'sprawcaPojRejestr', 'sprawcaPojMarka',
  'sprawcaPolisaOc', 'sprawcaFirmaTu',
] as const;

/** What the wizard sends (schemas/api/damage-add-request.schema.json). */
export type DamageInput = DamageAddRequest;

/** A report as addIn writes it: the wizard's, or an inspection's, which may name no participant and no reporter's e-mail. */
export type DamageReport = Omit<DamageInput, 'pracId' | 'zgloEmail'> & { pracId?: number | undefined; zgloEmail?: string | undefined };

export interface Reporter {
  userId: number;
  role: string;
}

const ts = (value: string | null | undefined) => (value ? sql<Date>`cast(${value} as timestamptz)` : null);

export function damagesRepository() {
  return {
    /**
     * Writes a damage report in the caller's transaction: the damage service's (services/damages.ts,
     * with its notifications, event and trail entry) or an inspection's whose failed items open one (issue 47).
     */
    addIn,
  };
}

/**
 * Writes a damage report in `trx`; RuleViolation for a vehicle outside `scope` or a rule the input
 * breaks. `participant: 'optional'`: a report that names no participant of the vehicle's client (an
 * inspection of a vehicle without a driver) is written without one instead of being refused.
 */
async function addIn(trx: Transaction<DB>, input: DamageReport, scope: VehicleScope, reporter: Reporter, options: { participant?: 'required' | 'optional' } = {}) {
  const car = await lockVehicle(trx, input.pojazdId, scope);
  if (input.rejestr.trim().toUpperCase() !== car.rejestr) throw new RuleViolation(400, 'rejestr', 'damage:errors.otherVehicle', { rejestr: car.rejestr });
  const participant = input.pracId ? await trx.selectFrom('employee').select(['pracId', 'nazwisko', 'imie', 'stru1'])
    .where('pracId', '=', input.pracId).where('klient', '=', car.klientSymbol).executeTakeFirst() : undefined;
  if (!participant && options.participant !== 'optional') throw new RuleViolation(400, 'pracId', 'damage:errors.participantOfOtherClient');
  // The damage's odometer (docs/decisions.md): not below the vehicle's last reading, unless the
  // damage happened before the day of that reading; it does not change the vehicle's reading.
  if (input.stanLicz !== undefined && input.stanLicz !== null && car.aktStanLicz !== null && input.stanLicz < car.aktStanLicz) {
    const { rows } = await sql<{ before: boolean }>`
      select cast(cast(${input.dataSzkod} as timestamptz) as date) < cast(${car.aktDataLicz} as date) as before`.execute(trx);
    if (!car.aktDataLicz || !rows[0].before) throw new RuleViolation(400, 'stanLicz', 'car:counter.belowLast', { last: car.aktStanLicz });
  }
  const order = await trx.insertInto('service_order').values({
    autTyp: 3, czySzkoda: true, zgloInterw: 'SZKODA', status: 0, zgloKto: reporter.role,
    zgloNazwiskoImie: input.zgloNazwiskoImie, zgloTelef: input.zgloTelef, zgloEmail: input.zgloEmail, zgloFirma: input.firmaZglosz ?? null,
    zgloZakres: input.opisSzkody ?? input.rodzSzkod, stacjaSerw: car.stacjaSerw,
    pojazdId: car.pojazdId, pracId: participant?.pracId ?? null, stru1: participant?.stru1 ?? null, stanLicz: input.stanLicz ?? null,
    rejestr: car.rejestr, markaOpis: car.markaOpis, modelOpis: car.modelOpis, uzytkPojazdu: participant ? `${participant.imie} ${participant.nazwisko}` : null,
    klientSymbol: car.klientSymbol, userId: reporter.userId,
  }).returning(['autId', sql<string>`to_char("zgloData", 'YYYY')`.as('year')]).executeTakeFirstOrThrow();
  const nrSprawy = caseNumber(order.year, order.autId);
  const external = Object.fromEntries(EXTERNAL_FIELDS.map((f) => [f, input[f] ?? null]));
  const damage = await trx.insertInto('damage').values({
    zrodloId: order.autId, nrSprawy, etapZnacz: 'Zgłoszona', nrZglosz: input.nrZglosz ?? '-',
    dataSzkod: ts(input.dataSzkod), rodzSzkod: input.rodzSzkod, zpolisTyp: input.zpolisTyp,
    pojazdId: car.pojazdId, rejestr: car.rejestr, pracId: participant?.pracId ?? null, stru1: participant?.stru1 ?? null, stanLicz: input.stanLicz ?? null,
    nrPodw: car.nrPodw, rokProd: car.rokProd, pojNrVin: car.nrPodw, pojRokProd: car.rokProd,
    zgloNazwiskoImie: input.zgloNazwiskoImie, zgloTelef: input.zgloTelef, zgloEmail: input.zgloEmail, winaPrac: input.winaPrac ?? null,
    firmaZglosz: input.firmaZglosz ?? null,
    dataZgloSzkody: ts(input.dataZgloSzkody) ?? sql<Date>`now()`, dataZgloFm: ts(input.dataZgloFm),
    opisSzkody: input.opisSzkody ?? null, przyczynaSzkody: input.przyczynaSzkody ?? null, telefon: input.telefon ?? null,
    skadPolicja: input.skadPolicja ?? null, holowanyData: ts(input.holowanyData), uwagi: input.uwagi ?? null,
    ...external, klientSymbol: car.klientSymbol, userId: reporter.userId,
  }).returning('sprawaId').executeTakeFirstOrThrow();
  return { sprawaId: damage.sprawaId, nrSprawy, autId: order.autId, klientSymbol: car.klientSymbol, zgloEmail: input.zgloEmail ?? null };
}

declare module 'fastify' {
  interface FastifyInstance {
    damages: ReturnType<typeof damagesRepository>;
  }
}

export default fp(async (app) => {
  app.decorate('damages', damagesRepository());
}, { name: 'damages-repository', dependencies: ['db'] });
