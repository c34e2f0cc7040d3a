/**
 * The making of an import's trail entries from the rows its write returned (trail.ts): each field
 * that differs, before and after, then the entries chained after the trail's head (audit/record.ts
 * `chainEntries`). Pure arithmetic, no database and no I/O, so that it runs alike on the run's
 * main thread (a write of one chunk) and on its trail thread (trail-thread.ts, a larger one).
 */
import type { Actor, Changes } from '../audit/index.ts';
import { chainEntries, type ChainedRows, type ChainHead } from '../audit/record.ts';

/** One record an import run wrote. */
export interface RecordWrite {
  resource: string;
  key: string;
  action: 'create' | 'update' | 'withdraw';
  changes: Changes;
}

/** A row a write returned (trail.ts `trailReturning`): its values before and after as JSON text, or already parsed. */
export interface ReturnedRow { _trailKey: string; _trailBefore: Record<string, unknown> | string; _trailAfter: Record<string, unknown> | string }

/** Two values read from jsonb are the same: scalars compared as they are (most of a million records' fields), objects by their JSON. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

const parsed = (value: Record<string, unknown> | string): Record<string, unknown> => (typeof value === 'string' ? JSON.parse(value) as Record<string, unknown> : value);

/** The records of the rows a write returned: each field whose value differs, before and after (a new row: its given fields). */
export function recordWrites(resource: string, action: RecordWrite['action'], rows: ReturnedRow[]): RecordWrite[] {
  const writes: RecordWrite[] = [];
  for (const row of rows) {
    const before = parsed(row._trailBefore);
    const after = parsed(row._trailAfter);
    const changes: Changes = {};
    for (const field in after) {
      const value = after[field] ?? null;
      const old = before[field] ?? null;
      if (action === 'create' && value === null) continue;
      if (!sameValue(old, value)) changes[field] = [old, value];
    }
    if (Object.keys(changes).length) writes.push({ resource, key: String(row._trailKey), action, changes });
  }
  return writes;
}

/** A chunk of returned rows and what its entries need: the head they follow, their author, resource and action, COPY text or values. */
export interface TrailChunk {
  head: ChainHead;
  author: Actor;
  resource: string;
  action: RecordWrite['action'];
  /** COPY text lines (PostgreSQL), else values (PGlite's multi-row inserts). */
  copy: boolean;
  rows: ReturnedRow[];
}

/** A chunk's entries, chained after its head, ready to append (audit/record.ts `appendChained`). */
export function makeTrailChunk(chunk: TrailChunk): ChainedRows {
  const entries = recordWrites(chunk.resource, chunk.action, chunk.rows)
    .map((w) => ({ actor: chunk.author, resource: w.resource, recordKey: w.key, action: w.action, changes: w.changes }));
  return chainEntries(chunk.head, entries, chunk.copy);
}
