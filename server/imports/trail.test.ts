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
import { recordTrail, recordWrites, trailReturning, type RecordWrite, type ReturnedRow } from './trail.ts';

const decl = { import: 'probe', trail: { resource: 'probe' }, id: 'id', key: ['code'] } as unknown as ImportDecl;

describe('an import run\'s trail records', () => {
  it('keeps the fields that differ, a new record\'s given fields, and skips a row that changed nothing', () => {
    const rows: ReturnedRow[] = [
      { _trailKey: '1', _trailBefore: { licznik: 1000, data: '2025-01-01' }, _trailAfter: { licznik: 1200, data: '2025-01-01' } },
      { _trailKey: '2', _trailBefore: { licznik: 5 }, _trailAfter: { licznik: 5 } },
    ];
    expect(recordWrites(decl, 'update', rows)).toEqual([{ resource: 'probe', key: '1', action: 'update', changes: { licznik: [1000, 1200] } }]);
    expect(recordWrites(decl, 'create', [{ _trailKey: '3', _trailBefore: '{}', _trailAfter: '{"licznik": 7, "uwagi": null}' }]))
      .toEqual([{ resource: 'probe', key: '3', action: 'create', changes: { licznik: [null, 7] } }]);
  });

  describe('on a database', () => {
    let database: TestDatabase;
    beforeAll(async () => {
      database = await openTestDatabase({ migrate: false });
    });
    afterAll(async () => database?.close());

    it('runs the write once and hands its records to the trail a chunk at a time, in the write\'s order, answering how many it wrote', async () => {
      await withImportSession(database.db, async (session) => {
        await session.query('create table probe (id serial primary key, code text, licznik integer)');
        await session.query('begin');
        const chunks: RecordWrite[][] = [];
        const trail = recordTrail((text, values) => session.query(text, values), async (writes) => void chunks.push(writes), 3);
        const written = await trail.write(decl, 'create', `insert into probe as t (code, licznik)
          select 'K' || g, g * 100 from generate_series(1, 7) g returning ${trailReturning(decl, 't', null, ['code', 'licznik'])}`);
        expect(written).toBe(7);
        expect(chunks.map((c) => c.length)).toEqual([3, 3, 1]);
        expect(chunks.flat().map((w) => w.changes.licznik)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => [null, n * 100]));
        // an update: before and after of the rows it changed, none of the rest
        const changed = await trail.write(decl, 'update', `update probe t set licznik = t.licznik + 1 from probe o
          where o.id = t.id and t.id <= 2 returning ${trailReturning(decl, 't', 'o', ['licznik'])}`);
        expect(changed).toBe(2);
        expect(chunks.slice(3).flat()).toEqual([
          { resource: 'probe', key: '1', action: 'update', changes: { licznik: [100, 101] } },
          { resource: 'probe', key: '2', action: 'update', changes: { licznik: [200, 201] } },
        ]);
        await session.query('commit');
        // without a trail the write runs alone
        expect(await recordTrail((text, values) => session.query(text, values)).write(decl, 'create', `insert into probe (code) values ('X') returning ${trailReturning(decl, 'probe', null, ['code'])}`)).toBe(1);
        expect((await session.query<{ n: string }>('select count(*)::text as n from probe')).rows[0].n).toBe('8');
      });
    });
  });
});
