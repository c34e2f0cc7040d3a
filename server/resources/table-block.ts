/**
 * Reads one block of a table (DESIGN.md §3, "deep blocks stay fast"). The caller supplies the
 * query with the caller's scope and filter already in its WHERE; this module only chooses how to
 * reach the block, and every way returns exactly the rows `ORDER BY … OFFSET start LIMIT n` would:
 *
 * - **keyset** — the normal case while scrolling: the previous block's cursor says where it
 *   ended, so the block is `WHERE (col, key) > (last col, last key) ORDER BY col, key LIMIT n`,
 *   an index range scan that costs the same at row 30 and at row 500 000. Only for an order of one
 *   column + key (or the key alone), both in one direction; NULLs (last ascending, first
 *   descending) are a second, equally indexed step when the block crosses into or out of them.
 * - **reverse** — a jump into the second half of a query whose exact row count is known: read the
 *   same order backwards with the small OFFSET from the end, then turn the rows around.
 * - **deferred** — a cold jump deeper than a few pages: first the block's keys alone
 *   (`SELECT key … ORDER BY … OFFSET x LIMIT n`, which an index-only scan answers without
 *   touching the table), then the n rows by key. The skipped rows are still counted one by one,
 *   but only in the index.
 * - **offset** — the first pages, and any order keyset cannot continue.
 */
import { sql, type SelectExpression } from 'kysely';
import type { ConfiguredSelect, ConfiguredTables } from '../db/configured-tables.ts';
import { asText } from './table-cursor.ts';
import { orderBy, sortTerm, type SortKey } from '../db/table-query.ts';

type Query = ConfiguredSelect;

/** Up to this OFFSET the rows are read directly; deeper, keys first (see `deferred`). */
export const DIRECT_OFFSET = 1000;

export type ReadMethod = 'offset' | 'keyset' | 'reverse' | 'deferred';

/** Text forms of the order's values at a block's last row (what a cursor carries). */
export interface RowPosition {
  s?: string | null;
  k: string;
}

export interface BlockRequest {
  /** FROM the view, WHERE scope and filter; nothing selected, no order. */
  base: Query;
  /** The visible columns. */
  selection: readonly SelectExpression<ConfiguredTables, string>[];
  /** The full order, key last (`sortKeys`). */
  keys: readonly SortKey[];
  offset: number;
  limit: number;
  /** Where the previous block ended, when a fitting cursor says so. */
  after?: RowPosition;
  /** The query's exact row count, when a fitting cursor carries it. */
  total?: number;
  /** Deepest OFFSET read directly (default DIRECT_OFFSET); tests lower it to reach the deferred read on small data. */
  directOffset?: number;
}

export interface Block {
  rows: Record<string, unknown>[];
  /** The last row's position values, when the order allows keyset reading and a row was read. */
  last?: RowPosition;
  method: ReadMethod;
}

/** The order keyset can continue: the key alone, or one column + the key in the same direction. */
export function keysetShape(keys: readonly SortKey[]): { sort?: SortKey; key: SortKey } | undefined {
  if (keys.length === 1) return { key: keys[0] };
  if (keys.length === 2 && keys[0].dir === keys[1].dir) return { sort: keys[0], key: keys[1] };
  return undefined;
}

const SORT_VALUE = '$s';
const KEY_VALUE = '$k';

export async function readBlock(req: BlockRequest): Promise<Block> {
  const { base, keys, offset, limit } = req;
  const direct = req.directOffset ?? DIRECT_OFFSET;
  const shape = keysetShape(keys);
  // Entity properties are plain identifiers, so `$s`/`$k` cannot collide with a column.
  const positionColumns = shape ? [asText(sortTerm(shape.key)).as(KEY_VALUE), ...(shape.sort ? [asText(sortTerm(shape.sort)).as(SORT_VALUE)] : [])] : [];
  const rowsOf = (q: Query) => q.select([...req.selection, ...positionColumns]);

  let method: ReadMethod;
  let raw: Record<string, unknown>[];
  if (offset > 0 && req.after && shape && (shape.sort ? req.after.s !== undefined : true)) {
    method = 'keyset';
    raw = await keyset(base, rowsOf, shape, req.after, limit);
  } else if (offset > 0 && req.total !== undefined && offset > req.total / 2) {
    method = 'reverse';
    const end = Math.min(offset + limit, req.total);
    raw = end <= offset ? [] : (await skipRead(base, rowsOf, keys, req.total - end, end - offset, true, direct)).reverse();
  } else {
    method = offset > direct ? 'deferred' : 'offset';
    raw = await skipRead(base, rowsOf, keys, offset, limit, false, direct);
  }

  const lastRaw = raw.at(-1);
  const last = shape && lastRaw ? { k: String(lastRaw[KEY_VALUE]), ...(shape.sort ? { s: (lastRaw[SORT_VALUE] as string | null) ?? null } : {}) } : undefined;
  const rows = shape ? raw.map(withoutPosition) : raw;
  return { rows, last, method };
}

/** A row without the position columns (a loop: a rest pattern with computed keys is several times slower per row). */
function withoutPosition(raw: Record<string, unknown>): Record<string, unknown> {
  const row: Record<string, unknown> = {};
  for (const key in raw) if (key !== SORT_VALUE && key !== KEY_VALUE) row[key] = raw[key];
  return row;
}

/** ORDER BY … OFFSET … LIMIT, with the keys read first when the OFFSET is deep. */
async function skipRead(base: Query, rowsOf: (q: Query) => Query, keys: readonly SortKey[], offset: number, limit: number, reversed: boolean, direct: number) {
  if (offset <= direct) return orderBy(rowsOf(base), keys, reversed).offset(offset).limit(limit).execute();
  const key = keys.at(-1)!.name;
  const blockKeys = orderBy(base.select(sql.ref(key).as(key)), keys, reversed).offset(offset).limit(limit);
  // The outer query keeps the scope and filter too: every query of a table carries them.
  return orderBy(rowsOf(base).where(sql.ref(key), 'in', blockKeys), keys, reversed).execute();
}

/**
 * Rows after `after` in the order. With a sort column c and key k in direction d:
 * asc (c asc nulls last, k asc): after a value → (c, k) > (s, k0), then the NULL rows by k;
 *   after a NULL → c is null and k > k0.
 * desc (c desc nulls first, k desc): after a NULL → c is null and k < k0, then the rest
 *   (c is not null) from the top; after a value → (c, k) < (s, k0).
 * Each step is one range of the (c, k) index; the second runs only when the first ran out.
 */
async function keyset(base: Query, rowsOf: (q: Query) => Query, shape: { sort?: SortKey; key: SortKey }, after: RowPosition, limit: number) {
  const keys = shape.sort ? [shape.sort, shape.key] : [shape.key];
  const k = sql.ref(shape.key.name);
  const asc = shape.key.dir === 'asc';
  const step = (where: (q: Query) => Query, n: number) => orderBy(rowsOf(where(base)), keys).limit(n).execute();

  if (!shape.sort) return step((q) => q.where(k, asc ? '>' : '<', after.k), limit);
  const c = sortTerm(shape.sort);
  const s = after.s ?? null;
  if (s !== null && !asc) return step((q) => q.where(sql<boolean>`(${c}, ${k}) < (${s}, ${after.k})`), limit);
  if (s === null && asc) return step((q) => q.where(c, 'is', null).where(k, '>', after.k), limit);

  const first =
    s !== null
      ? await step((q) => q.where(sql<boolean>`(${c}, ${k}) > (${s}, ${after.k})`), limit)
      : await step((q) => q.where(c, 'is', null).where(k, '<', after.k), limit);
  if (first.length >= limit) return first;
  const rest = await step((q) => q.where(c, s !== null ? 'is' : 'is not', null), limit - first.length);
  return [...first, ...rest];
}
