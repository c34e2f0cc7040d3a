/**
 * An installation whose job queue pg-boss 10 made starts on pg-boss 12 (issue 33): the old schema
 * (version 24, which 12 cannot migrate) is set aside, pg-boss 12 makes its own, and the e-mail jobs
 * the old queue still had to run are queued again, once, before the old schema is dropped.
 * The old schema is pg-boss 10's own construction script (fixtures/pgboss-10-schema.sql, taken from
 * pg-boss 10.4.2's getConstructionPlans), so the test starts from what such an installation has.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSqlOf } from '../db/connect.ts';
import { jobQueueSchema } from '../db/job-schema.ts';
import { openTestDatabase, testBackends, type TestDatabase } from '../seed/testing.ts';
import { EMAIL_QUEUE, JobQueue } from './queue.ts';
import { retiredSchemaOf } from './queue-upgrade.ts';

const PG_BOSS_10 = readFileSync(new URL('./fixtures/pgboss-10-schema.sql', import.meta.url), 'utf8');
const DELIVERY = { retryLimit: 3, retryDelaySeconds: 30, retryBackoff: true, sweepEveryMinutes: 1, sendingTimeoutMinutes: 15, concurrency: 2, smtpConnections: 2, probeSeconds: 10 };
const QUEUE_OPTIONS = { pollingIntervalSeconds: 1, concurrency: 1, onError: () => undefined, log: Fastify({ logger: false }).log };

describe.each(testBackends)('the job queue of pg-boss 10 on %s', (kind) => {
  let t: TestDatabase;
  let schema: string;
  beforeAll(async () => {
    t = await openTestDatabase({ kind });
    const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(t.db);
    schema = jobQueueSchema(rows[0].schema);
    // the queue as pg-boss 10 left it: its schema, the e-mail queue, and jobs in every state
    await rawSqlOf(t.db)!(PG_BOSS_10.replaceAll('__SCHEMA__', schema));
    await sql`select ${sql.raw(schema)}.create_queue(${EMAIL_QUEUE}, '{"policy":"stately"}'::json)`.execute(t.db);
    const job = sql.table(`${schema}.job`);
    for (const [id, state] of [[101, 'created'], [102, 'retry'], [103, 'active'], [104, 'completed'], [105, 'failed']] as const) {
      await sql`insert into ${job} (name, data, state) values (${EMAIL_QUEUE}, ${JSON.stringify({ id })}::jsonb, ${state}::${sql.raw(schema)}.job_state)`.execute(t.db);
    }
  }, 60_000);
  afterAll(async () => t?.close());

  const queuedIds = async (queue: JobQueue) =>
    (await queue.boss.findJobs<{ id: number }>(EMAIL_QUEUE)).filter((j) => j.state === 'created').map((j) => j.data.id).sort();

  it('is set aside, its waiting e-mail jobs are queued again on pg-boss 12, and it is dropped', async () => {
    const version = await sql<{ version: number }>`select version from ${sql.table(`${schema}.version`)}`.execute(t.db);
    expect(version.rows[0].version).toBe(24);

    const queue = await JobQueue.open(t.db, QUEUE_OPTIONS);
    await queue.start(DELIVERY);
    try {
      expect(await queue.boss.schemaVersion()).toBeGreaterThanOrEqual(25);
      // the jobs still to run (created, retry, active), not the finished ones
      expect(await queuedIds(queue)).toEqual([101, 102, 103]);
      const left = await sql<{ name: string }>`select schema_name as name from information_schema.schemata where schema_name = ${retiredSchemaOf(schema)}`.execute(t.db);
      expect(left.rows).toEqual([]);
    } finally {
      await queue.stop(1000);
    }

    // a later start finds pg-boss 12's schema and queues nothing again
    const again = await JobQueue.open(t.db, QUEUE_OPTIONS);
    await again.start(DELIVERY);
    try {
      expect(await queuedIds(again)).toEqual([101, 102, 103]);
    } finally {
      await again.stop(1000);
    }
  }, 120_000);
});
