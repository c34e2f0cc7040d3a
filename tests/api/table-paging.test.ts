/**
 * Paging a table resource through the API the way the runtime does: every block after the first
 * carries the cursor the server answered for the block before it (keyset), a jump carries the
 * first block's cursor (the count it holds lets the server read from the end). The rows must be
 * exactly those of plain OFFSET paging; a cursor of another query or caller changes nothing; a
 * forged one is refused; counts beyond the configured cap are estimates.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.ts';

const BLOCK = 13;

describe('table paging with cursors', () => {
  let t: TestApp;
  let admin: string;
  let manager: string;
  let manager2: string;

  const table2 = async (token: string, body: Record<string, unknown>) => {
    const res = await t.call('POST', '/api/order/table2', { token, body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { rows: { autId: number; klientSymbol: string }[]; lastRow: number; cursor?: string; count?: number; estimated?: boolean };
  };
  const ids = (rows: { autId: number }[]) => rows.map((r) => r.autId);

  /** All rows block by block, each block with the previous block's cursor. */
  async function byCursor(token: string, query: Record<string, unknown>) {
    const blocks: number[][] = [];
    let cursor: string | undefined;
    for (let start = 0; ; start += BLOCK) {
      const page = await table2(token, { ...query, startRow: start, endRow: start + BLOCK, ...(cursor ? { cursor } : {}) });
      blocks.push(ids(page.rows));
      if (page.rows.length < BLOCK) return blocks;
      expect(page.cursor).toEqual(expect.any(String));
      cursor = page.cursor;
    }
  }
  /** The same blocks by plain OFFSET (no cursor). */
  async function byOffset(token: string, query: Record<string, unknown>, count: number) {
    const blocks: number[][] = [];
    for (let start = 0; start < count; start += BLOCK) blocks.push(ids((await table2(token, { ...query, startRow: start, endRow: start + BLOCK })).rows));
    return blocks;
  }

  beforeAll(async () => {
    t = await startTestApp();
    [admin, manager, manager2] = await Promise.all([t.signIn('admin'), t.signIn('manager'), t.signIn('manager2')]);
  }, 60_000);
  afterAll(async () => t?.close());

  it.each([
    ['the default order (zgloData desc)', {}],
    ['rejestr ascending', { sortModel: [{ colId: 'rejestr', sort: 'asc' }] }],
    ['rejestr descending', { sortModel: [{ colId: 'rejestr', sort: 'desc' }] }],
    ['repair date (mostly empty) ascending, filtered by status', { sortModel: [{ colId: 'terminNapr', sort: 'asc' }], filterModel: { status: { filterType: 'set', values: [0, 4, 5, 6] } } }],
    ['two columns (read by OFFSET)', { sortModel: [{ colId: 'status', sort: 'asc' }, { colId: 'rejestr', sort: 'desc' }] }],
  ])('gives a manager, block by block with cursors, exactly the OFFSET blocks: %s', async (_name, query) => {
    const blocks = await byCursor(manager, query);
    const rows = blocks.flat();
    expect(rows.length).toBeGreaterThan(2 * BLOCK);
    expect(new Set(rows).size).toBe(rows.length);
    expect(blocks).toEqual(await byOffset(manager, query, rows.length + 1));
  });

  it('answers the count with the first block and reads a jump to the end from the end', async () => {
    const query = { sortModel: [{ colId: 'rejestr', sort: 'asc' }] };
    const first = await table2(manager, { ...query, startRow: 0, endRow: BLOCK });
    expect(first).toMatchObject({ count: first.lastRow, estimated: false });
    const lastStart = Math.floor((first.lastRow - 1) / BLOCK) * BLOCK;
    const jump = await table2(manager, { ...query, startRow: lastStart, endRow: lastStart + BLOCK, cursor: first.cursor });
    const plain = await table2(manager, { ...query, startRow: lastStart, endRow: lastStart + BLOCK });
    expect(ids(jump.rows)).toEqual(ids(plain.rows));
    expect(jump.lastRow).toBe(first.lastRow);
  });

  it('ignores a cursor of another sort, and a cursor another caller was given never shows rows outside the caller’s scope', async () => {
    const byPlate = { sortModel: [{ colId: 'rejestr', sort: 'asc' }] };
    const otherSort = await table2(manager, { sortModel: [{ colId: 'rejestr', sort: 'desc' }], startRow: 0, endRow: BLOCK });
    const withOther = await table2(manager, { ...byPlate, startRow: BLOCK, endRow: 2 * BLOCK, cursor: otherSort.cursor });
    expect(ids(withOther.rows)).toEqual(ids((await table2(manager, { ...byPlate, startRow: BLOCK, endRow: 2 * BLOCK })).rows));

    const adminFirst = await table2(admin, { ...byPlate, startRow: 0, endRow: BLOCK });
    const borrowed = await table2(manager2, { ...byPlate, startRow: BLOCK, endRow: 2 * BLOCK, cursor: adminFirst.cursor });
    expect(borrowed.rows.every((r) => r.klientSymbol === 'KL002')).toBe(true);
    expect(ids(borrowed.rows)).toEqual(ids((await table2(manager2, { ...byPlate, startRow: BLOCK, endRow: 2 * BLOCK })).rows));
  });

  it('refuses a forged or altered cursor with a 400 that names the cursor', async () => {
    const first = await table2(manager, { startRow: 0, endRow: BLOCK });
    const [body, signature] = first.cursor!.split('.');
    const payload = JSON.parse(Buffer.from(body, 'base64url').toString());
    const altered = `${Buffer.from(JSON.stringify({ ...payload, p: 0, k: '1' })).toString('base64url')}.${signature}`;
    for (const cursor of [altered, 'abc.def', `${body}.${'A'.repeat(22)}`]) {
      const res = await t.call('POST', '/api/order/table2', { token: manager, body: { startRow: BLOCK, endRow: 2 * BLOCK, cursor } });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'badCursor', errors: [{ field: 'cursor', message: 'Niepoprawna pozycja w tabeli. Odśwież tabelę i spróbuj ponownie.' }] });
    }
  });

  it('counts exactly up to the configured cap and estimates beyond it; the grid then grows as it scrolls', async () => {
    const app = t.app.config.bundle.app;
    const saved = app.tables;
    app.tables = { countCap: 40 };
    try {
      const exact = (await t.call('POST', '/api/order/table-count', { token: manager, body: { startRow: 0, endRow: 30, filterModel: { status: { filterType: 'set', values: [4] } } } })).json();
      expect(exact.estimated).toBe(false);
      expect(exact.count).toBeLessThanOrEqual(40);
      const estimate = (await t.call('POST', '/api/order/table-count', { token: admin, body: { startRow: 0, endRow: 30 } })).json();
      expect(estimate).toEqual({ count: expect.any(Number), estimated: true });
      expect(estimate.count).toBeGreaterThan(40);
      const first = await table2(admin, { startRow: 0, endRow: BLOCK });
      expect(first).toMatchObject({ lastRow: -1, estimated: true });
      const second = await table2(admin, { startRow: BLOCK, endRow: 2 * BLOCK, cursor: first.cursor });
      expect(second.lastRow).toBe(-1);
      expect(ids(second.rows)).toEqual(ids((await table2(admin, { startRow: BLOCK, endRow: 2 * BLOCK })).rows));
    } finally {
      app.tables = saved;
    }
  });
});
