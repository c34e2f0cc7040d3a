/**
 * The export's block loop: it walks the table in blocks of MAX_BLOCK, hands each block the cursor
 * of the one before (keyset), carries on by OFFSET when the order gives no cursor, and stops at
 * the limit or the end. The table queries are replaced by an in-memory list here, because the
 * demo database has fewer rows than one block; table-block.test.ts covers the real reads.
 */
import { describe, expect, it } from 'vitest';
import type { Session } from '../auth/sessions.ts';
import { exportBlocks } from './excel-routes.ts';
import { MAX_BLOCK, type TablePage } from './table-queries.ts';

const session = { userId: 1, role: 'ADMIN' } as Session;

function listOf(total: number, withCursors: boolean) {
  const calls: { startRow: number; endRow: number; cursor?: string }[] = [];
  const queries = {
    async page(_name: string, _s: Session, params: { startRow: number; endRow: number; cursor?: string }): Promise<TablePage> {
      calls.push({ startRow: params.startRow, endRow: params.endRow, cursor: params.cursor });
      const rows = [];
      for (let i = params.startRow; i < Math.min(params.endRow, total); i++) rows.push({ id: i });
      const more = rows.length === params.endRow - params.startRow;
      return { rows, lastRow: -1, ...(withCursors && more ? { cursor: `after-${params.endRow}` } : {}) };
    },
  };
  return { queries: queries as any, calls };
}

async function collect(queries: any, endRow: number, max: number) {
  const ids: number[] = [];
  for await (const block of exportBlocks(queries, 'order', session, { endRow } as any, max)) ids.push(...block.map((r) => r.id as number));
  return ids;
}

describe('exportBlocks', () => {
  it('chains each block to the cursor of the one before', async () => {
    const { queries, calls } = listOf(2 * MAX_BLOCK + 5, true);
    const ids = await collect(queries, 20_000, 20_000);
    expect(ids).toEqual(Array.from({ length: 2 * MAX_BLOCK + 5 }, (_, i) => i));
    expect(calls.map((c) => c.cursor)).toEqual([undefined, `after-${MAX_BLOCK}`, `after-${2 * MAX_BLOCK}`]);
  });

  it('goes on by OFFSET when the order gives no cursor', async () => {
    const { queries, calls } = listOf(MAX_BLOCK + 3, false);
    expect(await collect(queries, 20_000, 20_000)).toHaveLength(MAX_BLOCK + 3);
    expect(calls.map((c) => [c.startRow, c.cursor])).toEqual([[0, undefined], [MAX_BLOCK, undefined]]);
  });

  it('never reads more than the limit, nor past endRow', async () => {
    const { queries } = listOf(5 * MAX_BLOCK, true);
    expect(await collect(queries, 20_000, MAX_BLOCK + 10)).toHaveLength(MAX_BLOCK + 10);
    expect(await collect(queries, 50, 20_000)).toHaveLength(50);
  });
});
