/**
 * Every way table-block.ts reads a block returns exactly the rows of `ORDER BY … OFFSET … LIMIT`:
 * consecutive blocks by keyset, a jump read from the end, a deep jump read keys-first. The data
 * is built to break a careless keyset: duplicate sort values, NULLs (last ascending, first
 * descending), '' next to NULL, and timestamps that differ only in microseconds inside one
 * millisecond (a JavaScript Date would merge them). Run on PGlite and, with DATABASE_URL, on
 * PostgreSQL.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testBackends, type TestDatabase } from '../seed/testing.ts';
import { keysetShape, readBlock, type RowPosition } from './table-block.ts';
import { columnsFromSchema, orderBy, sortKeys, type SortKey } from '../db/table-query.ts';
import { byConfiguration, type ConfiguredTables } from '../db/configured-tables.ts';

const schema = {
  properties: {
    id: { type: 'integer' },
    marka: { type: ['string', 'null'] },
    licz: { type: ['integer', 'null'] },
    kwota: { type: ['number', 'null'] },
    dzien: { type: ['string', 'null'], format: 'date' },
    czas: { type: ['string', 'null'], format: 'date-time' },
    flaga: { type: ['boolean', 'null'] },
  },
};
const columns = columnsFromSchema(schema);
const ROWS = 53; // prime: blocks of 7 end with a partial one
const BLOCK = 7;

async function createFixture(db: Kysely<ConfiguredTables>) {
  await sql`create table kb_row (id integer primary key, marka text, licz integer, kwota numeric(12,2), dzien date, czas timestamptz, flaga boolean)`.execute(db);
  await sql`create view v_kb_row as select * from kb_row`.execute(db);
  await sql`insert into kb_row select i,
      case when i % 9 = 0 then null when i % 11 = 0 then '' else (array['Opel', 'Škoda', 'Fiat', 'audi', 'Łada'])[1 + i % 5] end,
      case when i % 7 = 0 then null else (i % 6) * 1000 end,
      case when i % 8 = 0 then null else ((i % 4) * 1250.05)::numeric(12,2) end,
      case when i % 10 = 0 then null else date '2024-02-27' + (i % 3) end,
      case when i % 6 = 0 then null else timestamptz '2024-05-24 10:00:00.123+02' + (i % 4) * interval '1 microsecond' end,
      case when i % 5 = 0 then null else i % 2 = 0 end
    from generate_series(1, ${ROWS}) as i`.execute(db);
}

const SORTS: [string, 'asc' | 'desc'][] = ['id', 'marka', 'licz', 'kwota', 'dzien', 'czas', 'flaga'].flatMap((c) => [[c, 'asc'], [c, 'desc']] as [string, 'asc' | 'desc'][]);

describe.each(testBackends)('table blocks on %s', (kind) => {
  let t: TestDatabase;
  const base = () => byConfiguration(t.db).selectFrom('v_kb_row');
  const selection = [sql.ref('id').as('id')];
  const ids = (rows: Record<string, unknown>[]) => rows.map((r) => Number(r.id));
  /** The reference: the whole order in one query. */
  const ordered = async (keys: SortKey[]) => ids(await orderBy(base().select('id'), keys).execute());
  /** The reference block: plain OFFSET/LIMIT. */
  const offsetBlock = async (keys: SortKey[], offset: number) => ids(await orderBy(base().select('id'), keys).offset(offset).limit(BLOCK).execute());

  beforeAll(async () => {
    t = await openTestDatabase({ kind, migrate: false });
    await createFixture(byConfiguration(t.db));
  }, 60_000);
  afterAll(async () => t?.close());

  it('has the traps the tests rely on: same-millisecond timestamps, duplicates and NULLs', async () => {
    const r = await sql<{ micro: number; nulls: number }>`select count(distinct czas)::int as micro, count(*) filter (where czas is null)::int as nulls from kb_row where date_trunc('milliseconds', czas) = timestamptz '2024-05-24 10:00:00.123+02'`.execute(t.db);
    expect(r.rows[0].micro).toBe(4);
    const n = await sql<{ n: number }>`select count(*)::int as n from kb_row where czas is null`.execute(t.db);
    expect(n.rows[0].n).toBeGreaterThan(0);
  });

  it.each(SORTS)('reads consecutive blocks by keyset, sorted by %s %s, exactly as OFFSET would', async (colId, sort) => {
    const keys = sortKeys(columns, [{ colId, sort }], 'id');
    const all = await ordered(keys);
    expect(all).toHaveLength(ROWS);
    let after: RowPosition | undefined;
    const seen: number[] = [];
    for (let offset = 0; offset < ROWS; offset += BLOCK) {
      const block = await readBlock({ base: base(), selection, keys, offset, limit: BLOCK, after });
      expect(block.method).toBe(offset === 0 ? 'offset' : 'keyset');
      expect(ids(block.rows)).toEqual(await offsetBlock(keys, offset));
      seen.push(...ids(block.rows));
      after = block.last;
    }
    expect(seen).toEqual(all);
  });

  it('carries timestamps to the microsecond and NULL as NULL in the position', async () => {
    const keys = sortKeys(columns, [{ colId: 'czas', sort: 'asc' }], 'id');
    const positions: (RowPosition | undefined)[] = [];
    for (let offset = 0; offset < ROWS; offset += 3) {
      positions.push((await readBlock({ base: base(), selection, keys, offset, limit: 3, after: positions.at(-1) })).last);
    }
    expect(positions.map((p) => p?.s).filter((s) => /\.12300[1-3]/.test(s ?? ''))).not.toHaveLength(0);
    expect(positions.at(-1)).toEqual({ s: null, k: expect.any(String) });
  });

  it.each(SORTS)('reads a jump into the second half from the end when the total is known (%s %s)', async (colId, sort) => {
    const keys = sortKeys(columns, [{ colId, sort }], 'id');
    for (const offset of [28, 35, 49, 52]) {
      const block = await readBlock({ base: base(), selection, keys, offset, limit: BLOCK, total: ROWS });
      expect(block.method).toBe('reverse');
      expect(ids(block.rows)).toEqual(await offsetBlock(keys, offset));
    }
  });

  it('reads a jump from the end for a multi-column order with mixed directions too', async () => {
    const keys = sortKeys(columns, [{ colId: 'licz', sort: 'desc' }, { colId: 'marka', sort: 'asc' }], 'id');
    for (const offset of [30, 46]) {
      const block = await readBlock({ base: base(), selection, keys, offset, limit: BLOCK, total: ROWS });
      expect(ids(block.rows)).toEqual(await offsetBlock(keys, offset));
    }
  });

  it.each(SORTS)('reads a deep jump keys-first, exactly as OFFSET would (%s %s)', async (colId, sort) => {
    const keys = sortKeys(columns, [{ colId, sort }], 'id');
    for (const offset of [1, 20, 46]) {
      const block = await readBlock({ base: base(), selection, keys, offset, limit: BLOCK, directOffset: 0 });
      expect(block.method).toBe('deferred');
      expect(ids(block.rows)).toEqual(await offsetBlock(keys, offset));
    }
  });

  it('keeps the WHERE of the query on every step (a filtered keyset never returns filtered-out rows)', async () => {
    const keys = sortKeys(columns, [{ colId: 'marka', sort: 'desc' }], 'id');
    const filtered = () => base().where('flaga', '=', true);
    const all = ids(await orderBy(filtered().select('id'), keys).execute());
    let after: RowPosition | undefined;
    const seen: number[] = [];
    for (let offset = 0; offset < all.length; offset += 4) {
      const block = await readBlock({ base: filtered(), selection, keys, offset, limit: 4, after });
      seen.push(...ids(block.rows));
      after = block.last;
    }
    expect(seen).toEqual(all);
  });

  it('reads an order keyset cannot continue (two columns) by OFFSET even when given a position', async () => {
    const keys = sortKeys(columns, [{ colId: 'licz', sort: 'desc' }, { colId: 'marka', sort: 'asc' }], 'id');
    expect(keysetShape(keys)).toBeUndefined();
    const block = await readBlock({ base: base(), selection, keys, offset: 14, limit: BLOCK, after: { s: 'x', k: '1' } });
    expect(block.method).toBe('offset');
    expect(block.last).toBeUndefined();
    expect(ids(block.rows)).toEqual(await offsetBlock(keys, 14));
  });
});

describe('order keys', () => {
  it('let the key follow the direction of the last sort column, so one index serves both directions', () => {
    expect(sortKeys(columns, [{ colId: 'marka', sort: 'desc' }], 'id')).toEqual([{ name: 'marka', dir: 'desc' }, { name: 'id', dir: 'desc' }]);
    expect(sortKeys(columns, [{ colId: 'licz', sort: 'desc' }, { colId: 'marka', sort: 'asc' }], 'id').at(-1)).toEqual({ name: 'id', dir: 'asc' });
    expect(sortKeys(columns, [], 'id')).toEqual([{ name: 'id', dir: 'asc' }]);
  });
});
