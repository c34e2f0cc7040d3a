import { randomBytes } from 'node:crypto';
import { PGlite } from '@electric-sql/pglite';
import { DummyDriver, Kysely, PostgresAdapter, PostgresDialect, PostgresIntrospector, PostgresQueryCompiler, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_IDS, VIEW, createFixture, pojazdSchema } from '../resources/table-query.fixture.ts';
import { TableQueryError, applySort, blockWindow, columnsFromSchema, filterExpression, sortKeys } from './table-query.ts';
import type { ConfiguredTables } from './configured-tables.ts';
import { PGliteDialect } from './pglite-dialect.ts';
import { pgliteCode } from './pglite-code.ts';

const columns = columnsFromSchema(pojazdSchema);
const MAX_BLOCK = 100;

const except = (...ids: number[]) => ALL_IDS.filter((id) => !ids.includes(id));

/** The query a table resource builds: the view, the filter, the sort with `id` as key, the block. */
function tableQuery(db: Kysely<ConfiguredTables>, req: { filterModel?: unknown; sortModel?: unknown; startRow?: unknown; endRow?: unknown }) {
  const { offset, limit } = blockWindow({ startRow: req.startRow ?? 0, endRow: req.endRow ?? MAX_BLOCK }, MAX_BLOCK);
  const filtered = db
    .selectFrom(VIEW)
    .select('id')
    .where((eb) => filterExpression(eb, columns, req.filterModel) ?? sql<boolean>`true`);
  return applySort(filtered, columns, req.sortModel, 'id').offset(offset).limit(limit);
}

/** Compiles without a database (refusals and SQL-text checks need none). */
const offline = new Kysely<ConfiguredTables>({
  dialect: {
    createAdapter: () => new PostgresAdapter(),
    createDriver: () => new DummyDriver(),
    createIntrospector: (db) => new PostgresIntrospector(db),
    createQueryCompiler: () => new PostgresQueryCompiler(),
  },
});

function refusal(fn: () => unknown): { code: string; field: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof TableQueryError) return { code: e.code, field: e.field };
    throw e;
  }
  throw new Error('expected a TableQueryError, the request was accepted');
}
const filterRefusal = (filterModel: unknown) => refusal(() => tableQuery(offline, { filterModel }).compile());
const sortRefusal = (sortModel: unknown) => refusal(() => tableQuery(offline, { sortModel }).compile());

// -------------------------------------------------------------------------------------------
// Row assertions, run on PGlite and (with DATABASE_URL) on PostgreSQL.

const text = (type: string, filter?: unknown) => ({ filterType: 'text', type, filter });
const num = (type: string, filter?: unknown, filterTo?: unknown) => ({ filterType: 'number', type, filter, filterTo });
const date = (type: string, dateFrom?: unknown, dateTo?: unknown) => ({ filterType: 'date', type, dateFrom: dateFrom ?? null, dateTo: dateTo ?? null });

const DAY_24 = [1, 2, 7, 15, 18, 20]; // ostatniaAktualizacja on 2024-05-24, Warsaw time
const ACTIVE = [1, 2, 6, 7, 9, 11, 13, 15, 16, 18, 19];
const INACTIVE = [3, 5, 8, 10, 14, 17, 20];

const filterCases: [string, Record<string, unknown>, number[]][] = [
  // text
  ['text contains matches case-insensitively', { marka: text('contains', 'OYO') }, [1, 2]],
  ['text contains finds the value anywhere in the word', { marka: text('contains', 'or') }, [10, 11, 19]],
  ['text notContains keeps blank rows', { marka: text('notContains', 'o') }, [4, 5, 6, 8, 9, 14, 15, 16, 18, 20]],
  ['text equals is whole-value and case-insensitive', { marka: text('equals', 'opel') }, [12, 13]],
  ['text notEqual keeps blank rows', { marka: text('notEqual', 'opel') }, except(12, 13)],
  ['text startsWith', { marka: text('startsWith', 'ford') }, [10, 11]],
  ['text endsWith', { marka: text('endsWith', 'A') }, [1, 2, 3, 4, 15, 20]],
  ['text blank means NULL or empty string', { marka: text('blank') }, [5, 6]],
  ['text notBlank excludes NULL and empty string', { marka: text('notBlank') }, except(5, 6)],
  ['text matching folds Polish letters', { marka: text('equals', 'łada') }, [4]],
  ['text matching folds letters with a caron', { marka: text('contains', 'ŠKO') }, [3]],
  ['text % is a literal character', { marka: text('contains', '%') }, [7]],
  ['text _ is a literal character', { marka: text('contains', '_') }, [8]],
  ['text backslash is a literal character', { marka: text('contains', '\\') }, [9]],
  ['text % at the start of startsWith is literal', { marka: text('startsWith', '100%') }, [7]],
  ['text equals with _ matches only that value', { marka: text('equals', '50_50 cars') }, [8]],
  ['text apostrophe is a literal character', { marka: text('contains', "o'b") }, [19]],
  ['text value injection returns nothing (equals)', { marka: text('equals', "' or 1=1 --") }, []],
  ['text value injection returns nothing (contains)', { marka: text('contains', "' or '1'='1") }, []],
  // number (integer column)
  ['number equals', { aktStanLicz: num('equals', 5000) }, [7, 8]],
  ['number notEqual drops blank rows', { aktStanLicz: num('notEqual', 5000) }, except(4, 18, 7, 8)],
  ['number greaterThan', { aktStanLicz: num('greaterThan', 64000) }, [6, 10, 11, 13]],
  ['number greaterThanOrEqual', { aktStanLicz: num('greaterThanOrEqual', 64000) }, [6, 10, 11, 12, 13, 16]],
  ['number lessThan', { aktStanLicz: num('lessThan', 5000) }, [5, 19, 20]],
  ['number lessThanOrEqual', { aktStanLicz: num('lessThanOrEqual', 5000) }, [5, 7, 8, 19, 20]],
  ['number inRange includes both ends', { aktStanLicz: num('inRange', 5000, 15000) }, [1, 7, 8, 9, 14]],
  ['number blank means NULL', { aktStanLicz: num('blank') }, [4, 18]],
  ['number notBlank', { aktStanLicz: num('notBlank') }, except(4, 18)],
  ['number with a fraction compares exactly on an integer column', { aktStanLicz: num('greaterThan', 4999.5) }, except(4, 18, 5, 19, 20)],
  // number (numeric column)
  ['number equals a decimal value', { kwotaNetto: num('equals', 1999.99) }, [3]],
  ['number lessThan zero finds negative amounts', { kwotaNetto: num('lessThan', 0) }, [7]],
  ['number greaterThan a decimal bound is strict', { kwotaNetto: num('greaterThan', 2500.5) }, [6, 10, 11, 17]],
  ['number inRange on decimals includes both ends', { kwotaNetto: num('inRange', 1500, 1750) }, [1, 12, 15, 16]],
  // date column
  ['date equals', { dataRej: date('equals', '2021-03-01') }, [2, 3]],
  ['date equals accepts ag-grid’s default format with time', { dataRej: date('equals', '2021-03-01 00:00:00') }, [2, 3]],
  ['date notEqual drops blank rows', { dataRej: date('notEqual', '2021-03-01') }, except(4, 2, 3)],
  ['date greaterThan', { dataRej: date('greaterThan', '2023-02-28') }, [17, 18, 19, 20]],
  ['date greaterThanOrEqual', { dataRej: date('greaterThanOrEqual', '2024-02-29') }, [19, 20]],
  ['date lessThan', { dataRej: date('lessThan', '2020-01-15') }, [5, 10, 11]],
  ['date lessThanOrEqual', { dataRej: date('lessThanOrEqual', '2018-07-04') }, [10]],
  ['date inRange includes both ends', { dataRej: date('inRange', '2020-01-15', '2020-05-06') }, [1, 9, 12, 13]],
  ['date blank means NULL', { dataRej: date('blank') }, [4]],
  ['date notBlank', { dataRej: date('notBlank') }, except(4)],
  // datetime column (timestamptz, session TimeZone Europe/Warsaw)
  ['datetime equals means the same calendar day (00:00 to 23:59:59)', { ostatniaAktualizacja: date('equals', '2024-05-24') }, DAY_24],
  ['datetime equals ignores the time part of the filter value', { ostatniaAktualizacja: date('equals', '2024-05-24 13:45:00') }, DAY_24],
  ['datetime equals accepts an ISO T separator', { ostatniaAktualizacja: date('equals', '2024-05-24T00:00:00') }, DAY_24],
  ['datetime notEqual means another day and drops blank rows', { ostatniaAktualizacja: date('notEqual', '2024-05-24') }, except(4, 17, ...DAY_24)],
  ['datetime greaterThan starts the next day', { ostatniaAktualizacja: date('greaterThan', '2024-05-24') }, [5, 14, 19]],
  ['datetime greaterThanOrEqual starts that day', { ostatniaAktualizacja: date('greaterThanOrEqual', '2024-05-24') }, [1, 2, 5, 7, 14, 15, 18, 19, 20]],
  ['datetime lessThan ends before that day', { ostatniaAktualizacja: date('lessThan', '2024-05-24') }, [3, 6, 8, 9, 10, 11, 12, 13, 16]],
  ['datetime lessThanOrEqual includes that whole day', { ostatniaAktualizacja: date('lessThanOrEqual', '2024-05-21') }, [6, 8, 9, 10, 11, 12, 13]],
  ['datetime inRange includes both whole days', { ostatniaAktualizacja: date('inRange', '2024-05-21', '2024-05-23') }, [3, 11, 16]],
  ['datetime blank means NULL', { ostatniaAktualizacja: date('blank') }, [4, 17]],
  ['datetime notBlank', { ostatniaAktualizacja: date('notBlank') }, except(4, 17)],
  // boolean
  ['boolean equals true', { aktywny: text('equals', 'true') }, ACTIVE],
  ['boolean equals false (JSON boolean accepted)', { aktywny: text('equals', false) }, INACTIVE],
  ['boolean notEqual true keeps blank rows', { aktywny: text('notEqual', 'true') }, [3, 4, 5, 8, 10, 12, 14, 17, 20]],
  ['boolean blank means NULL', { aktywny: text('blank') }, [4, 12]],
  ['boolean notBlank', { aktywny: text('notBlank') }, except(4, 12)],
  ['boolean set of true', { aktywny: { filterType: 'set', values: ['true'] } }, ACTIVE],
  ['boolean set of false and blanks', { aktywny: { filterType: 'set', values: ['false', null] } }, [3, 4, 5, 8, 10, 12, 14, 17, 20]],
  ['boolean empty set matches nothing', { aktywny: { filterType: 'set', values: [] } }, []],
  // set on text
  ['set matches any listed value', { marka: { filterType: 'set', values: ['Ford', 'Kia'] } }, [10, 15]],
  ['set matches exactly, case included', { marka: { filterType: 'set', values: ['Opel'] } }, [12]],
  ['set of one value matches exactly, case included', { marka: { filterType: 'set', values: ['opel'] } }, []],
  ['set of one value and blanks', { marka: { filterType: 'set', values: ['Kia', null] } }, [5, 6, 15]],
  ['set null item selects blank rows', { marka: { filterType: 'set', values: [null, 'Kia'] } }, [5, 6, 15]],
  ['set empty list matches nothing', { marka: { filterType: 'set', values: [] } }, []],
  // set on a number column (coded values: order status, order type)
  ['number set matches any listed value', { aktStanLicz: { filterType: 'set', values: [5000, 0] } }, [5, 7, 8]],
  ['number set null item selects blank rows', { aktStanLicz: { filterType: 'set', values: [null, 1000] } }, [4, 18, 19]],
  ['number set empty list matches nothing', { aktStanLicz: { filterType: 'set', values: [] } }, []],
  ['set value injection returns nothing', { marka: { filterType: 'set', values: ["' or 1=1 --", '"}'] } }, []],
  ['set values with % and _ are literal', { marka: { filterType: 'set', values: ['100%', '50_50%'] } }, []],
  // combined
  [
    'combined OR on one column',
    { marka: { filterType: 'text', operator: 'OR', conditions: [text('contains', 'ford'), text('equals', 'kia')] } },
    [10, 11, 15],
  ],
  [
    'combined AND on one column',
    { aktStanLicz: { filterType: 'number', operator: 'AND', conditions: [num('greaterThan', 10000), num('lessThan', 40000)] } },
    [1, 3, 14, 15],
  ],
  [
    'combined conditions inherit the filterType',
    { aktStanLicz: { filterType: 'number', operator: 'OR', conditions: [{ type: 'equals', filter: 0 }, { type: 'blank' }] } },
    [4, 5, 18],
  ],
  [
    'combined legacy condition1/condition2',
    { dataRej: { filterType: 'date', operator: 'OR', condition1: date('equals', '2021-03-01'), condition2: date('blank') } },
    [2, 3, 4],
  ],
  ['filters on several columns are ANDed', { marka: text('contains', 'o'), aktywny: text('equals', 'true') }, [1, 2, 7, 11, 13, 19]],
  ['an empty filter model returns every row', {}, ALL_IDS],
];

// Sort expectations (see the fixture): aktStanLicz desc puts NULLs first, ties by marka, then id.
const BY_LICZ_DESC_MARKA = [18, 4, 10, 6, 11, 13, 16, 12, 2, 17, 3, 15, 14, 1, 9, 7, 8, 20, 19, 5];
const BY_LICZ_ASC = [5, 19, 20, 7, 8, 9, 1, 14, 15, 3, 17, 2, 12, 16, 13, 11, 6, 10, 4, 18];

interface Backend {
  name: string;
  open(): Promise<{ db: Kysely<ConfiguredTables>; close(): Promise<void> }>;
}

const backends: Backend[] = [
  {
    name: 'PGlite',
    async open() {
      // an in-memory PGlite through the portal's own dialect, the one server/db/connect.ts uses
      const client = await PGlite.create({ ...(await pgliteCode()) });
      const db = new Kysely<ConfiguredTables>({ dialect: new PGliteDialect(client) });
      await client.exec(`set timezone = 'Europe/Warsaw'`);
      await createFixture(db);
      return { db, close: () => db.destroy() };
    },
  },
];
const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl) {
  backends.push({
    name: 'PostgreSQL',
    async open() {
      const schema = `tq_${randomBytes(6).toString('hex')}`;
      // One connection, its search_path on the throwaway schema and its zone fixed for day boundaries.
      const pool = new pg.Pool({ connectionString: databaseUrl, max: 1, options: `-c search_path=${schema} -c TimeZone=Europe/Warsaw` });
      const db = new Kysely<ConfiguredTables>({ dialect: new PostgresDialect({ pool }) });
      await sql`create schema ${sql.id(schema)}`.execute(db);
      await createFixture(db);
      return {
        db,
        close: async () => {
          await sql`drop schema ${sql.id(schema)} cascade`.execute(db);
          await db.destroy();
        },
      };
    },
  });
}

describe.each(backends)('table query on $name', (backend) => {
  let db: Kysely<ConfiguredTables>;
  let close: () => Promise<void>;
  const ids = async (req: Parameters<typeof tableQuery>[1]) => (await tableQuery(db, req).execute()).map((r) => Number(r.id));

  beforeAll(async () => {
    ({ db, close } = await backend.open());
  });
  afterAll(async () => {
    await close?.();
  });

  it.each(filterCases)('%s', async (_name, filterModel, expected) => {
    expect(await ids({ filterModel })).toEqual(expected);
  });

  it('sorts by several columns in order, NULLs first descending, then by the key', async () => {
    const sortModel = [
      { colId: 'aktStanLicz', sort: 'desc' },
      { colId: 'marka', sort: 'asc' },
    ];
    expect(await ids({ sortModel })).toEqual(BY_LICZ_DESC_MARKA);
  });

  it('sorts ascending with NULLs last and ties broken by the key ascending', async () => {
    expect(await ids({ sortModel: [{ colId: 'aktStanLicz', sort: 'asc' }] })).toEqual(BY_LICZ_ASC);
  });

  it('sorts booleans false before true, NULLs last', async () => {
    expect(await ids({ sortModel: [{ colId: 'aktywny', sort: 'asc' }] })).toEqual([...INACTIVE, ...ACTIVE, 4, 12]);
  });

  it('sorts by the key itself without adding it twice', async () => {
    expect(await ids({ sortModel: [{ colId: 'id', sort: 'desc' }] })).toEqual([...ALL_IDS].reverse());
  });

  it('sorts an ag-grid default sort type like no type', async () => {
    expect(await ids({ sortModel: [{ colId: 'aktStanLicz', sort: 'asc', type: 'default' }] })).toEqual(BY_LICZ_ASC);
  });

  it('reads consecutive blocks that neither repeat nor skip rows across ties', async () => {
    const sortModel = [
      { colId: 'aktStanLicz', sort: 'desc' },
      { colId: 'marka', sort: 'asc' },
    ];
    const blocks: number[][] = [];
    for (let start = 0; start < 24; start += 6) blocks.push(await ids({ sortModel, startRow: start, endRow: start + 6 }));
    expect(blocks).toEqual([
      BY_LICZ_DESC_MARKA.slice(0, 6),
      BY_LICZ_DESC_MARKA.slice(6, 12),
      BY_LICZ_DESC_MARKA.slice(12, 18),
      BY_LICZ_DESC_MARKA.slice(18, 20),
    ]);
  });

  it('reads a block of filtered, sorted rows', async () => {
    const rows = await ids({
      filterModel: { aktywny: text('equals', 'true') },
      sortModel: [{ colId: 'kwotaNetto', sort: 'desc' }],
      startRow: 2,
      endRow: 5,
    });
    // active by kwotaNetto desc: 6 (10000), 11 (4100.10), 2 (2500.50), 13 (2200), 16 (1750), …
    expect(rows).toEqual([2, 13, 16]);
  });

  it('keeps the table intact after injection attempts', async () => {
    expect(filterRefusal({ 'rejestr"; drop table tq_pojazd; --': text('equals', 'x') }).code).toBe('unknownColumn');
    await ids({ filterModel: { marka: text('equals', "'; drop table tq_pojazd; --") } });
    const count = await db.selectFrom('tq_pojazd').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(20);
  });
});

// -------------------------------------------------------------------------------------------
// Pure checks: schema mapping, refusals, SQL text.

describe('columnsFromSchema', () => {
  it('maps JSON Schema types to column kinds, nullable ones included', () => {
    expect(Object.fromEntries([...columns].map(([id, c]) => [id, c.kind]))).toEqual({
      id: 'number',
      nrRej: 'text',
      marka: 'text',
      aktStanLicz: 'number',
      kwotaNetto: 'number',
      dataRej: 'date',
      ostatniaAktualizacja: 'datetime',
      aktywny: 'boolean',
    });
  });

  it('leaves out properties flagged x-filter false and those of no scalar type', () => {
    expect(columns.has('uwagi')).toBe(false);
    expect(columns.has('wyposazenie')).toBe(false);
  });

  it('sorts a label by the code its x-sortBy names, and refuses one naming no column', () => {
    const coded = columnsFromSchema({
      properties: { id: { type: 'integer' }, status: { type: 'integer' }, statusText: { type: 'string', 'x-sortBy': 'status' } },
    });
    expect(sortKeys(coded, [{ colId: 'statusText', sort: 'desc' }], 'id')).toEqual([{ name: 'status', dir: 'desc' }, { name: 'id', dir: 'desc' }]);
    // the label still filters as itself
    expect(coded.get('statusText')).toMatchObject({ name: 'statusText', kind: 'text' });
    expect(() => columnsFromSchema({ properties: { a: { type: 'string', 'x-sortBy': 'missing' } } })).toThrow(/not a column/);
  });

  it('refuses a property name that is not a plain identifier', () => {
    expect(() => columnsFromSchema({ properties: { 'a.b': { type: 'string' } } })).toThrow(/not a plain identifier/);
    expect(() => columnsFromSchema({ properties: { 'a"b': { type: 'string' } } })).toThrow(/not a plain identifier/);
  });
});

describe('refusals', () => {
  it('refuses a filter on an unknown column', () => {
    expect(filterRefusal({ rejestr: text('equals', 'x') })).toEqual({ code: 'unknownColumn', field: 'rejestr' });
  });

  it('refuses a column-name injection in the filter model', () => {
    const colId = 'rejestr"; drop table x; --';
    expect(filterRefusal({ [colId]: text('equals', 'x') })).toEqual({ code: 'unknownColumn', field: colId });
  });

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty'])('refuses the object-prototype name %s as a column', (colId) => {
    const filterModel = JSON.parse(`{${JSON.stringify(colId)}: {"filterType":"text","type":"equals","filter":"x"}}`);
    expect(filterRefusal(filterModel)).toEqual({ code: 'unknownColumn', field: colId });
    expect(sortRefusal([{ colId, sort: 'asc' }])).toEqual({ code: 'unknownColumn', field: colId });
  });

  it('refuses a filter on a column flagged x-filter false', () => {
    expect(filterRefusal({ uwagi: text('contains', 'x') })).toEqual({ code: 'unknownColumn', field: 'uwagi' });
  });

  it('refuses a sort on an unknown, injected or non-sortable column', () => {
    expect(sortRefusal([{ colId: 'rejestr"; drop table x; --', sort: 'asc' }])).toEqual({ code: 'unknownColumn', field: 'rejestr"; drop table x; --' });
    expect(sortRefusal([{ colId: 'uwagi', sort: 'asc' }])).toEqual({ code: 'unknownColumn', field: 'uwagi' });
  });

  it('refuses a sort direction or sort type it does not know', () => {
    expect(sortRefusal([{ colId: 'marka', sort: 'desc; drop table x' }])).toEqual({ code: 'unsupportedFilter', field: 'marka' });
    expect(sortRefusal([{ colId: 'marka', sort: null }])).toEqual({ code: 'unsupportedFilter', field: 'marka' });
    expect(sortRefusal([{ colId: 'aktStanLicz', sort: 'asc', type: 'absolute' }])).toEqual({ code: 'unsupportedFilter', field: 'aktStanLicz' });
  });

  it('refuses a malformed sort model', () => {
    expect(sortRefusal('marka asc')).toEqual({ code: 'badFilterValue', field: 'sortModel' });
    expect(sortRefusal([{ sort: 'asc' }])).toEqual({ code: 'badFilterValue', field: 'sortModel' });
    expect(sortRefusal(['marka'])).toEqual({ code: 'badFilterValue', field: 'sortModel' });
  });

  it.each([
    ['a number filter on a text column', { marka: num('equals', 1) }, 'marka'],
    ['a text filter on a number column', { aktStanLicz: text('equals', '1') }, 'aktStanLicz'],
    ['a date filter on a number column', { aktStanLicz: date('equals', '2024-01-01') }, 'aktStanLicz'],
    ['a text filter on a date column', { dataRej: text('equals', '2024-01-01') }, 'dataRej'],
    ['a set filter on a date column', { dataRej: { filterType: 'set', values: ['2020-01-15'] } }, 'dataRej'],
    ['a bigint filter', { aktStanLicz: { filterType: 'bigint', type: 'equals', filter: '1' } }, 'aktStanLicz'],
    ['a filter without filterType', { marka: { type: 'equals', filter: 'x' } }, 'marka'],
    ['a text type not in the list', { marka: text('like', 'x%') }, 'marka'],
    ['a number type the text filter does not have', { marka: text('greaterThan', 'x') }, 'marka'],
    ['a text type the number filter does not have', { aktStanLicz: num('contains', 1) }, 'aktStanLicz'],
    ['a date preset', { dataRej: { filterType: 'date', type: 'today' } }, 'dataRej'],
    ['contains on a boolean column', { aktywny: text('contains', 'tr') }, 'aktywny'],
    ['an unknown combine operator', { marka: { filterType: 'text', operator: 'XOR', conditions: [text('equals', 'x')] } }, 'marka'],
    ['a condition of another filterType inside a combined model', { marka: { filterType: 'text', operator: 'OR', conditions: [num('equals', 1)] } }, 'marka'],
    ['a nested combined model', { marka: { filterType: 'text', operator: 'OR', conditions: [{ operator: 'AND', conditions: [] }] } }, 'marka'],
  ])('refuses %s as unsupported', (_name, filterModel, field) => {
    expect(filterRefusal(filterModel)).toEqual({ code: 'unsupportedFilter', field });
  });

  it.each([
    ['a text value that is not a string', { marka: text('equals', 42) }],
    ['a missing text value', { marka: text('contains') }],
    ['NaN', { aktStanLicz: num('equals', Number.NaN) }],
    ['Infinity', { aktStanLicz: num('lessThan', Number.POSITIVE_INFINITY) }],
    ['a number sent as a string', { aktStanLicz: num('equals', '5000') }],
    ['a number with SQL in it', { aktStanLicz: num('equals', '1 or 1=1') }],
    ['inRange without filterTo', { aktStanLicz: num('inRange', 1) }],
    ['a day that does not exist', { dataRej: date('equals', '2023-02-29') }],
    ['a day-first date', { dataRej: date('equals', '24-05-2024') }],
    ['a date word', { dataRej: date('equals', 'yesterday') }],
    ['a date as a number', { dataRej: date('equals', 20240524) }],
    ['an impossible time', { ostatniaAktualizacja: date('equals', '2024-05-24 25:00:00') }],
    ['a date with SQL in it', { dataRej: date('equals', "2024-05-24' or '1'='1") }],
    ['inRange without dateTo', { dataRej: date('inRange', '2024-01-01') }],
    ['a boolean value other than true/false', { aktywny: text('equals', 'tak') }],
    ['a set that is not a list', { marka: { filterType: 'set', values: 'Ford' } }],
    ['a set value that is not a string', { marka: { filterType: 'set', values: [1] } }],
    ['a number set value sent as a string', { aktStanLicz: { filterType: 'set', values: ['5000'] } }],
    ['a combined model with no conditions', { marka: { filterType: 'text', operator: 'OR', conditions: [] } }],
    ['a column model that is not an object', { marka: 'Ford' }],
  ])('refuses %s as a bad value', (_name, filterModel) => {
    const field = Object.keys(filterModel)[0];
    expect(filterRefusal(filterModel)).toEqual({ code: 'badFilterValue', field });
  });

  it('refuses a filter model that is not an object', () => {
    expect(filterRefusal('marka = 1')).toEqual({ code: 'badFilterValue', field: 'filterModel' });
    expect(filterRefusal([text('equals', 'x')])).toEqual({ code: 'badFilterValue', field: 'filterModel' });
  });
});

describe('blockWindow', () => {
  it('turns a block request into offset and limit', () => {
    expect(blockWindow({ startRow: 0, endRow: 30 }, 30)).toEqual({ offset: 0, limit: 30 });
    expect(blockWindow({ startRow: 270, endRow: 300 }, 30)).toEqual({ offset: 270, limit: 30 });
    expect(blockWindow({ startRow: 5, endRow: 6 }, 30)).toEqual({ offset: 5, limit: 1 });
  });

  it.each([
    ['a negative start', { startRow: -1, endRow: 29 }, 'startRow'],
    ['a fractional start', { startRow: 1.5, endRow: 30 }, 'startRow'],
    ['a start given as text', { startRow: '0', endRow: 30 }, 'startRow'],
    ['a missing start', { endRow: 30 }, 'startRow'],
    ['a start beyond safe integers', { startRow: 2 ** 53, endRow: 2 ** 53 + 30 }, 'startRow'],
    ['an end equal to the start', { startRow: 30, endRow: 30 }, 'endRow'],
    ['an end before the start', { startRow: 30, endRow: 0 }, 'endRow'],
    ['a block larger than the maximum', { startRow: 0, endRow: 31 }, 'endRow'],
    ['a missing end', { startRow: 0 }, 'endRow'],
    ['an end that is NaN', { startRow: 0, endRow: Number.NaN }, 'endRow'],
  ])('refuses %s', (_name, rowParams, field) => {
    expect(refusal(() => blockWindow(rowParams, 30))).toEqual({ code: 'badRange', field });
  });
});

describe('SQL text', () => {
  it('carries every filter value as a parameter, never in the SQL string', () => {
    const filterModel = {
      marka: { filterType: 'text', operator: 'OR', conditions: [text('contains', 'Zzmarka%'), text('equals', "x' or 1=1 --")] },
      nrRej: { filterType: 'set', values: ['ZZ12345', 'YY67890'] },
      aktStanLicz: num('inRange', 424242, 434343),
      kwotaNetto: num('equals', 987.65),
      dataRej: date('inRange', '2031-07-19', '2032-08-20'),
      ostatniaAktualizacja: date('equals', '2033-09-21 10:11:12'),
      aktywny: text('equals', 'false'),
    };
    const { sql: text_, parameters } = tableQuery(offline, { filterModel, sortModel: [{ colId: 'aktStanLicz', sort: 'desc' }], startRow: 60, endRow: 90 }).compile();
    for (const value of ['Zzmarka', '1=1', 'ZZ12345', 'YY67890', '424242', '434343', '987', '2031', '2032', '2033', 'false', '60', '90']) {
      expect(text_).not.toContain(value);
    }
    expect(parameters).toEqual(
      expect.arrayContaining(['%Zzmarka\\%%', "x' or 1=1 --", ['ZZ12345', 'YY67890'], 424242, 434343, 987.65, '2031-07-19', '2032-08-21', '2033-09-21', '2033-09-22', false]),
    );
    expect(text_).toContain('"aktStanLicz" desc nulls first');
    expect(text_).toContain('"id" desc nulls first'); // the key follows the last sort direction
  });

  it('asks a text choice of one value as an equality, which an index led by the column serves in the table\'s order', () => {
    const one = tableQuery(offline, { filterModel: { marka: { filterType: 'set', values: ["Kia' or 1=1 --"] } } }).compile();
    expect(one.sql).toContain('"marka" = $1');
    expect(one.sql).not.toContain('any(');
    expect(one.parameters[0]).toBe("Kia' or 1=1 --");
    const two = tableQuery(offline, { filterModel: { marka: { filterType: 'set', values: ['Kia', 'Ford'] } } }).compile();
    expect(two.sql).toContain('"marka" = any(cast($1 as text[]))');
  });
});
