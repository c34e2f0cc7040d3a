/**
 * 012 — damages, handovers and readings written by the portal (issue 14). The database keeps
 * the rules the server checks, so a write that slips past a check (another process, a race, a
 * bug) is refused instead of stored:
 *
 * - damage: the external participant's lengths of spec §5 (name 200, town 50, postcode 10,
 *   street 50, registration 10, make and model 50, OC policy 30, insurer 20), the reporter's
 *   e-mail 50, and one case number per damage (`nrSprawy` unique).
 * - readings 0 … 999 999 999 (spec §9 "Max numeric") on the vehicle's current reading and on
 *   both readings of an assignment (mileage_reading had it since 001).
 * - "a vehicle has at most one open assignment" is the partial unique index
 *   vehicle_assignment_one_open_idx of 001 (`"pojazdId"` where `"dataZd" is null`); a return
 *   never before its handover and a return reading never below the handover's are 001's checks.
 *
 * - v_damage also names the damage's participant (the employee): uczestnikNazwiskoImie,
 *   uczestnikNrPrac, for the details' participant tab and the damages list.
 *
 * The new checks are NOT VALID: they hold for every row written from now on, and a database
 * whose older rows break one still migrates (`validate constraint` can be run once cleaned).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { runStatements } from './run-sql.ts';

const MAX_NUMERIC = 999999999;

/** Column → the longest text it may hold (spec §5). */
const DAMAGE_LENGTHS: Record<string, number> = {
  sprawcaNazImie: 200,
  sprawcaMiejscow: 50,
  sprawcaKodPoczt: 10,
  sprawcaUlica: 50,
  sprawcaPojRejestr: 10,
  sprawcaPojMarka: 50,
  sprawcaPolisaOc: 30,
  sprawcaFirmaTu: 20,
  zgloEmail: 50,
};

const DAMAGE_COLUMNS = [
  'sprawaId', 'zrodloId', 'nrSprawy', 'etapZnacz', 'nrZglosz', 'dataSzkod', 'rodzSzkod', 'zpolisTyp', 'pojazdId',
  'rejestr', 'pracId', 'pracIdPrzel', 'stru1', 'stanLicz', 'nrPodw', 'rokProd', 'pojNrVin', 'pojRokProd',
  'zgloNazwiskoImie', 'zgloTelef', 'zgloEmail', 'winaPrac', 'firmaZglosz', 'dataZgloSzkody', 'dataZgloFm',
  'opisSzkody', 'przyczynaSzkody', 'telefon', 'skadPolicja', 'holowanyData',
  'sprawcaNazImie', 'sprawcaMiejscow', 'sprawcaKodPoczt', 'sprawcaUlica', 'sprawcaPojRejestr', 'sprawcaPojMarka',
  'sprawcaPolisaOc', 'sprawcaFirmaTu', 'uwagi', 'klientSymbol',
];
const damageColumns = DAMAGE_COLUMNS.map((c) => `d."${c}"`).join(', ');

/** v_damage as 002 made it, plus (with `participant`) the participant's name and number at the end. */
const damageView = (participant: boolean) => `
  select ${damageColumns},
    c."markaOpis", c."modelOpis"${participant ? `,
    nullif(btrim(coalesce(e."nazwisko", '') || ' ' || coalesce(e."imie", '')), '') as "uczestnikNazwiskoImie",
    e."nrPrac" as "uczestnikNrPrac"` : ''}
  from damage d
  join car c on c."pojazdId" = d."pojazdId"${participant ? `
  left join employee e on e."pracId" = d."pracId"` : ''}`;

const lengthName = (column: string) => `damage_${column}_length`;

const UP = [
  ...Object.entries(DAMAGE_LENGTHS).map(([column, max]) =>
    `alter table damage add constraint ${lengthName(column)} check (char_length("${column}") <= ${max}) not valid`),
  `create or replace view v_damage as ${damageView(true)}`,
  `create unique index damage_nrSprawy_idx on damage ("nrSprawy")`,
  `alter table car add constraint car_aktStanLicz_max check ("aktStanLicz" <= ${MAX_NUMERIC}) not valid`,
  `alter table vehicle_assignment add constraint vehicle_assignment_licznikWy_max check ("licznikWy" <= ${MAX_NUMERIC}) not valid`,
  `alter table vehicle_assignment add constraint vehicle_assignment_licznikZd_max check ("licznikZd" <= ${MAX_NUMERIC}) not valid`,
];

const DOWN = [
  `alter table vehicle_assignment drop constraint vehicle_assignment_licznikZd_max`,
  `alter table vehicle_assignment drop constraint vehicle_assignment_licznikWy_max`,
  `alter table car drop constraint car_aktStanLicz_max`,
  `drop index damage_nrSprawy_idx`,
  `drop view v_damage`,
  `create view v_damage as ${damageView(false)}`,
  ...Object.keys(DAMAGE_LENGTHS).map((column) => `alter table damage drop constraint ${lengthName(column)}`),
];

export const migration012: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, UP);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, DOWN);
  },
};
