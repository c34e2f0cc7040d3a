/**
 * A job's log (issue 33, docs/deployment.md "Logs"): every job carries in its data the id of the
 * request that queued it (`queuedBy()`, merged into the data at sending), and its handler runs
 * through `runJob`, which writes one line when the job ends, with the job's id, that request id,
 * the queue and the duration (and the error when it failed, for pg-boss to retry).
 *
 * The job runs in a request context of its own (the same async context @fastify/request-context
 * gives a request), holding the queuing request's id: a job that queues another (the digest
 * queues e-mails, the sweep queues them again) hands the id on, and names itself as the parent.
 * Code inside a job that logs takes `jobLogger(app.log)`, whose lines carry the same ids.
 */
import type { AsyncLocalStorage } from 'node:async_hooks';
import { asyncLocalStorage, requestContext, type RequestContextData } from '@fastify/request-context';
import type { FastifyBaseLogger } from 'fastify';

declare module '@fastify/request-context' {
  interface RequestContextData {
    /** The job being run (its pg-boss id). */
    jobId: string;
    /** The logger of the job being run (its lines carry jobId and requestId). */
    jobLog: FastifyBaseLogger;
  }
}

/** What a queued job's data carries of who queued it. */
export interface QueuedBy {
  /** The request that queued the job (or queued the job that queued it). */
  requestId?: string;
  /** The job that queued it, when a job did. */
  parentJobId?: string;
}

/** The ids to put into a job's data now: the request (or job) being served queues it. */
export function queuedBy(): QueuedBy {
  const requestId = requestContext.get('requestId');
  const parentJobId = requestContext.get('jobId');
  return { ...(requestId ? { requestId } : {}), ...(parentJobId ? { parentJobId } : {}) };
}

/** The fields of a pg-boss job this needs. */
interface JobLike {
  id: string;
  data?: unknown;
}

/**
 * Runs a job's handler in the job's own context and logs its end: one line per job. `facts` are
 * what the line says of the job's work besides its ids (the notification an e-mail job delivers):
 * ids only, never personal data.
 */
export async function runJob<T>(log: FastifyBaseLogger, queue: string, job: JobLike, handler: () => Promise<T>, facts: Record<string, string | number> = {}): Promise<T> {
  const data = (job.data ?? {}) as QueuedBy;
  const ids = {
    jobId: job.id,
    ...(typeof data.requestId === 'string' ? { requestId: data.requestId } : {}),
    ...(typeof data.parentJobId === 'string' ? { parentJobId: data.parentJobId } : {}),
  };
  const jobLog = log.child({ ...ids, queue, ...facts });
  const started = performance.now();
  const durationMs = () => Math.round((performance.now() - started) * 10) / 10;
  // the library types its storage loosely; the store is the context data, as a request's is
  const contexts = asyncLocalStorage as unknown as AsyncLocalStorage<Partial<RequestContextData>>;
  return contexts.run({ jobId: job.id, jobLog, ...(ids.requestId ? { requestId: ids.requestId } : {}) }, async () => {
    try {
      const result = await handler();
      jobLog.info({ durationMs: durationMs() }, 'job');
      return result;
    } catch (error) {
      jobLog.warn({ durationMs: durationMs(), err: error }, 'job failed');
      throw error;
    }
  });
}

/** The logger of the job being run, else `fallback`. */
export function jobLogger(fallback: FastifyBaseLogger): FastifyBaseLogger {
  return requestContext.get('jobLog') ?? fallback;
}
