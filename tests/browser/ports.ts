import { availableParallelism } from 'node:os';

/**
 * Ports of the browser journeys' servers: one server per Playwright worker, 100 ports apart
 * (a journey starts helpers of its own beside its worker's server: a mail server at +25, a
 * variant's server at +50). E2E_PORT moves the first (3100), E2E_WORKERS sets the number of workers:
 * by default one per core plus one, as vitest's, at most 8 (each is a browser and a server with its
 * database, some 600 MB). A worker waits on its page's network and timers part of the time, so two
 * workers left the two cores of CI's machine 17 % idle; three kept them busy and ended the journeys
 * 7 % sooner (docs/decisions.md "Journeys on one worker per core plus one").
 */
export const E2E_WORKERS = Math.max(1, Number(process.env.E2E_WORKERS || Math.min(8, availableParallelism() + 1)));
const FIRST = Number(process.env.E2E_PORT || 3100);

/** The port of a worker's server; by default the worker this process is (TEST_PARALLEL_INDEX, set by Playwright). */
export function portOfWorker(worker = Number(process.env.TEST_PARALLEL_INDEX || 0)): number {
  return FIRST + 100 * worker;
}

/** The server of the worker running this file. */
export const PORT = portOfWorker();
