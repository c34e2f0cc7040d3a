/**
 * An import's records as trail entries (trail.ts): each field that differs, before and after; and
 * a write's records handed to the trail a chunk at a time from the database's side, so a run of a
 * million readings never holds them all (it took 1.9 GB above the server's idle size, and before
 * that failed with "Maximum call stack size exceeded" on push(...records)).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ImportDecl } from '../config/import-declaration.ts';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';
import { withImportSession } from './session.ts';
import { verifyChain } from '../audit/verify.ts';
import type { ReturnedRow } from './trail-entries.ts';
import { openTrailThread, type TrailMaker } from './trail-thread.ts';
import { recordTrail, trailReturning, type TrailTarget } from './trail.ts';

const decl = { import: 'probe', trail: { resource: 'probe' }, id: 'id', key: ['code'] } as unknown as ImportDecl;

describe('an import run\'s trail records', () => {
  it('stops a trail thread whose chunk outgrows its heap\'s cap, and answers the write with the failure', async () => {
    // a pool of kept threads of its own (the entry's address names it), with a small cap
    const entry = new URL('./trail-worker-from-sources.mjs?capped', import.meta.url);
    const author = { kind: 'system', job: 'import' } as const;
    const chunk = (rows: ReturnedRow[]) => ({ head: { seq: 0, hash: '0'.repeat(64) }, author, resource: 'probe', action: 'create' as const, copy: true, rows });
    const row = (n: number, bytes: number): ReturnedRow => ({ _trailKey: String(n), _trailBefore: '{}', _trailAfter: JSON.stringify({ uwagi: `${n}`.padEnd(bytes, 'x') }) });
    // the same cap makes an ordinary chunk
    const ordinary = openTrailThread(entry, 96);
    expect((await ordinary.make(chunk(Array.from({ length: 2000 }, (_, n) => row(n, 200))))).count).toBe(2000);
    await ordinary.close();
    // 2,000 rows of 100 KB: their entries are some 400 MB of strings made on the thread
    const runaway = openTrailThread(entry, 96);
    await expect(runaway.make(chunk(Array.from({ length: 2000 }, (_, n) => row(n, 100_000))))).rejects.toThrow(/memory/i);
    await runaway.close();
  }, 60_000);

  describe('on a database', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase();
    });
    afterAll(async () => database?.close());

    it('runs the write once and chains its records\' entries a chunk at a time in the write\'s order, on the trail thread when there is more than one chunk', async () => {
      const author = { kind: 'system', job: 'import', label: 'Anna Nowak · probe.csv', session: 'import-1' } as const;
      // each chunk the trail thread was asked to make, by its rows' keys
      const madeOnThread: string[][] = [];
      const spiedThread = (): TrailMaker => {
        const thread = openTrailThread();
        return { make: (chunk) => (madeOnThread.push(chunk.rows.map((r) => r._trailKey)), thread.make(chunk)), close: () => thread.close() };
      };
      await withImportSession(database.db, async (session) => {
        await session.query('create table probe (id serial primary key, code text, licznik integer)');
        await session.query('begin');
        const target: TrailTarget = { author, append: (table, columns, copyText, values) => session.stage(table, columns, copyText, values), copy: session.kind === 'postgres' };
        const trail = recordTrail((text, values) => session.query(text, values), target, 3, spiedThread);
        const written = await trail.write(decl, 'create', `insert into probe as t (code, licznik)
          select 'K' || g, g * 100 from generate_series(1, 7) g returning ${trailReturning(decl, 't', null, ['code', 'licznik'])}`);
        expect(written).toBe(7);
        expect(madeOnThread).toEqual([['1', '2', '3'], ['4', '5', '6'], ['7']]);
        // an update of one chunk is made here: before and after of the rows it changed, none of the rest
        const changed = await trail.write(decl, 'update', `update probe t set licznik = t.licznik + 1 from probe o
          where o.id = t.id and t.id <= 2 returning ${trailReturning(decl, 't', 'o', ['licznik'])}`);
        expect(changed).toBe(2);
        expect(madeOnThread).toHaveLength(3);
        await session.query('commit');
        // without a target the write runs alone
        expect(await recordTrail((text, values) => session.query(text, values)).write(decl, 'create', `insert into probe (code) values ('X') returning ${trailReturning(decl, 'probe', null, ['code'])}`)).toBe(1);
        expect((await session.query<{ n: string }>('select count(*)::text as n from probe')).rows[0].n).toBe('8');
      });
      const entries = await database.db.selectFrom('audit_entry').select(['recordKey', 'action', 'changes', 'actorLabel', 'session']).where('resource', '=', 'probe').orderBy('seq').execute();
      expect(entries.map((e) => [e.recordKey, e.action, typeof e.changes === 'string' ? JSON.parse(e.changes) : e.changes])).toEqual([
        ...[1, 2, 3, 4, 5, 6, 7].map((n) => [String(n), 'create', { code: [null, `K${n}`], licznik: [null, n * 100] }]),
        ['1', 'update', { licznik: [100, 101] }], ['2', 'update', { licznik: [200, 201] }],
      ]);
      expect(new Set(entries.map((e) => `${e.actorLabel} ${e.session}`))).toEqual(new Set(['Anna Nowak · probe.csv import-1']));
      // one chain, its head at the last entry
      expect(await verifyChain(database.db)).toMatchObject({ ok: true });
    });

    it('writes nothing of a write whose trail thread fails, and leaves the chain as it was', async () => {
      const failing = (): TrailMaker => ({ make: async () => { throw new Error('the thread broke'); }, close: async () => undefined });
      const before = await database.db.selectFrom('audit_head').select(['seq', 'hash']).executeTakeFirstOrThrow();
      await withImportSession(database.db, async (session) => {
        await session.query('create table probe2 (id serial primary key, code text)');
        await session.query('begin');
        const target: TrailTarget = { author: { kind: 'system', job: 'import' }, append: (table, columns, copyText, values) => session.stage(table, columns, copyText, values), copy: session.kind === 'postgres' };
        await expect(recordTrail((text, values) => session.query(text, values), target, 2, failing)
          .write(decl, 'create', `insert into probe2 as t (code) select 'K' || g from generate_series(1, 5) g returning ${trailReturning(decl, 't', null, ['code'])}`))
          .rejects.toThrow('the thread broke');
        await session.query('rollback');
      });
      expect(await database.db.selectFrom('audit_head').select(['seq', 'hash']).executeTakeFirstOrThrow()).toEqual(before);
    });
  });
});
