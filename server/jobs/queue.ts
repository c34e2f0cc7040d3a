/**
 * The job queue of the portal (server/jobs/, issue 45: imports, webhooks, audit retention and
 * notifications all run on it): pg-boss 12 on the portal's own database (docs/decisions.md
 * "Notifications"). pg-boss talks to the database through its `db.executeSql` adapter, here the
 * portal's own connection (connect.ts rawSqlOf): the pg pool on PostgreSQL, the one embedded
 * connection on PGlite, so the default `npm start` needs nothing more. Its tables live in a schema
 * beside the portal's (db/job-schema.ts), created and migrated by pg-boss itself at start.
 *
 * Queues:
 * - `notification-email`: one job per e-mail notification, sent in the transaction that writes the
 *   notification (pg-boss `send` with the transaction as its `db`), so a committed notification
 *   always has its job and a rolled-back one never has. Policy `stately`, keyed by the
 *   notification id: at most one waiting job per notification, however often the sweep asks.
 *   Retries with backoff (screens/notifications.json `delivery`) while the mail server fails.
 * - `notification-sweep`: scheduled by pg-boss's own cron (once across every process), puts the
 *   e-mails that wait (no mail server configured yet) back on the queue and closes the ones a dead
 *   process left half-sent.
 * - `notification-push`: one job per push notification row (one recipient's device), stately by the
 *   row's id and sent in the transaction that writes it, like the e-mails; retried with the same
 *   backoff while the push service answers 429 or 5xx (issue 47).
 * Other scheduled work (the daily digest) adds its own queues to `boss` the same way.
 */
import { PgBoss, type Db, type Job, type JobResult } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import { CompiledQuery, sql, type Kysely } from 'kysely';
import { rawSqlOf } from '../db/connect.ts';
import { jobQueueSchema } from '../db/job-schema.ts';
import { requeueRetiredJobs, setAsideOldQueueSchema } from './queue-upgrade.ts';
import type { DB } from '../db/types.generated.ts';
import { queuedBy, runJob, type QueuedBy } from './job-log.ts';

/** What the e-mail queue retries by (screens/notifications.json `delivery`, read by notifications/events.ts). */
export interface EmailQueueSettings { retryLimit: number; retryDelaySeconds: number; retryBackoff: boolean; sweepEveryMinutes: number }

export const EMAIL_QUEUE = 'notification-email';
export const SWEEP_QUEUE = 'notification-sweep';
/** One job per push notification row (one device), like the e-mails' (issue 47). */
export const PUSH_QUEUE = 'notification-push';

/** A finished job's row is kept a week, for the administrators' questions. */
export const JOB_HISTORY_SECONDS = 7 * 24 * 3600;

/** Longest an e-mail job may run before pg-boss counts it as failed (SMTP time-outs are 10 + 10 + 20 s). */
const EMAIL_JOB_SECONDS = 300;

/** Jobs queued by one statement. */
const INSERT_CHUNK = 1_000;

/**
 * Works a queue `concurrency` jobs at once in this process, fetched in batches: a few workers each
 * fetch up to a batch, run its jobs side by side and settle each by its own outcome in one
 * statement (pg-boss `perJobResults`: a job whose handler threw fails, and is retried by its
 * queue's policy). A worker that found jobs asks for more at once (`notifyWorker`); an idle one
 * waits out the polling interval. Fetching and settling one at a time cost two statements per job.
 */
export async function workInBatches<T extends object>(
  boss: PgBoss, queue: string, options: { concurrency: number; pollingIntervalSeconds: number },
  handle: (job: Job<T>) => Promise<unknown>,
): Promise<void> {
  const workers = Math.max(1, Math.min(4, Math.floor(options.concurrency / 4)));
  const batchSize = Math.max(1, Math.ceil(options.concurrency / workers));
  for (let i = 0; i < workers; i++) {
    let worker: string | undefined;
    worker = await boss.work<T>(queue, { pollingIntervalSeconds: options.pollingIntervalSeconds, batchSize, perJobResults: true }, async (jobs) => {
      try {
        return await Promise.all(jobs.map(async (job): Promise<JobResult> => {
          try {
            await handle(job);
            return { id: job.id, status: 'completed' };
          } catch (error) {
            return { id: job.id, status: 'failed', output: { message: error instanceof Error ? error.message : String(error) } };
          }
        }));
      } finally {
        if (worker && jobs.length) boss.notifyWorker(worker);
      }
    });
  }
}

export interface JobQueueOptions {
  /** How often an idle worker asks for new jobs (pg-boss pollingIntervalSeconds, at least 0.5). */
  pollingIntervalSeconds: number;
  /** E-mails sent at once by this process. */
  concurrency: number;
  onError(error: Error): void;
  /** The jobs' log: one line per job with its id and the request that queued it (job-log.ts). */
  log: FastifyBaseLogger;
}

/** pg-boss's adapter over a kysely connection or transaction: its statements run in it. */
export function executorOf(db: Kysely<DB>): Db {
  return {
    async executeSql(text, values) {
      const result = await db.executeQuery(CompiledQuery.raw(text, values ?? []));
      return { rows: result.rows };
    },
  };
}

/** pg-boss's `createQueue` statement (plans.js: `SELECT <schema>.create_queue($1, $2)`). */
const CREATE_QUEUE = /^\s*SELECT\s+\S+\.create_queue\(/i;

/**
 * Processes that create the same queues at the same moment (a fleet's first start on an empty
 * schema) could deadlock in pg-boss 10, and PostgreSQL ended one of them, whose start-up then
 * failed. The statement is idempotent (ON CONFLICT DO NOTHING), so the one PostgreSQL chose is run
 * again; kept with pg-boss 12, whose tests of several processes (tests/cluster) still start at once.
 */
async function againOnDeadlock<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run();
    } catch (error) {
      if ((error as { code?: string }).code !== '40P01' || attempt >= 5) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt * (1 + Math.random())));
    }
  }
}

export class JobQueue {
  readonly boss: PgBoss;
  readonly schema: string;
  #started = false;

  private constructor(boss: PgBoss, schema: string, private readonly db: Kysely<DB>, private readonly options: JobQueueOptions) {
    this.boss = boss;
    this.schema = schema;
  }

  /** A queue on the database of `db` (not started). */
  static async open(db: Kysely<DB>, options: JobQueueOptions): Promise<JobQueue> {
    const raw = rawSqlOf(db);
    if (!raw) throw new Error('the job queue needs a database opened by server/db/connect.ts');
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
    const schema = jobQueueSchema(rows[0].schema);
    const boss = new PgBoss({
      db: { executeSql: (text, values) => (CREATE_QUEUE.test(text) ? againOnDeadlock(() => raw(text, values)) : raw(text, values)) },
      schema,
    });
    boss.on('error', (error) => options.onError(error));
    return new JobQueue(boss, schema, db, options);
  }

  /** Creates or migrates pg-boss's schema (under its own lock), its queues, and the sweep's schedule. */
  async start(delivery: EmailQueueSettings): Promise<void> {
    // a queue pg-boss 10 made is set aside first: pg-boss 12 cannot migrate it (queue-upgrade.ts)
    const upgrading = await setAsideOldQueueSchema(this.db, this.schema);
    await this.boss.start();
    this.#started = true;
    const email = {
      policy: 'stately' as const,
      retryLimit: delivery.retryLimit,
      retryDelay: delivery.retryDelaySeconds,
      retryBackoff: delivery.retryBackoff,
      expireInSeconds: EMAIL_JOB_SECONDS,
      deleteAfterSeconds: JOB_HISTORY_SECONDS,
    };
    await this.boss.createQueue(EMAIL_QUEUE, email);
    // the configuration may have changed the retries since the queue was made
    const { policy: _policy, ...changeable } = email; // a queue's policy is fixed at creation
    await this.boss.updateQueue(EMAIL_QUEUE, changeable);
    await this.boss.createQueue(PUSH_QUEUE, email);
    await this.boss.updateQueue(PUSH_QUEUE, changeable);
    await this.boss.createQueue(SWEEP_QUEUE, { policy: 'singleton', deleteAfterSeconds: JOB_HISTORY_SECONDS });
    await this.boss.schedule(SWEEP_QUEUE, `*/${delivery.sweepEveryMinutes} * * * *`);
    if (upgrading) await requeueRetiredJobs(this.db, this.schema, EMAIL_QUEUE, (trx, ids) => this.enqueueEmails(trx, ids));
  }

  get started(): boolean {
    return this.#started;
  }

  /** Runs the handlers in this process: each e-mail job (its notification id), each push job, and the sweep. */
  async work(deliver: (notificationId: number) => Promise<void>, sweep: () => Promise<void>, push?: (notificationId: number) => Promise<void>): Promise<void> {
    const every = { pollingIntervalSeconds: this.options.pollingIntervalSeconds, batchSize: 1 };
    await workInBatches(this.boss, EMAIL_QUEUE, { concurrency: this.options.concurrency, pollingIntervalSeconds: this.options.pollingIntervalSeconds }, (job: Job<{ id: number } & QueuedBy>) =>
      runJob(this.options.log, EMAIL_QUEUE, job, () => deliver(Number(job.data.id)), { notificationId: Number(job.data.id) }));
    if (push) {
      await workInBatches(this.boss, PUSH_QUEUE, { concurrency: this.options.concurrency, pollingIntervalSeconds: this.options.pollingIntervalSeconds }, (job: Job<{ id: number } & QueuedBy>) =>
        runJob(this.options.log, PUSH_QUEUE, job, () => push(Number(job.data.id)), { notificationId: Number(job.data.id) }));
    }
    await this.boss.work(SWEEP_QUEUE, every, async ([job]) => runJob(this.options.log, SWEEP_QUEUE, job, sweep));
  }

  /**
   * Puts e-mail notifications (or push ones, on PUSH_QUEUE) on the queue; inside `db`'s transaction when it is one. Already
   * waiting: nothing happens (the queue is stately, keyed by the notification). One statement per
   * thousand, so that a backlog of ten thousand is queued again in a moment.
   */
  async enqueueEmails(db: Kysely<DB>, notificationIds: readonly number[], queue: typeof EMAIL_QUEUE | typeof PUSH_QUEUE = EMAIL_QUEUE): Promise<void> {
    if (!this.#started) return;
    const executor = executorOf(db);
    const by = queuedBy(); // who queued them, for the jobs' log lines (job-log.ts)
    for (let i = 0; i < notificationIds.length; i += INSERT_CHUNK) {
      const jobs = notificationIds.slice(i, i + INSERT_CHUNK).map((id) => ({ data: { id, ...by }, singletonKey: String(id) }));
      await this.boss.insert(queue, jobs, { db: executor });
    }
  }

  /** Stops fetching, lets the jobs in hand finish (up to timeoutMs), and leaves the database to its owner. */
  async stop(timeoutMs: number): Promise<void> {
    if (!this.#started) return;
    this.#started = false;
    await this.boss.stop({ graceful: true, close: false, timeout: timeoutMs });
  }
}
