import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, observeQueries, openDatabase, poolStatsOf, rawSqlOf } from './connect.ts';
import { openTestDatabase, testBackends, uniqueSchemaName, type TestDatabase } from '../seed/testing.ts';
import { jsonb } from './value-types.ts';

/** Tables these tests create for themselves, outside the portal's schema. */
interface ProbeTables {
  affected_probe: { id: number; v: string | null };
  tx_probe: { v: string | null };
}

describe.each(testBackends)('openDatabase on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => { t = await openTestDatabase({ kind }); }, 60_000);
  afterAll(async () => { await t?.close(); });

  it('reports its kind', () => {
    expect(t.kind).toBe(kind);
  });

  it('returns the same JS value types on every backend', async () => {
    const { rows: [row] } = await sql<any>`
      select date '2025-03-30' as d, timestamptz '2025-03-30 12:00:00+02' as ts, 1234.5::numeric(12,2) as money,
             (select count(*) from generate_series(1, 3)) as n, '\\x0102ff'::bytea as bin,
             '{"a": [1, "b"]}'::jsonb as j, true as flag`.execute(t.db);
    expect(row.d).toBe('2025-03-30');
    expect(row.ts).toBeInstanceOf(Date);
    expect((row.ts as Date).toISOString()).toBe('2025-03-30T10:00:00.000Z');
    expect(row.money).toBe(1234.5);
    expect(row.n).toBe(3);
    expect(Buffer.isBuffer(row.bin)).toBe(true);
    expect([...row.bin]).toEqual([1, 2, 255]);
    expect(row.j).toEqual({ a: [1, 'b'] });
    expect(row.flag).toBe(true);
  });

  it('works in the Polish time zone, so a late-evening UTC instant is already the next Polish day', async () => {
    const { rows: [row] } = await sql<any>`
      select current_setting('TimeZone') as tz, (timestamptz '2025-06-30 22:30:00Z')::date as day`.execute(t.db);
    expect(row).toEqual({ tz: 'Europe/Warsaw', day: '2025-07-01' });
  });

  it('reports affected row counts of writes', async () => {
    await sql`create table affected_probe (id integer primary key, v text)`.execute(t.db);
    const probes = t.db as unknown as Kysely<ProbeTables>;
    await probes.insertInto('affected_probe').values([{ id: 1, v: 'a' }, { id: 2, v: 'b' }, { id: 3, v: 'c' }]).execute();
    const updated = await probes.updateTable('affected_probe').set({ v: 'x' }).where('id', '>', 1).executeTakeFirst();
    expect(updated.numUpdatedRows).toBe(2n);
    const deleted = await probes.deleteFrom('affected_probe').where('id', '=', 1).executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(1n);
  });

  it('writes jsonb objects and arrays through jsonb()', async () => {
    const user = await t.db.insertInto('app_user').values({ login: 'j', rola: 'ADMIN', firstName: 'J', lastName: 'K' })
      .returning('id').executeTakeFirstOrThrow();
    const view = await t.db.insertInto('user_table_view')
      .values({ userId: user.id, tablename: 'ORDER_TABLE', name: 'Mój widok', columnOrder: jsonb(['autNr', 'rejestr']) })
      .returning('columnOrder').executeTakeFirstOrThrow();
    expect(view.columnOrder).toEqual(['autNr', 'rejestr']);
  });

  it('keeps a concurrent write out of a transaction that is rolled back', async () => {
    await sql`create table tx_probe (v text)`.execute(t.db);
    const probes = t.db as unknown as Kysely<ProbeTables>;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const tx = probes.transaction().execute(async (trx) => {
      await trx.insertInto('tx_probe').values({ v: 'inside' }).execute();
      await gate;
      throw new Error('rollback');
    });
    // Issued while the transaction is open: must neither join it nor be lost with it.
    const outside = probes.insertInto('tx_probe').values({ v: 'outside' }).execute();
    await new Promise((r) => setTimeout(r, 50));
    release();
    await expect(tx).rejects.toThrow('rollback');
    await outside;
    const rows = await probes.selectFrom('tx_probe').select('v').execute();
    expect(rows).toEqual([{ v: 'outside' }]);
  });
});

describe.each(testBackends)('connections and query times on %s, for the metrics', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => { t = await openTestDatabase({ kind }); }, 60_000);
  afterAll(async () => { await t?.close(); });

  it('counts the connections in use, idle and the callers waiting for one', async () => {
    const before = poolStatsOf(t.db)!;
    if (kind === 'pglite') expect(before.max).toBe(1);
    expect(before.inUse).toBe(0);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inside!: () => void;
    const entered = new Promise<void>((resolve) => (inside = resolve));
    // every connection held by an open transaction: the next callers wait
    const transactions = Array.from({ length: before.max }, () => t.db.transaction().execute(async (trx) => {
      await sql`select 1`.execute(trx);
      inside();
      await held;
    }));
    await entered;
    while (poolStatsOf(t.db)!.inUse < before.max) await new Promise((r) => setTimeout(r, 10));
    const waiters = [sql`select 1`.execute(t.db), sql`select 2`.execute(t.db)];
    while (poolStatsOf(t.db)!.waiting < 2) await new Promise((r) => setTimeout(r, 10));
    expect(poolStatsOf(t.db)).toEqual({ inUse: before.max, idle: 0, waiting: 2, max: before.max });
    release();
    await Promise.all([...transactions, ...waiters]);
    expect(poolStatsOf(t.db)).toMatchObject({ inUse: 0, waiting: 0 });
  });

  it('answers a script of several statements with the rows of every statement, in order (pg-boss looks for its lock\'s row among them)', async () => {
    const raw = rawSqlOf(t.db)!;
    const { rows } = await raw(`begin; select 1 as first; select 'b' as second union all select 'c'; commit`);
    expect(rows).toEqual([{ first: 1 }, { second: 'b' }, { second: 'c' }]);
    expect((await raw('select $1::int as one', [1])).rows).toEqual([{ one: 1 }]);
  });

  it('tells the query observers each query\'s time and whether it failed', async () => {
    const seen: [number, boolean][] = [];
    const stop = observeQueries(t.db, (ms, failed) => seen.push([ms, failed]));
    await sql`select pg_sleep(0.05)`.execute(t.db);
    await expect(sql`select * from no_such_table`.execute(t.db)).rejects.toThrow();
    stop();
    await sql`select 1`.execute(t.db);
    expect(seen.map(([, failed]) => failed)).toEqual([false, true]);
    expect(seen[0][0]).toBeGreaterThanOrEqual(45);
  });
});

describe('PGlite in a data folder', () => {
  let dir: string;
  beforeAll(async () => { dir = await mkdtemp(path.join(tmpdir(), 'fleet-pglite-')); });
  afterAll(async () => { await rm(dir, { recursive: true, force: true }); });

  it('creates the folder and keeps the data across restarts', async () => {
    const dataDir = path.join(dir, 'nested', 'data');
    const first = await openDatabase({ dataDir });
    await sql`create table kept (v text)`.execute(first.db);
    await sql`insert into kept values ('zażółć')`.execute(first.db);
    await first.close();

    const second = await openDatabase({ dataDir });
    try {
      expect(second.kind).toBe('pglite');
      const { rows } = await sql<{ v: string }>`select v from kept`.execute(second.db);
      expect(rows).toEqual([{ v: 'zażółć' }]);
    } finally {
      await second.close();
    }
  }, 60_000);
});

describe.runIf(process.env.DATABASE_URL)('PostgreSQL schemas', () => {
  const databaseUrl = process.env.DATABASE_URL!;

  it('isolates schemas and applies the search_path to every pooled connection', async () => {
    const [a, b] = [uniqueSchemaName('iso'), uniqueSchemaName('iso')];
    const dbA = await openDatabase({ databaseUrl, schema: a, maxConnections: 5 });
    const dbB = await openDatabase({ databaseUrl, schema: b });
    try {
      await sql`create table only_in_a (v integer)`.execute(dbA.db);
      // Many concurrent queries force the pool to open several connections.
      const paths = await Promise.all(Array.from({ length: 10 }, () =>
        sql<{ p: string }>`select current_schema() as p, pg_sleep(0.02)`.execute(dbA.db).then((r) => r.rows[0].p)));
      expect(new Set(paths)).toEqual(new Set([a]));
      await expect(sql`select * from only_in_a`.execute(dbB.db)).rejects.toThrow(/does not exist/);
    } finally {
      await dbA.close();
      await dbB.close();
      await dropSchema({ databaseUrl, schema: a });
      await dropSchema({ databaseUrl, schema: b });
    }
    const probe = await openDatabase({ databaseUrl });
    try {
      const { rows } = await sql<{ n: number }>`select count(*) as n from information_schema.schemata where schema_name in (${a}, ${b})`.execute(probe.db);
      expect(rows[0].n).toBe(0);
    } finally {
      await probe.close();
    }
  }, 30_000);

  it('opens on a new schema from several processes starting at once (CREATE SCHEMA IF NOT EXISTS races)', async () => {
    // processes behind a proxy start together on a fresh schema: each creates it if it is missing
    for (let round = 0; round < 5; round++) {
      const schema = uniqueSchemaName('race');
      const opened = await Promise.allSettled(Array.from({ length: 6 }, () => openDatabase({ databaseUrl, schema, maxConnections: 1 })));
      try {
        expect(opened.filter((o) => o.status === 'rejected').map((o) => String((o as PromiseRejectedResult).reason))).toEqual([]);
      } finally {
        for (const o of opened) if (o.status === 'fulfilled') await o.value.close();
        await dropSchema({ databaseUrl, schema });
      }
    }
  }, 60_000);

  it('refuses to drop public or an invalid schema name', async () => {
    await expect(dropSchema({ databaseUrl, schema: 'public' })).rejects.toThrow(/Refusing/);
    await expect(dropSchema({ databaseUrl, schema: 'x; drop table y' })).rejects.toThrow(/Invalid schema name/);
  });
});

