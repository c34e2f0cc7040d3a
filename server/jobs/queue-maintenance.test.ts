/**
 * The job queue's own upkeep (pg-boss 12's supervision: maintenance walks and its command claims)
 * runs on the portal's database adapter without an error, on both backends. pg-boss sends some of
 * it as one script of several statements and looks for a particular statement's row among the
 * answers; an adapter that answered with the last statement only made every pass fail, logged as
 * "job queue error" once a minute while the queue's history was never trimmed.
 */
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase, testBackends, type TestDatabase } from '../seed/testing.ts';
import { EMAIL_QUEUE, JobQueue } from './queue.ts';

const DELIVERY = { retryLimit: 3, retryDelaySeconds: 30, retryBackoff: true, sweepEveryMinutes: 1, sendingTimeoutMinutes: 15, concurrency: 2, smtpConnections: 2, probeSeconds: 10 };

describe.each(testBackends)('the job queue\'s upkeep on %s', (kind) => {
  let t: TestDatabase;
  let queue: JobQueue;
  const errors: Error[] = [];
  beforeAll(async () => {
    t = await openTestDatabase({ kind });
    queue = await JobQueue.open(t.db, { pollingIntervalSeconds: 1, concurrency: 1, onError: (error) => errors.push(error), log: Fastify({ logger: false }).log });
    await queue.start(DELIVERY);
  }, 60_000);
  afterAll(async () => {
    await queue?.stop(1000);
    await t?.close();
  });

  it('passes its supervision and maintenance without an error', async () => {
    await queue.boss.send(EMAIL_QUEUE, { id: 1 });
    await queue.boss.supervise();
    await queue.boss.supervise(EMAIL_QUEUE);
    expect(errors.map((e) => e.message)).toEqual([]);
  });
});
