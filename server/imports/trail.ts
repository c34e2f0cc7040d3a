/**
 * An import's records in the audit trail (issue 45): every record a run creates, changes or
 * withdraws gets an entry of its own, as a typed-in write does — the fields before and after —
 * so a vehicle whose inspection date a file moved shows that change in its Historia zmian.
 *
 * Set-based like the run itself: the run's INSERT and UPDATE statements answer, through RETURNING,
 * each written record's key and its written columns as jsonb (an UPDATE reads the values before it
 * from a second reference to the table in its FROM, which the statement sees as they were when it
 * began); the differences are taken here, and the entries are chained and written in bulk with the
 * run's own entry in the transaction that commits the rows (COPY on PostgreSQL:
 * audit/record.ts `recordChangesVia`). Which trail resource a declaration's records belong to is
 * its `trail.resource` (schemas/meta/import.schema.json).
 *
 * A run raises no notification or webhook event per record (no mail per imported vehicle): its end
 * raises `import.finished` (screens/webhooks.json), as the declaration's `trail` says.
 */
import type { Changes } from '../audit/index.ts';
import type { ImportDecl } from '../config/import-declaration.ts';

/** One record an import run wrote. */
export interface RecordWrite {
  resource: string;
  key: string;
  action: 'create' | 'update' | 'withdraw';
  changes: Changes;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** jsonb_build_object takes at most 100 arguments: 50 columns a call, joined with ||. */
const PAIRS_A_CALL = 50;

/** The trail resource of a declaration's records. */
export const trailResource = (decl: ImportDecl): string => decl.trail?.resource ?? decl.import;

/** The record's key as the trail names it: the table's id, else its key columns joined by "/". */
export function recordKeySql(decl: ImportDecl, alias: string): string {
  if (decl.id) return `${alias}.${q(decl.id)}::text`;
  return `concat_ws('/', ${decl.key.map((k) => `${alias}.${q(k)}::text`).join(', ')})`;
}

/** The columns of a row as one jsonb object. */
export function columnsJson(alias: string, columns: string[]): string {
  if (!columns.length) return `'{}'::jsonb`;
  const calls: string[] = [];
  for (let i = 0; i < columns.length; i += PAIRS_A_CALL) {
    calls.push(`jsonb_build_object(${columns.slice(i, i + PAIRS_A_CALL).map((c) => `${lit(c)}, ${alias}.${q(c)}`).join(', ')})`);
  }
  return calls.join(' || ');
}

/**
 * The RETURNING list of a write whose records go into the trail: the key, and the columns before
 * (`before`: an alias of the table as it was, or none for a new row) and after (`after`).
 */
export function trailReturning(decl: ImportDecl, after: string, before: string | null, columns: string[]): string {
  return `${recordKeySql(decl, after)} as "_trailKey", ${before ? columnsJson(before, columns) : `'{}'::jsonb`} as "_trailBefore", ${columnsJson(after, columns)} as "_trailAfter"`;
}

export interface ReturnedRow { _trailKey: string; _trailBefore: Record<string, unknown> | string; _trailAfter: Record<string, unknown> | string }

/** Two values read from jsonb are the same: scalars compared as they are (most of a million records' fields), objects by their JSON. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

const parsed = (value: Record<string, unknown> | string): Record<string, unknown> => (typeof value === 'string' ? JSON.parse(value) as Record<string, unknown> : value);

/** The entries of the rows a write returned: each field whose value differs, before and after (a new row: its given fields). */
export function recordWrites(decl: ImportDecl, action: RecordWrite['action'], rows: ReturnedRow[]): RecordWrite[] {
  const resource = trailResource(decl);
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

/**
 * How many records' entries are made and written at a time: a run's memory holds one such chunk,
 * not all of them. Making a chunk's entries (JSON and the chain's hashes) holds the event loop:
 * 10,000 made the other users' calls wait ~250 ms (table p95 17× idle during an import of 100,000
 * vehicles), 2,000 about 50 ms (docs/benchmarks.md, 4 December 2026).
 */
export const TRAIL_CHUNK = 2_000;

/** A query on the run's connection (server/imports/session.ts). */
type TrailQuery = <R = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<{ rows: R[]; rowCount: number }>;

/** Where a run's writes go: each runs once, and the records it wrote reach the trail. */
export interface RecordTrail {
  /** Runs a write whose RETURNING is `trailReturning(…)`, records what it wrote, and answers how many rows it wrote. */
  write(decl: ImportDecl, action: RecordWrite['action'], statement: string, values?: unknown[]): Promise<number>;
}

/**
 * The trail of a run on its connection: a write's returned rows go into a temporary table on the
 * database's side (a data-modifying WITH feeding an INSERT), and come back a chunk of TRAIL_CHUNK at a
 * time to be made into entries and handed to `sink`, in the run's transaction. A million readings
 * whose returned rows and entries were held at once took 1.9 GB above the server's idle size (the
 * bench, 4 December 2026). Without a sink (no trail), the write runs alone.
 */
export function recordTrail(query: TrailQuery, sink?: (writes: RecordWrite[]) => Promise<void>, chunkSize = TRAIL_CHUNK): RecordTrail {
  return {
    async write(decl, action, statement, values) {
      if (!sink) return (await query(statement, values)).rowCount;
      await query(`create temporary table if not exists import_trail_rows (n bigserial primary key, "_trailKey" text, "_trailBefore" jsonb, "_trailAfter" jsonb) on commit drop`);
      await query('truncate import_trail_rows');
      const written = await query(`with w as (${statement})
        insert into import_trail_rows ("_trailKey", "_trailBefore", "_trailAfter") select "_trailKey", "_trailBefore", "_trailAfter" from w`, values);
      for (let last = 0; ;) {
        const chunk = await query<ReturnedRow & { n: string | number }>(
          `select n, "_trailKey", "_trailBefore", "_trailAfter" from import_trail_rows where n > $1 order by n limit ${chunkSize}`, [last]);
        if (!chunk.rows.length) break;
        last = Number(chunk.rows[chunk.rows.length - 1].n);
        const writes = recordWrites(decl, action, chunk.rows);
        if (writes.length) await sink(writes);
      }
      return written.rowCount;
    },
  };
}
