/**
 * An import run's rows, read and checked on a thread of their own (rows-worker.ts), at a lower
 * priority than the process's requests (docs/decisions.md "Imports (issue 34)", "The row thread").
 *
 * On the main thread a 100 000-row file cost some 5 s of the event loop (csv-parse, the conversions,
 * ajv, the garbage they leave), cut into 5 ms slices: every request of every other user waited up
 * to a slice at each of its awaits, and the table calls' p95 grew 2–5× during an import. Here the
 * main thread only hands the stored file's chunks over and stages the checked batches.
 */
import { keepThread, takeThread, IMPORT_THREAD_OLD_MB } from './kept-threads.ts';
import type { Bundle, Language } from '../config/bundle.ts';
import { ImportFileError, type FileHead, type ImportFormat } from './read-file.ts';
import type { CheckPlan } from './row-check.ts';

export interface RowsThreadInput {
  format: ImportFormat;
  fileName: string;
  plan: CheckPlan;
  locales: Bundle['locales'];
  /** The language the run's caller reads (import_run.language, issue 48): its row errors are worded in it, its numbers in its locale. */
  language: Pick<Language, 'id' | 'locale'>;
  maxRows: number;
  /** Staged with COPY (PostgreSQL): lines of COPY text; else (PGlite) values for INSERTs. */
  copyText: boolean;
  batchRows: number;
  /** How many batches the thread may check ahead of the staging. */
  batchesAhead: number;
  /** The thread's nice value (Linux: per thread; 0 is the process's own); set when the thread starts. */
  nice: number;
}

/** What a thread is started with; each run's own input comes with its 'start'. */
export interface RowsThreadData {
  nice: number;
}

/**
 * A batch of checked rows: `total` is the rows read so far; the good rows as COPY text (one string:
 * one copy across threads, where an array of lines would be rebuilt on the main thread line by line)
 * or as values; an error is [row, column, message, cells].
 */
export interface RowsBatch {
  type: 'batch';
  total: number;
  copyText: string;
  values: unknown[][];
  errors: [number, string | null, string, string][];
}

export type ToMain =
  | { type: 'chunk' }
  | { type: 'head'; head: FileHead }
  | RowsBatch
  | { type: 'done'; total: number }
  | { type: 'fail'; key: string; vars: Record<string, unknown> }
  | { type: 'error'; message: string; code?: string };

export type ToWorker =
  | { type: 'start'; input: RowsThreadInput }
  | { type: 'chunk'; chunk: Uint8Array | null }
  | { type: 'columns'; index: [string, number][]; headings: [string, string][] }
  | { type: 'next' };

type Received = Exclude<ToMain, { type: 'chunk' }>;

/**
 * The thread's entry: when the server runs from its TypeScript sources (tsx, vitest), a small module
 * that registers tsx in the thread first; in production the compiled neighbour of dist-server/main.js
 * (tools/build-server.ts).
 */
export const ROWS_WORKER_OUTPUT = 'import-rows-worker.js';
const ROW_THREAD_YOUNG_MB = 16;

function workerEntry(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./rows-worker-from-sources.mjs', import.meta.url);
  return new URL(`./${ROWS_WORKER_OUTPUT}`, import.meta.url);
}

export interface CheckedRows {
  head: FileHead;
  /** The row thread's id (a kept thread serves run after run). */
  threadId: number;
  /** Tells the thread which file column each field is read from, then yields the checked batches. */
  batches(columnIndex: Map<string, number>, columnOf: Map<string, string>): AsyncIterable<RowsBatch>;
  /** Lets the thread go: kept for the next run when this one read its file to the end, else stopped. */
  close(): Promise<void>;
}

/** Starts a run on a row thread (a kept one, or a new one); answers once it has read the file's heading. `entry`: another build of the thread (a test of the compiled one). */
export async function openCheckedRows(file: AsyncIterable<Buffer>, input: RowsThreadInput, entry: URL = workerEntry()): Promise<CheckedRows> {
  // a young generation of its own, small: the server's flags size the main thread's for bursts of
  // requests (npm start), and the row thread with the same would hold some 100 MB more during a run
  const worker = takeThread(entry, { workerData: { nice: input.nice } satisfies RowsThreadData, resourceLimits: { maxYoungGenerationSizeMb: ROW_THREAD_YOUNG_MB, maxOldGenerationSizeMb: IMPORT_THREAD_OLD_MB } });
  const inbox: Received[] = [];
  let wake: (() => void) | undefined;
  const deliver = (message: Received) => {
    inbox.push(message);
    wake?.();
  };
  const source = file[Symbol.asyncIterator]();
  worker.on('message', (message: ToMain) => {
    if (message.type !== 'chunk') return deliver(message);
    // the parser wants more of the file: the next stored chunk, or null at its end
    source.next().then(
      (next) => worker.postMessage({ type: 'chunk', chunk: next.done ? null : next.value } satisfies ToWorker),
      (error: unknown) => deliver({ type: 'error', message: String((error as Error)?.message ?? error), code: (error as { code?: string })?.code }),
    );
  });
  worker.on('error', (error: Error) => deliver({ type: 'error', message: error.message }));
  worker.on('exit', (code) => deliver({ type: 'error', message: `the import's row thread stopped (exit code ${code})` }));
  worker.postMessage({ type: 'start', input } satisfies ToWorker);

  async function receive(): Promise<Received> {
    while (!inbox.length) await new Promise<void>((resolve) => (wake = resolve));
    const message = inbox.shift()!;
    if (message.type === 'fail') throw new ImportFileError(message.key, message.vars);
    if (message.type === 'error') throw Object.assign(new Error(message.message), message.code ? { code: message.code } : {});
    return message;
  }

  let readToTheEnd = false;
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    if (readToTheEnd) return keepThread(entry, worker);
    worker.removeAllListeners('exit');
    await worker.terminate();
  };
  try {
    const first = await receive();
    if (first.type !== 'head') throw new Error(`the import's row thread answered ${first.type} before the file's heading`);
    return {
      head: first.head,
      threadId: worker.threadId,
      async *batches(columnIndex, columnOf) {
        worker.postMessage({ type: 'columns', index: [...columnIndex], headings: [...columnOf] } satisfies ToWorker);
        for (;;) {
          const message = await receive();
          if (message.type === 'done') {
            readToTheEnd = true;
            return;
          }
          if (message.type !== 'batch') throw new Error(`the import's row thread answered ${message.type} among its batches`);
          yield message;
          worker.postMessage({ type: 'next' } satisfies ToWorker);
        }
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}
