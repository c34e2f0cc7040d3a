/**
 * The making of an import's trail entries from the rows its write returned (trail.ts): each field
 * that differs, before and after, then the entries chained after the trail's head (audit/record.ts
 * `chainSharing`). Pure arithmetic, no database and no I/O, so that it runs alike on the run's
 * main thread (a write of one chunk) and on its trail thread (trail-thread.ts, a larger one).
 */
import type { Actor } from '../audit/index.ts';
import { canonical } from '../audit/chain.ts';
import { chainSharing, type ChainedRows, type ChainHead, type SharedEntryRecord } from '../audit/record.ts';
import { masked, SECRET_FIELDS } from '../audit/secrets.ts';

/** A row a write returned (trail.ts `trailReturning`): its values before and after as JSON text, or already parsed. */
export interface ReturnedRow { _trailKey: string; _trailBefore: Record<string, unknown> | string; _trailAfter: Record<string, unknown> | string }

/** What a write did to its records, as their trail entries name it. */
export type RecordAction = 'create' | 'update' | 'withdraw';

/** Two values read from jsonb are the same: scalars compared as they are (most of a million records' fields), objects by their JSON. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** A row's values: JSON text parsed, values given as objects made JSON-plain as the database would have returned them (dates as ISO text). */
const parsed = (value: Record<string, unknown> | string): Record<string, unknown> =>
  JSON.parse(typeof value === 'string' ? value : JSON.stringify(value)) as Record<string, unknown>;

/** A value's canonical text (chain.ts): a scalar's JSON, else the sorted form. */
const canonicalValue = (v: unknown): string => (v === null ? 'null' : typeof v === 'object' ? canonical(v) : JSON.stringify(v));

/**
 * The records of the rows a write returned, each with the fields whose value differs, before and
 * after (a new row: its given fields), as the canonical text of its changes (audit/chain.ts, secrets
 * masked as audit/secrets.ts says); a row that changed nothing has none. Made in one pass over a
 * field list sorted once for all rows of the same columns (a write returns the same for each), not
 * as an object of changes sorted and walked again per record: a million fuel transactions' entries
 * took ~15 µs each to make that way, which the trail thread could not keep up with.
 */
export function recordChanges(action: RecordAction, rows: ReturnedRow[]): SharedEntryRecord[] {
  const records: SharedEntryRecord[] = [];
  let fields: string[] = [];
  let quoted: string[] = [];
  let secret: boolean[] = [];
  const fieldsOf = (after: Record<string, unknown>) => {
    fields = Object.keys(after).sort();
    quoted = fields.map((f) => JSON.stringify(f));
    secret = fields.map((f) => SECRET_FIELDS.has(f));
  };
  for (const row of rows) {
    const before = parsed(row._trailBefore);
    const after = parsed(row._trailAfter);
    let count = 0;
    for (const _ in after) count++;
    if (count !== fields.length || fields.some((f) => !(f in after))) fieldsOf(after);
    let text = '';
    for (let i = 0; i < fields.length; i++) {
      const field = fields[i];
      const value = after[field] ?? null;
      const old = before[field] ?? null;
      if (action === 'create' && value === null) continue;
      if (sameValue(old, value)) continue;
      text += `${text ? ',' : '{'}${quoted[i]}:[${canonicalValue(secret[i] ? masked(old) : old)},${canonicalValue(secret[i] ? masked(value) : value)}]`;
    }
    if (text) records.push({ recordKey: String(row._trailKey), changes: `${text}}` });
  }
  return records;
}

/** A chunk of returned rows and what its entries need: the head they follow, their author, resource and action, COPY text or values. */
export interface TrailChunk {
  head: ChainHead;
  author: Actor;
  resource: string;
  action: RecordAction;
  /** COPY text lines (PostgreSQL), else values (PGlite's multi-row inserts). */
  copy: boolean;
  rows: ReturnedRow[];
}

/** A chunk's entries, chained after its head, ready to append (audit/record.ts `appendChained`). */
export function makeTrailChunk(chunk: TrailChunk): ChainedRows {
  return chainSharing(chunk.head, { actor: chunk.author, resource: chunk.resource, action: chunk.action }, recordChanges(chunk.action, chunk.rows), chunk.copy);
}
