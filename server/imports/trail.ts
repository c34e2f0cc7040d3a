/**
 * An import's records in the audit trail (issue 45): every record a run creates, changes or
 * withdraws gets an entry of its own, as a typed-in write does — the fields before and after —
 * so a vehicle whose inspection date a file moved shows that change in its Historia zmian.
 *
 * Set-based like the run itself: the run's INSERT and UPDATE statements answer, through RETURNING,
 * each written record's key and its written columns as JSON (an UPDATE reads the values before it
 * from a second reference to the table in its FROM, which the statement sees as they were when it
 * began); the differences are taken and the entries chained (trail-entries.ts, on the trail thread
 * for a large write) and written in bulk with the run's own entry in the transaction that commits
 * the rows (COPY on PostgreSQL: audit/record.ts `appendChained`). Which trail resource a
 * declaration's records belong to is its `trail.resource` (schemas/meta/import.schema.json).
 *
 * A run raises no notification or webhook event per record (no mail per imported vehicle): its end
 * raises `import.finished` (screens/webhooks.json), as the declaration's `trail` says.
 */
import type { Actor } from '../audit/index.ts';
import { appendChained, lockHead, moveHead, type BulkAppend, type ChainedRows, type ChainHead } from '../audit/record.ts';
import type { ImportDecl } from '../config/import-declaration.ts';
import type { RecordAction, ReturnedRow, TrailChunk } from './trail-entries.ts';
import { inThisThread, openTrailThread, type TrailMaker } from './trail-thread.ts';

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;
/** json_build_object takes at most 100 arguments: 50 columns a call (more are joined as jsonb, which has ||). */
const PAIRS_A_CALL = 50;

/** The trail resource of a declaration's records. */
export const trailResource = (decl: ImportDecl): string => decl.trail?.resource ?? decl.import;

/** The record's key as the trail names it: the table's id, else its key columns joined by "/". */
export function recordKeySql(decl: ImportDecl, alias: string): string {
  if (decl.id) return `${alias}.${q(decl.id)}::text`;
  return `concat_ws('/', ${decl.key.map((k) => `${alias}.${q(k)}::text`).join(', ')})`;
}

/**
 * The columns of a row as one JSON object, `json` (text as built, read back as it is) rather than
 * `jsonb` (a binary form built, stored and printed again): a million fuel transactions imported
 * ~10 s sooner (docs/decisions.md "A million fuel transactions: the trail on a thread of its own").
 */
export function columnsJson(alias: string, columns: string[]): string {
  if (!columns.length) return `'{}'::json`;
  const pairs = (part: string[]) => part.map((c) => `${lit(c)}, ${alias}.${q(c)}`).join(', ');
  if (columns.length <= PAIRS_A_CALL) return `json_build_object(${pairs(columns)})`;
  const calls: string[] = [];
  for (let i = 0; i < columns.length; i += PAIRS_A_CALL) calls.push(`jsonb_build_object(${pairs(columns.slice(i, i + PAIRS_A_CALL))})`);
  return `(${calls.join(' || ')})::json`;
}

/**
 * The RETURNING list of a write whose records go into the trail: the key, and the columns before
 * (`before`: an alias of the table as it was, or none for a new row) and after (`after`).
 */
export function trailReturning(decl: ImportDecl, after: string, before: string | null, columns: string[]): string {
  return `${recordKeySql(decl, after)} as "_trailKey", ${before ? columnsJson(before, columns) : `'{}'::json`} as "_trailBefore", ${columnsJson(after, columns)} as "_trailAfter"`;
}

/**
 * How many records' entries are made and appended at a time: a run's memory holds two such chunks
 * (one being appended, the next being made), not all of them. On the main thread a chunk's making
 * held the event loop: 10,000 made the other users' calls wait ~250 ms (table p95 17× idle during
 * an import of 100,000 vehicles), 2,000 about 50 ms (docs/benchmarks.md, 4 December 2026); a write
 * of more than one chunk makes them on the trail thread (trail-thread.ts).
 */
export const TRAIL_CHUNK = 2_000;

/** A query on the run's connection (server/imports/session.ts). */
type TrailQuery = <R = Record<string, unknown>>(text: string, values?: unknown[]) => Promise<{ rows: R[]; rowCount: number }>;

/** Where a run's record entries go: who they name, and how the run's connection appends rows (COPY text on PostgreSQL, values on PGlite). */
export interface TrailTarget {
  author: Actor;
  append: BulkAppend;
  copy: boolean;
}

/** Where a run's writes go: each runs once, and the records it wrote reach the trail. */
export interface RecordTrail {
  /** Runs a write whose RETURNING is `trailReturning(…)`, records what it wrote, and answers how many rows it wrote. */
  write(decl: ImportDecl, action: RecordAction, statement: string, values?: unknown[]): Promise<number>;
}

/**
 * The trail of a run on its connection: a write's returned rows go into a temporary table on the
 * database's side (a data-modifying WITH feeding an INSERT), and come back in the write's order
 * through a cursor, a chunk of `chunkSize` at a time as JSON text (a temporary table's scan is never
 * synchronized with another's); their entries are chained after the trail's head (locked to the
 * commit) and appended in the run's transaction. A million readings whose returned rows and entries were
 * held at once took 1.9 GB above the server's idle size (the bench, 4 December 2026).
 *
 * Three things overlap: the database reads the next chunk while the trail thread makes this
 * chunk's entries, and appends them while the thread makes the next chunk's. The chain stays in
 * order: a chunk is sent to be made only with the head its predecessor's entries ended at. Without
 * a target (no trail), the write runs alone.
 */
export function recordTrail(query: TrailQuery, target?: TrailTarget, chunkSize = TRAIL_CHUNK, thread: () => TrailMaker = openTrailThread): RecordTrail {
  return {
    async write(decl, action, statement, values) {
      if (!target) return (await query(statement, values)).rowCount;
      // a heap without a key, read once through a cursor: numbering the rows and reading them back by
      // that number cost a million rows ~1 s more (psql: filled in 4.25 against 3.5 s, read back 0.75 against 0.45 s)
      await query(`create temporary table if not exists import_trail_rows ("_trailKey" text, "_trailBefore" json, "_trailAfter" json) on commit drop`);
      await query('truncate import_trail_rows');
      const written = await query(`with w as (${statement})
        insert into import_trail_rows ("_trailKey", "_trailBefore", "_trailAfter") select "_trailKey", "_trailBefore", "_trailAfter" from w`, values);
      if (!written.rowCount) return 0;
      await query(`declare import_trail_read no scroll cursor for select "_trailKey", "_trailBefore"::text as "_trailBefore", "_trailAfter"::text as "_trailAfter" from import_trail_rows`);
      const read = async () => (await query<ReturnedRow>(`fetch forward ${chunkSize} from import_trail_read`)).rows;
      const chunkOf = (head: ChainHead, rows: ReturnedRow[]): TrailChunk => ({ head, author: target.author, resource: trailResource(decl), action, copy: target.copy, rows });
      const maker = written.rowCount > chunkSize ? thread() : inThisThread;
      // a making that fails while the connection is busy is answered when it is awaited, not as a rejection nobody handles
      const make = (head: ChainHead, rows: ReturnedRow[]) => {
        const making = maker.make(chunkOf(head, rows));
        making.catch(() => undefined);
        return making;
      };
      try {
        let head = await lockHead(query);
        let rows = await read();
        let making: Promise<ChainedRows> | undefined = make(head, rows);
        while (making) {
          // the next chunk is read while this one's entries are made
          const next = rows.length ? await read() : [];
          const entries = await making;
          head = entries.head;
          // and the next chunk's are made while this one's are appended
          making = next.length ? make(head, next) : undefined;
          if (entries.count) await appendChained(query, entries, target.append);
          rows = next;
        }
        await moveHead(query, head);
        await query('close import_trail_read');
      } finally {
        await maker.close();
      }
      return written.rowCount;
    },
  };
}
