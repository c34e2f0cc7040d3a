/**
 * The worker threads of import runs (the row thread, rows-thread.ts; the trail thread,
 * trail-thread.ts), kept a while after a run that ended cleanly, for the next one (per entry file):
 * starting one costs ~0.1 s compiled and ~1 s from the sources (tsx's hooks thread), which a day of
 * small API imports and the tests would pay run after run. An idle thread holds the process open
 * for nobody (unref).
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * The threads' nice value (Linux keeps one per thread): when the cores are busy, the process's
 * requests and the database come first (measured: docs/benchmarks.md "Imports", "The row thread").
 */
export const IMPORT_THREAD_NICE = 10;

/**
 * Each thread's old generation, capped: a chunk that grows without end (a file of one enormous row,
 * a write's rows of megabytes each) stops its thread with ERR_WORKER_OUT_OF_MEMORY, and its run fails
 * and rolls back, instead of growing the whole server up to V8's default heap limit, which applies
 * to every thread anew. A run's thread holds a few chunks of 2,000 rows: tens of megabytes.
 */
export const IMPORT_THREAD_OLD_MB = 512;

const idleThreads = new Map<string, { worker: Worker; timer: NodeJS.Timeout }[]>();
const IDLE_THREAD_MS = 60_000;
const IDLE_THREADS_KEPT = 2;

/** A kept thread of `entry`, else a new one started with `options`. */
export function takeThread(entry: URL, options: WorkerOptions): Worker {
  const kept = idleThreads.get(entry.href)?.pop();
  if (kept) {
    clearTimeout(kept.timer);
    kept.worker.ref();
    return kept.worker;
  }
  return new Worker(entry, options);
}

/** Keeps a thread whose run ended cleanly (its listeners removed) for the next run, or stops it when enough are kept. */
export function keepThread(entry: URL, worker: Worker): void {
  worker.removeAllListeners('message');
  worker.removeAllListeners('error');
  worker.removeAllListeners('exit');
  const list = idleThreads.get(entry.href) ?? [];
  idleThreads.set(entry.href, list);
  if (list.length >= IDLE_THREADS_KEPT) {
    void worker.terminate();
    return;
  }
  const entryOfList = { worker, timer: setTimeout(() => {
    list.splice(list.indexOf(entryOfList), 1);
    void worker.terminate();
  }, IDLE_THREAD_MS).unref() };
  // a thread that dies while idle is not handed out again
  worker.once('exit', () => {
    clearTimeout(entryOfList.timer);
    if (list.includes(entryOfList)) list.splice(list.indexOf(entryOfList), 1);
  });
  worker.unref();
  list.push(entryOfList);
}
