/**
 * The thread an import's trail entries are made on (trail-thread.ts starts it): the run's main thread
 * reads the written rows a chunk at a time and appends the entries it gets back, while this thread
 * makes the next chunk's (trail-entries.ts). Stateless: each chunk comes with the head it follows.
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { makeTrailChunk } from './trail-entries.ts';
import type { TrailThreadData, TrailToMain, TrailToWorker } from './trail-thread.ts';

const port = parentPort!;

// as the row thread (rows-worker.ts): the process's requests and the database's sessions go first
try {
  setPriority((workerData as TrailThreadData).nice);
} catch {
  // not allowed here (or not Linux): the thread runs at the process's priority
}

port.on('message', (message: TrailToWorker) => {
  try {
    const made = makeTrailChunk(message.chunk);
    port.postMessage({ type: 'made', made } satisfies TrailToMain);
  } catch (error) {
    port.postMessage({ type: 'error', message: String((error as Error)?.message ?? error) } satisfies TrailToMain);
  }
});
