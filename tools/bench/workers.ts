/**
 * The same signed keyset blocks at 50 clients served by one worker process and by two
 * (WORKERS=1 and WORKERS=2, server/cluster.ts), one after the other in the same run, on the same
 * PostgreSQL data: what a second process buys. On this machine's two cores the load generator,
 * PostgreSQL and the workers share the CPU, so the gain is bounded well below 2×; the load
 * average is printed beside each figure.
 */
import os from 'node:os';
import { drive, signedPoster, type LoadResult } from './load.ts';
import { startServer } from './server-process.ts';

const CLIENTS = 50;

export interface WorkersInput {
  root: string;
  databaseUrl: string;
  schema: string;
  preConfigName: string;
  /** The measured call on a given client: the vehicles' keyset block in the middle (operations.ts keysetCalls). */
  blockCall: (poster: ReturnType<typeof signedPoster>) => Promise<() => Promise<string | null>>;
  seconds: number;
  appName: string;
  log: (m: string) => void;
}

export async function workersSideBySide(o: WorkersInput): Promise<string[]> {
  const runs: { workers: number; result: LoadResult; load: string }[] = [];
  // 1, 2, then 1 and 2 again: a drift of the machine's load between the runs shows as a
  // difference between the two runs of the same setting
  for (const workers of [1, 2, 1, 2]) {
    o.log(`workers: ${workers} worker process(es), ${CLIENTS} clients…`);
    const server = await startServer(o.root, { DATABASE_URL: o.databaseUrl, DATABASE_SCHEMA: o.schema, DB_APPLICATION_NAME: o.appName, WORKERS: String(workers) });
    const poster = signedPoster(server.baseUrl, o.preConfigName, 256);
    try {
      const once = await o.blockCall(poster);
      await drive(CLIENTS, 2_000, once); // warm-up: every worker's JIT and pool
      const result = await drive(CLIENTS, o.seconds * 1000, once);
      runs.push({ workers, result, load: os.loadavg()[0].toFixed(1) });
      o.log(`  ${result.perSecond.toFixed(1)}/s p95 ${result.p95.toFixed(1)} ms, errors ${result.errors}`);
    } finally {
      poster.close();
      await server.stop();
    }
  }
  const f1 = (n: number) => n.toFixed(1);
  const best = (workers: number) => Math.max(...runs.filter((r) => r.workers === workers).map((r) => r.result.perSecond));
  const gain = best(2) / best(1);
  return ['', '### One worker process or two (WORKERS), signed keyset blocks at 50 clients', '',
    `The server as \`WORKERS=1\` and \`WORKERS=2 npm start\` runs it (server/cluster.ts: a primary hands the connections to its workers in turn; each worker has its own pool of 10 connections), started afresh for each run; ${CLIENTS} clients for ${o.seconds} s after 2 s of warm-up read the vehicles' keyset block in the middle of the table, as ADMIN, each with a fresh nonce and signature; the answer parsed. Runs alternate 1, 2, 1, 2 so that a change of the machine's load shows as a difference between runs of the same setting.`, '',
    '| workers | req/s | p50 ms | p95 ms | p99 ms | errors | load |', '|---:|---:|---:|---:|---:|---:|---:|',
    ...runs.map((r) => `| ${r.workers} | ${f1(r.result.perSecond)} | ${f1(r.result.p50)} | ${f1(r.result.p95)} | ${f1(r.result.p99)} | ${r.result.errors} | ${r.load} |`),
    '', `Two workers serve ${f1(gain)}× the blocks of one (best run of each). The bound on this machine: ${os.cpus().length} cores carry the load generator (50 clients signing and parsing), PostgreSQL and the server; one worker already leaves little idle CPU to a second, which mainly takes over the HTTP parsing, signature checks, serialisation and compression that one event loop did alone. On a machine with a core per worker and the database elsewhere, the gain approaches the number of workers until PostgreSQL or the pool (10 connections per worker) is the limit.`];
}
