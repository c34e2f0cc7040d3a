/**
 * Bounded waiting for the HTTP side (the database side is in db/connect.ts PoolLimits):
 * - `serverLimits()` gives Fastify's own options: a request must arrive whole (headers and body)
 *   within requestTimeoutMs, else Node answers 408 and closes the socket, so a client trickling a
 *   body byte by byte cannot hold a connection; an idle socket is closed after connectionTimeoutMs;
 * - the `limits` plugin sheds load: while the event loop lags more than maxEventLoopDelayMs (the
 *   process is saturated) or its heap passes maxHeapUsedBytes, new requests are refused at once with 503 and a Polish "try again"
 *   instead of queueing for minutes (@fastify/under-pressure). Only API calls are shed: the
 *   runtime's pages and files are served all the same (plugins/delivery.ts).
 * 0 turns a limit off.
 */
import { monitorEventLoopDelay } from 'node:perf_hooks';
import underPressure from '@fastify/under-pressure';
import type { FastifyServerOptions } from 'fastify';
import fp from 'fastify-plugin';

export interface ServerLimits {
  /** Time to receive a whole request, headers and body (Node's requestTimeout; 408 after it). */
  requestTimeoutMs: number;
  /** A socket without any traffic for this long is closed. */
  connectionTimeoutMs: number;
  /** Event-loop lag past which new requests are refused with 503. */
  maxEventLoopDelayMs: number;
  /** Heap in use past which new requests are refused with 503 (0: no limit). */
  maxHeapUsedBytes: number;
  /** How often the lag is measured (and how often Node checks requestTimeout). */
  sampleIntervalMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  requestTimeoutMs: 60_000,
  connectionTimeoutMs: 120_000,
  // off unless asked for (main.ts asks for 2 s): tests build many apps on a shared, busy machine,
  // and PGlite runs its queries on the event loop, so a lag there is not an overload of the server
  maxEventLoopDelayMs: 0,
  maxHeapUsedBytes: 0,
  sampleIntervalMs: 1_000,
};

/** Fastify's constructor options for the limits (used by buildApp). */
export function serverLimits(limits: ServerLimits): Partial<FastifyServerOptions> {
  return {
    requestTimeout: limits.requestTimeoutMs,
    connectionTimeout: limits.connectionTimeoutMs,
    // Node checks requestTimeout on this interval (30 s by default), so a short limit needs a short
    // interval; and Node 20 honours requestTimeout only when given to the server's constructor
    // (Fastify sets it afterwards), so it is passed here as well.
    http: { requestTimeout: limits.requestTimeoutMs, connectionsCheckingInterval: Math.max(100, Math.min(limits.sampleIntervalMs, limits.requestTimeoutMs || 30_000)) },
  } as Partial<FastifyServerOptions>;
}

/** The resolution of the lag's samples, ms (under-pressure's). */
const LAG_RESOLUTION_MS = 10;

/**
 * Node's histogram is reset only after this many samples (some hours at one per 10 ms): a reset
 * loses the interval that follows it (see eventLoopLag), and the running sum stays exact in a double.
 */
const LAG_SAMPLES_BEFORE_RESET = 1_000_000;

/**
 * The event loop's lag as under-pressure measures it — the mean delay of the 10 ms samples taken
 * since the last reading, less the resolution — with two differences:
 * - a reading with no sample since the last one keeps the last figure. under-pressure 9 counts
 *   such a reading as an infinite lag, and one comes after every stall of a second or more (the
 *   timer that reads the lag runs twice in a row, Node's clock not yet moved past the stall):
 *   every API call was then refused for a second, whatever the limit — with the embedded
 *   database, whose queries run on the event loop, many times a minute under the bench's 50
 *   clients (issue 33, docs/benchmarks.md);
 * - the histogram is not reset at each reading: the samples since the last one are told by the
 *   running count and sum. Node's histogram drops the first interval after a reset (it has no
 *   previous sample to measure from), and that interval is the stall when the reading comes just
 *   before it — a loop stalled a second at a time between readings read as no lag at all, and was
 *   never shed (the CI failure of tests/api/load-shedding-lag.test.ts).
 */
export function eventLoopLag(): { read(): number; stop(): void } {
  const histogram = monitorEventLoopDelay({ resolution: LAG_RESOLUTION_MS });
  histogram.enable();
  let lag = 0;
  let count = 0;
  let sum = 0;
  return {
    read() {
      const n = histogram.count;
      if (n > count) {
        const total = histogram.mean * n;
        lag = Math.max(0, (total - sum) / (n - count) / 1e6 - LAG_RESOLUTION_MS);
        count = n;
        sum = total;
        if (n >= LAG_SAMPLES_BEFORE_RESET) {
          histogram.reset();
          count = 0;
          sum = 0;
        }
      }
      return lag;
    },
    stop: () => histogram.disable(),
  };
}

export default fp<{ limits: ServerLimits }>(
  async (app, { limits }) => {
    if (!limits.maxEventLoopDelayMs && !limits.maxHeapUsedBytes) return;
    const lag = limits.maxEventLoopDelayMs ? eventLoopLag() : undefined;
    if (lag) app.addHook('onClose', async () => lag.stop());
    await app.register(underPressure, {
      // the lag is this plugin's own reading (eventLoopLag), checked as under-pressure's "health check"
      maxEventLoopDelay: 0,
      ...(lag && { healthCheck: async () => lag.read() <= limits.maxEventLoopDelayMs, healthCheckInterval: limits.sampleIntervalMs }),
      maxHeapUsedBytes: limits.maxHeapUsedBytes,
      sampleInterval: limits.sampleIntervalMs,
      retryAfter: 5,
      // the API's calls; the runtime's pages and files are served all the same (plugins/delivery.ts)
      pressureHandler: (_request, reply) => {
        reply.status(503).header('retry-after', '5')
          .send({ statusCode: 503, code: 'OVERLOADED', detail: app.config.t('errors:overloaded') });
      },
    });
  },
  { name: 'limits', dependencies: ['config'] },
);
