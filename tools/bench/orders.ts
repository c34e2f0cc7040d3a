/**
 * The orders list (v_order, a million rows at bench size), as ADMIN (every row) and as a MANAGER
 * (one client's third), sorted by a text column (rejestr), with and without a status filter:
 * the first block, a block in the middle reached by scrolling (keyset: the block before it is
 * known) and by a cold jump (the scrollbar dragged there), the last block, and the counts.
 */
import type { Api } from './http.ts';
import type { Measurement } from './measure.ts';

const BLOCK = 30;
const SORT = [{ colId: 'rejestr', sort: 'asc' }];
/** Orders that need someone's action: waiting for the manager, being modified, to be clarified. */
const STATUS_FILTER = { status: { filterType: 'set', values: [1, 9, 10] } };
const BLOCK_TARGET = { p95Ms: 30, maxRatio: 2 };
const COUNT_TARGET = { p95Ms: 100, maxRatio: 2 };

interface Page {
  rows: unknown[];
  lastRow: number;
  cursor?: string;
  count?: number;
  estimated?: boolean;
}

const fullBlock = (page: Page) => {
  if (page.rows.length !== BLOCK) throw new Error(`expected a block of ${BLOCK} rows, got ${page.rows.length}`);
};

export async function orderMeasurements(api: Api, callers: { label: string; token: string }[]): Promise<Measurement[]> {
  const out: Measurement[] = [];
  const table2 = (token: string, body: Record<string, unknown>) => api.post<Page>('/order/table2', body, token);

  for (const { label, token } of callers) {
    for (const [filterLabel, filterModel] of [['status 1, 9, 10', STATUS_FILTER], ['no filter', {}]] as const) {
      const query = { sortModel: SORT, filterModel };
      const section = `Orders by rejestr, ${label}, ${filterLabel}`;
      const first = await table2(token, { ...query, startRow: 0, endRow: BLOCK });
      const total = first.count ?? first.lastRow;
      const countText = `${first.estimated ? '≈' : ''}${total.toLocaleString('en-US')} rows${first.estimated ? ' (estimated)' : ''}`;
      const mid = Math.floor(total / 2 / BLOCK) * BLOCK;
      let cursor: string | undefined;

      out.push({
        section, name: `first block, with the count (${countText})`, target: BLOCK_TARGET,
        call: () => table2(token, { ...query, startRow: 0, endRow: BLOCK }), check: fullBlock,
        whenMissed: 'The first block of a query also counts it, beside its rows: up to the count cap (tables.countCap) entries of an index, so its time grows with the number of matching rows up to the cap, and a busy machine stretches its p95 first.',
      });
      out.push({
        section, name: `block at row ${mid.toLocaleString('en-US')}, scrolled to (keyset)`, target: BLOCK_TARGET,
        async setup() {
          cursor = (await table2(token, { ...query, startRow: mid - BLOCK, endRow: mid })).cursor;
          if (!cursor) throw new Error('no cursor for the block before the middle');
        },
        call: () => table2(token, { ...query, startRow: mid, endRow: mid + BLOCK, cursor }), check: fullBlock,
      });
      out.push({
        section, name: `block at row ${mid.toLocaleString('en-US')}, cold jump (keys by OFFSET, then rows)`, target: BLOCK_TARGET,
        call: () => table2(token, { ...query, startRow: mid, endRow: mid + BLOCK }), check: fullBlock,
        whenMissed: 'A cold jump has no predecessor, so the skipped rows are still counted one by one — in the index only (an index-only scan; the status filter is evaluated in the index through its INCLUDE column), but the cost grows with the depth. It happens only when the scrollbar is dragged; scrolling reads by keyset.',
      });
      if (!first.estimated) {
        const lastStart = Math.floor((total - 1) / BLOCK) * BLOCK;
        out.push({
          section, name: `last block (row ${lastStart.toLocaleString('en-US')}), jump with the count known: read from the end`, target: BLOCK_TARGET,
          call: () => table2(token, { ...query, startRow: lastStart, endRow: lastStart + BLOCK, cursor: first.cursor }),
          check: (page: Page) => {
            if (page.rows.length === 0) throw new Error('empty last block');
          },
        });
      }
      out.push({
        section, name: 'count (table-count)', target: COUNT_TARGET,
        call: () => api.post('/order/table-count', { startRow: 0, endRow: BLOCK, filterModel }, token),
      });
    }
  }
  return out;
}
