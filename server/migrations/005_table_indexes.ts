/**
 * 005 — deep blocks of the two tables that grow to a million rows (orders) and a hundred thousand
 * (vehicles) stay fast (issue 4; DESIGN.md §3). Measured with `npm run bench`, see docs/benchmarks.md.
 *
 * 1. Every sortable column of the orders and vehicles lists has an index for each scope that
 *    reads many rows: (column, key) for ADMIN, who sees every row, and (klientSymbol, column, key)
 *    for a MANAGER. The key is the last sort term, in the direction of the column (table-query.ts
 *    sortKeys), so one index serves ascending and descending (a backward scan) and a keyset
 *    condition (column, key) > (…) is an index range. An ADVISOR's station scope is
 *    `stacjaSerw = … or pojazdId = …`, an OR no composite index can order; the (column, key)
 *    index read in order with that filter serves it (a station has a fraction of all orders). A
 *    USER's own vehicle has a handful of rows, found by the (pojazdId, …) indexes of 001.
 * 2. The order indexes carry the status as an INCLUDE column: the status is the filter users set
 *    most, and with it inside the index a filtered count or a jump deep into a filtered list is an
 *    index-only scan instead of a visit to a million table rows.
 * 3. v_order and v_car take the columns of other tables (status text, intervention name, damage
 *    id; client name, driver) through scalar subqueries instead of joins. Rows and values are the
 *    same (each looks up a primary or unique key, like the LEFT JOIN did, and every order has a
 *    status and every car a client), but a query that does not read those columns — a count, or
 *    the keys of a deep block — no longer touches the joined tables nor needs the joining column,
 *    so it can be answered from an index alone.
 *
 * The lists' joined and computed columns (status text, intervention name, cost-estimate and
 * repair-date icons, the driver's name on vehicles) cannot be indexed in the table they are read
 * from; the screens declare them "sortable": false (a test keeps screens and indexes in step).
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { VIEWS } from './002_views.ts';
import { runStatements } from './run-sql.ts';

/** Sortable columns of screens/orders-table.json that live in service_order. */
const ORDER_SORTED = [
  'zgloData', 'rejestr', 'status', 'autNr', 'autTyp', 'markaOpis', 'modelOpis', 'stanLicz', 'zgloFirma', 'zgloKto',
  'zgloNazwiskoImie', 'stru1', 'terminNapr',
];
/** The client-scoped ones 001 created without the INCLUDE column; replaced here. */
const ORDER_SCOPED_001 = ['zgloData', 'rejestr', 'status', 'autNr', 'autTyp', 'markaOpis', 'stanLicz', 'zgloFirma', 'zgloNazwiskoImie'];
/** Sortable columns of screens/vehicles-table.json that live in car. */
const CAR_SORTED = [
  'rejestr', 'marka', 'markaModel', 'nrPodw', 'rokProd', 'aktStanLicz', 'aktDataLicz', 'dataRej', 'dataPrzeg', 'otDoDaty',
  'otDoKm', 'kontrKontraktNr', 'kontrDataDo', 'pojStatus', 'grupa', 'kategoria', 'planLikData',
];
/** The client-scoped car indexes 001 already has (car × CAR_SORTABLE there). */
const CAR_SCOPED_001 = [
  'rejestr', 'nrPodw', 'markaModel', 'rokProd', 'aktStanLicz', 'dataRej', 'pojStatus', 'dataPrzeg', 'otDoDaty', 'kontrDataDo',
  'ocDataDo', 'acDataDo', 'planLikData',
];

/** Named as 001 names them, so a replaced index keeps its name. */
const name = (table: string, columns: string[]) => `"${`${table}_${columns.join('_')}_idx`.slice(0, 63)}"`;
const index = (table: string, columns: string[], include?: string) =>
  `create index ${name(table, columns)} on ${table} (${columns.map((c) => `"${c}"`).join(', ')})${include ? ` include ("${include}")` : ''}`;
const drop = (table: string, columns: string[]) => `drop index if exists ${name(table, columns)}`;
const withStatus = (c: string) => (c === 'status' ? undefined : 'status');

export const ORDER_VIEW = `
  select
    o."autId", o."autTyp", o."autNr", o."autData", o."zgloData", o."zgloPrzyjal", o."zgloKto", o."zgloTelef",
    o."zgloNazwiskoImie", o."zgloEmail", o."zgloFirma", o."zgloInterw", o."zgloZakres", o."zlecZakres", o."uwagi",
    o."zlecNr", o."zlecTyp", o."zlecOpis", o."firma", o."naprMiejsce", o."pojazdId", o."pracId", o."stru1",
    o."stanLicz", o."rejestr", o."markaOpis", o."modelOpis", o."status", o."zatwierdzil", o."cenaWidoczna",
    o."uzytkPojazdu", o."czySzkoda", o."pricingConfirmed", o."terminNapr", o."stacjaSerw", o."klientSymbol",
    (select s."statusZnaczenie" from order_status s where s."code" = o."status") as "statusZnaczenie",
    (select it."nazwa" from intervention_type it where it."kod" = o."zgloInterw") as "zgloInterwNazwa",
    (select d."sprawaId" from damage d where d."zrodloId" = o."autId") as "sprawaId",
    exists (select 1 from order_position p where p."autId" = o."autId") as "czyKosztorys",
    (o."terminNapr" is not null) as "czyTermin"
  from service_order o`;

export const CAR_COLUMNS = [
  'pojazdId', 'klientSymbol', 'pracId', 'stacjaSerw',
  'rejestr', 'nrPodw', 'marka', 'markaOpis', 'modelOpis', 'markaModel', 'rokProd', 'pojStatus', 'grupa', 'kategoria', 'dataRej',
  'aktStanLicz', 'aktDataLicz', 'stanPal', 'dataPrzeg', 'otOstatData', 'otOstatKm', 'otDoDaty', 'otDoKm',
  'serwisWFirmie', 'czyWydany', 'dataWyd', 'planLikData', 'planLikLicznik', 'zapasPrzekr',
  ...['oc', 'ac', 'nw', 'as'].flatMap((p) => ['Polisa', 'DataOd', 'DataDo', 'Firma', 'Kolor'].map((f) => p + f)),
  'kpalFirma', 'kpalNrKarty', 'kpalDataOd', 'kpalDataDo', 'kpalPin', 'kpalLimitMcIlosc', 'kpalLimitMcWartosc',
  'kontrKontraktNr', 'kontrDataOd', 'kontrDataDo', 'kontrLimitKmOgol',
];
export const DRIVER = ['nazwisko', 'imie', 'telefon', 'telefonKom', 'email', 'mpk'];

export const CAR_VIEW = `
  select
    ${CAR_COLUMNS.map((c) => `c."${c}"`).join(', ')},
    (select cl."klientNazwa" from client cl where cl."klient" = c."klientSymbol") as "klientNazwa",
    ${DRIVER.map((f) => `(select e."${f}" from employee e where e."pracId" = c."pracId") as "${f}"`).join(',\n    ')}
  from car c`;

export const migration005: Migration = {
  async up(db: Kysely<any>) {
    await runStatements(db, [
      `create or replace view v_order as ${ORDER_VIEW}`,
      `create or replace view v_car as ${CAR_VIEW}`,
      // superseded by the (column, autId) indexes below
      drop('service_order', ['zgloData', 'autId']),
      drop('service_order', ['rejestr']),
      drop('service_order', ['autNr']),
      ...ORDER_SCOPED_001.map((c) => drop('service_order', ['klientSymbol', c, 'autId'])),
      ...ORDER_SORTED.map((c) => index('service_order', [c, 'autId'], withStatus(c))),
      ...ORDER_SORTED.map((c) => index('service_order', ['klientSymbol', c, 'autId'], withStatus(c))),
      ...CAR_SORTED.map((c) => index('car', [c, 'pojazdId'])),
      ...CAR_SORTED.filter((c) => !CAR_SCOPED_001.includes(c)).map((c) => index('car', ['klientSymbol', c, 'pojazdId'])),
    ]);
  },
  async down(db: Kysely<any>) {
    await runStatements(db, [
      ...CAR_SORTED.filter((c) => !CAR_SCOPED_001.includes(c)).map((c) => drop('car', ['klientSymbol', c, 'pojazdId'])),
      ...CAR_SORTED.map((c) => drop('car', [c, 'pojazdId'])),
      ...ORDER_SORTED.map((c) => drop('service_order', ['klientSymbol', c, 'autId'])),
      ...ORDER_SORTED.map((c) => drop('service_order', [c, 'autId'])),
      ...ORDER_SCOPED_001.map((c) => index('service_order', ['klientSymbol', c, 'autId'])),
      index('service_order', ['zgloData', 'autId']),
      index('service_order', ['rejestr']),
      index('service_order', ['autNr']),
      `create or replace view v_car as ${VIEWS.v_car}`,
      `create or replace view v_order as ${VIEWS.v_order}`,
    ]);
  },
};
