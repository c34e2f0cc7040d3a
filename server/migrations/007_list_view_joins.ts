/**
 * The orders and vehicles lists (v_order, v_car) read the columns of other tables through LEFT
 * JOINs on those tables' primary or unique keys instead of one correlated subquery per column:
 * the vehicles list looked the driver up in `employee` six times per row (name, first name, two
 * phones, e-mail, cost centre), once now; the orders list its status text, intervention name and
 * damage id through one join each.
 *
 * Migration 005 chose scalar subqueries so that a count, or the keys of a deep block, never
 * touches the joined tables and can be answered from an index alone. LEFT JOINs keep that: a left
 * join on a unique key whose columns a query does not read cannot change the rows, and
 * PostgreSQL's planner removes it ("join removal"), on PGlite as on the server. Columns, their
 * order and their values are the same (each key matches at most one row, as the subquery did).
 * The `exists` of cost-estimate positions stays a subquery: it is a test, not a lookup.
 * Measured before/after in docs/decisions.md.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { CAR_COLUMNS, CAR_VIEW, DRIVER, ORDER_VIEW } from './005_table_indexes.ts';
import { runStatements } from './run-sql.ts';

export const ORDER_VIEW_JOINED = `
  select
    o."autId", o."autTyp", o."autNr", o."autData", o."zgloData", o."zgloPrzyjal", o."zgloKto", o."zgloTelef",
    o."zgloNazwiskoImie", o."zgloEmail", o."zgloFirma", o."zgloInterw", o."zgloZakres", o."zlecZakres", o."uwagi",
    o."zlecNr", o."zlecTyp", o."zlecOpis", o."firma", o."naprMiejsce", o."pojazdId", o."pracId", o."stru1",
    o."stanLicz", o."rejestr", o."markaOpis", o."modelOpis", o."status", o."zatwierdzil", o."cenaWidoczna",
    o."uzytkPojazdu", o."czySzkoda", o."pricingConfirmed", o."terminNapr", o."stacjaSerw", o."klientSymbol",
    s."statusZnaczenie",
    it."nazwa" as "zgloInterwNazwa",
    d."sprawaId",
    exists (select 1 from order_position p where p."autId" = o."autId") as "czyKosztorys",
    (o."terminNapr" is not null) as "czyTermin"
  from service_order o
  left join order_status s on s."code" = o."status"
  left join intervention_type it on it."kod" = o."zgloInterw"
  left join damage d on d."zrodloId" = o."autId"`;

export const CAR_VIEW_JOINED = `
  select
    ${CAR_COLUMNS.map((c) => `c."${c}"`).join(', ')},
    cl."klientNazwa",
    ${DRIVER.map((f) => `e."${f}"`).join(', ')}
  from car c
  left join client cl on cl."klient" = c."klientSymbol"
  left join employee e on e."pracId" = c."pracId"`;

export const migration007: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create or replace view v_order as ${ORDER_VIEW_JOINED}`,
      `create or replace view v_car as ${CAR_VIEW_JOINED}`,
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      `create or replace view v_car as ${CAR_VIEW}`,
      `create or replace view v_order as ${ORDER_VIEW}`,
    ]);
  },
};
