/**
 * `WORKERS=N npm start`: one portal on N worker processes sharing one port (node:cluster; the
 * primary accepts connections and hands them to the workers in turn). Sessions, nonces, download
 * tokens and files live in the database, so any worker can serve any request; what a process
 * keeps in memory is either a cache that the database's notifications keep true (sessions) or
 * the configuration, which every process reloads when one does (db/reload-broadcast.ts).
 *
 * The primary serves nothing itself. It migrates and seeds before the first worker starts (main.ts),
 * starts the workers, replaces one that dies, and on SIGTERM or SIGINT tells every worker to
 * stop; each then drains as a single process does (shutdown.ts) and the primary exits when all
 * have. Why node:cluster and not a process manager: docs/decisions.md, "Several processes".
 */
import cluster, { type Worker } from 'node:cluster';
import { availableParallelism } from 'node:os';

/** A worker that dies this soon after starting, before it listened, counts as failing to start. */
const RESTART_DELAY_MS = { first: 500, last: 30_000 };

export class WorkersSettingError extends Error {}

/**
 * WORKERS from the environment: undefined when unset (one process, no primary, as before), else a
 * count ≥ 1; `auto` is one per core.
 */
export function workerCount(raw: string | undefined, cores = availableParallelism()): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  if (raw.trim().toLowerCase() === 'auto') return cores;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > 256) throw new WorkersSettingError(raw);
  return value;
}

export interface SupervisorOptions {
  workers: number;
  /** How long the workers may drain on SIGTERM before the primary ends them (SHUTDOWN_TIMEOUT_MS + a margin). */
  shutdownTimeoutMs: number;
  log?: (message: string) => void;
}

/**
 * Runs in the primary: starts the workers and keeps their number. A worker that dies is replaced
 * at once if it had been serving; one that dies before it ever listened is retried after a delay
 * that doubles (a broken port or database must not become a busy loop). If no worker of the first
 * start ever listens, the start failed: the primary exits with 1, as a single process would.
 */
export function superviseWorkers({ workers, shutdownTimeoutMs, log = console.log }: SupervisorOptions): void {
  let stopping = false;
  let anyListened = false;
  let delayMs = RESTART_DELAY_MS.first;
  const listened = new Set<number>();

  const start = () => {
    if (!stopping) cluster.fork();
  };

  cluster.on('listening', (worker) => {
    listened.add(worker.id);
    anyListened = true;
    delayMs = RESTART_DELAY_MS.first;
    // the moment every worker serves: until then /api/health answers from the ones that do, and
    // an operator (or a test) that needs them all waits for this line
    if (listened.size === workers) log(`all ${workers} workers listening`);
  });

  cluster.on('exit', (worker: Worker, code, signal) => {
    const wasServing = listened.delete(worker.id);
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!anyListened) {
      console.error(`worker ${worker.process.pid} ended (${how}) before the portal started; stopping`);
      stopping = true;
      for (const other of Object.values(cluster.workers ?? {})) other?.kill('SIGKILL');
      process.exit(1);
    }
    if (wasServing) {
      log(`worker ${worker.process.pid} ended (${how}); starting another`);
      start();
    } else {
      log(`worker ${worker.process.pid} ended (${how}) before it listened; starting another in ${delayMs} ms`);
      setTimeout(start, delayMs);
      delayMs = Math.min(delayMs * 2, RESTART_DELAY_MS.last);
    }
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      // a second signal: end now, as a single process does
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    log(`${signal}: stopping ${Object.keys(cluster.workers ?? {}).length} worker(s) after their requests in flight`);
    // the workers ignore the terminal's SIGINT (it reaches the whole process group): the primary
    // alone decides, and each worker drains on the SIGTERM it sends
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
    setTimeout(() => {
      console.error(`workers did not stop within ${shutdownTimeoutMs} ms; ending them`);
      for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      process.exit(1);
    }, shutdownTimeoutMs).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  for (let i = 0; i < workers; i++) start();
}
