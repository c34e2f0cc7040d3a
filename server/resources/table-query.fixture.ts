/**
 * Fixture for table-query.test.ts: an entity schema, a table behind a view with quoted camelCase
 * columns (as every table resource has), and 20 rows covering text (with %, _, \, ', Polish
 * letters, '' and NULL), integer and numeric, date, timestamptz and boolean values, NULLs in each.
 * Times are local to Europe/Warsaw; the tests set that session TimeZone.
 */
import { sql, type Kysely } from 'kysely';
import type { ConfiguredTables } from '../db/configured-tables.ts';

export const VIEW = 'v_tq_pojazd';

export const pojazdSchema = {
  $id: 'tq-pojazd',
  type: 'object',
  properties: {
    id: { type: 'integer' },
    nrRej: { type: 'string' },
    marka: { type: ['string', 'null'] },
    aktStanLicz: { type: ['integer', 'null'] },
    kwotaNetto: { anyOf: [{ type: 'number' }, { type: 'null' }] },
    dataRej: { type: ['string', 'null'], format: 'date' },
    ostatniaAktualizacja: { type: ['string', 'null'], format: 'date-time' },
    aktywny: { type: ['boolean', 'null'] },
    uwagi: { type: ['string', 'null'], 'x-filter': false },
    wyposazenie: { type: 'array', items: { type: 'string' } },
  },
} as const;

type Row = [number, string, string | null, number | null, string | null, string | null, string | null, boolean | null];

// id, nrRej, marka, aktStanLicz, kwotaNetto, dataRej, ostatniaAktualizacja (Warsaw), aktywny
export const rows: Row[] = [
  [1, 'WA1001A', 'Toyota', 12000, '1500.00', '2020-01-15', '2024-05-24 08:00:00', true],
  [2, 'WA1002B', 'toyota', 45000, '2500.50', '2021-03-01', '2024-05-24 23:30:00', true],
  [3, 'KR2001C', 'Škoda', 30000, '1999.99', '2021-03-01', '2024-05-23 23:59:59', false],
  [4, 'KR2002D', 'ŁADA', null, null, null, null, null],
  [5, 'PO3001E', '', 0, '0.00', '2019-12-31', '2024-05-25 00:00:00', false],
  [6, 'PO3002F', null, 99999, '10000.00', '2022-06-30', '2024-01-01 12:00:00', true],
  [7, 'GD4001G', '100% Eko', 5000, '-50.25', '2023-02-28', '2024-05-24 00:00:00', true],
  [8, 'GD4002H', '50_50 Cars', 5000, '750.00', '2023-02-28', '2023-12-31 23:00:00', false],
  [9, 'WR5001I', 'Back\\slash', 7500, '1200.00', '2020-01-15', '2024-02-29 10:15:00', true],
  [10, 'WR5002J', 'Ford', 120000, '3300.00', '2018-07-04', '2024-05-20 09:00:00', false],
  [11, 'SZ6001K', 'Ford Transit', 87000, '4100.10', '2019-11-11', '2024-05-21 00:00:00', true],
  [12, 'SZ6002L', 'Opel', 64000, '1500.00', '2020-05-05', '2024-04-30 18:00:00', null],
  [13, 'LU7001M', 'OPEL', 64500, '2200.00', '2020-05-06', '2024-05-01 00:00:00', true],
  [14, 'LU7002N', 'Renault', 15000, '1800.00', '2021-09-09', '2024-05-26 07:00:00', false],
  [15, 'BI8001O', 'Kia', 22000, '1650.00', '2022-01-01', '2024-05-24 12:00:00', true],
  [16, 'BI8002P', 'Hyundai', 64000, '1750.00', '2022-12-31', '2024-05-22 00:00:00', true],
  [17, 'OL9001R', 'Volvo', 41000, '5200.00', '2023-06-15', null, false],
  [18, 'OL9002S', 'Fiat', null, '900.00', '2024-01-10', '2024-05-24 16:45:00', true],
  [19, 'EL0001T', "O'Brien Motors", 1000, '1000.00', '2024-05-24', '2024-05-27 00:00:00', true],
  [20, 'EL0002U', 'Dacia', 2500, '1100.00', '2024-02-29', '2024-05-24 09:30:00', false],
];

export const ALL_IDS = rows.map((r) => r[0]);

/** Creates the table and view in the current schema (search_path) and fills them. */
export async function createFixture(db: Kysely<ConfiguredTables>): Promise<void> {
  await sql`create table tq_pojazd (
    id integer primary key,
    nr_rej text not null,
    marka text,
    akt_stan_licz integer,
    kwota_netto numeric(12, 2),
    data_rej date,
    ostatnia_aktualizacja timestamptz,
    aktywny boolean,
    uwagi text
  )`.execute(db);
  await sql`create view v_tq_pojazd as select
    id, nr_rej as "nrRej", marka, akt_stan_licz as "aktStanLicz", kwota_netto as "kwotaNetto",
    data_rej as "dataRej", ostatnia_aktualizacja as "ostatniaAktualizacja", aktywny, uwagi
    from tq_pojazd`.execute(db);
  await db
    .insertInto('tq_pojazd')
    .values(
      rows.map(([id, nrRej, marka, licz, kwota, dataRej, akt, aktywny]) => ({
        id,
        nr_rej: nrRej,
        marka,
        akt_stan_licz: licz,
        kwota_netto: kwota,
        data_rej: dataRej,
        ostatnia_aktualizacja: akt,
        aktywny,
        uwagi: `uwaga ${id}`,
      })),
    )
    .execute();
}
