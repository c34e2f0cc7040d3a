/**
 * The trail entries of a large import write, made on a thread of their own (trail-worker.ts) while
 * the run's connection reads the next chunk of written rows and appends the last chunk's entries
 * (trail.ts `recordTrail`). On the main thread the two took turns: a million fuel transactions'
 * entries took 36 s with neither the database nor the server busy (docs/decisions.md "A million fuel
 * transactions: where the 90 s go"), and each chunk held the other users' requests while it was made.
 */
import type { ChainedRows } from '../audit/record.ts';
import { IMPORT_THREAD_NICE, IMPORT_THREAD_OLD_MB, keepThread, takeThread } from './kept-threads.ts';
import { makeTrailChunk, type TrailChunk } from './trail-entries.ts';

export interface TrailThreadData { nice: number }
export type TrailToWorker = { type: 'make'; chunk: TrailChunk };
export type TrailToMain = { type: 'made'; made: ChainedRows } | { type: 'error'; message: string };

/** Makes chunks' entries, in the order asked; `close` lets the thread go (kept for the next write when all went well). */
export interface TrailMaker {
  make(chunk: TrailChunk): Promise<ChainedRows>;
  close(): Promise<void>;
}

/** The compiled thread's file, beside dist-server/main.js (tools/build-server.ts). */
export const TRAIL_WORKER_OUTPUT = 'import-trail-worker.js';
const TRAIL_THREAD_YOUNG_MB = 16;

function workerEntry(): URL {
  if (import.meta.url.endsWith('.ts')) return new URL('./trail-worker-from-sources.mjs', import.meta.url);
  return new URL(`./${TRAIL_WORKER_OUTPUT}`, import.meta.url);
}

/** A write's chunks made on this thread: one chunk has nothing to overlap with. */
export const inThisThread: TrailMaker = {
  make: async (chunk) => makeTrailChunk(chunk),
  close: async () => undefined,
};

/**
 * A kept trail thread, or a new one; `entry`: another build of the thread (a test of the compiled
 * one); `oldMb`: its heap's cap (a test's smaller one).
 */
export function openTrailThread(entry: URL = workerEntry(), oldMb = IMPORT_THREAD_OLD_MB): TrailMaker {
  const worker = takeThread(entry, { workerData: { nice: IMPORT_THREAD_NICE } satisfies TrailThreadData, resourceLimits: { maxYoungGenerationSizeMb: TRAIL_THREAD_YOUNG_MB, maxOldGenerationSizeMb: oldMb } });
  // the thread answers in the order it was asked
  const waiting: { resolve: (made: ChainedRows) => void; reject: (error: Error) => void }[] = [];
  let failed: Error | undefined;
  const fail = (error: Error) => {
    failed ??= error;
    for (const w of waiting.splice(0)) w.reject(error);
  };
  worker.on('message', (message: TrailToMain) => {
    const next = waiting.shift();
    if (!next) return;
    if (message.type === 'made') next.resolve(message.made);
    else fail(new Error(`the import's trail thread: ${message.message}`));
  });
  worker.on('error', (error: Error) => fail(error));
  worker.on('exit', (code) => fail(new Error(`the import's trail thread stopped (exit code ${code})`)));
  let closed = false;
  return {
    make(chunk) {
      if (failed) return Promise.reject(failed);
      return new Promise<ChainedRows>((resolve, reject) => {
        waiting.push({ resolve, reject });
        worker.postMessage({ type: 'make', chunk } satisfies TrailToWorker);
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      // a thread that answered everything it was asked is kept; one that failed or still works is stopped
      if (!failed && !waiting.length) return keepThread(entry, worker);
      worker.removeAllListeners('exit');
      await worker.terminate();
    },
  };
}
