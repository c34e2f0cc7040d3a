/**
 * How many jobs each queue of the job queue holds, by state: THE one place that reads pg-boss's
 * tables for the metrics, so that an upgrade of pg-boss has one function to check.
 *
 * Why SQL and not pg-boss's API: this was written while the portal moved from pg-boss 10 to 12.
 * pg-boss 10 has no counts per state (`getQueueSize` counts the jobs before a state, `getQueues`
 * gives each queue's settings only); 12's `getQueues`/`getQueueStats` give queued, active and failed
 * counts, but as its monitoring last cached them in the queue table (none until a pass counted them,
 * up to an hour old when monitoring is off). Both keep every job in `<schema>.job` (partitioned by
 * queue) with its queue's `name` and its `state` (created, retry, active, completed, cancelled,
 * failed), and every queue in `<schema>.queue`: the count here is exact on both. pg-boss 10 moved
 * finished jobs to `<schema>.archive`; 12 keeps them in `job` until deleted (deleteAfterDays, a
 * week here), so "failed" counts those still kept.
 *
 * One statement, a count grouped by queue and state; its cost grows with the jobs kept (a week of
 * e-mails): measured in docs/deployment.md "Metrics".
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import type { JobState } from './registry.ts';

export interface QueueCount {
  queue: string;
  state: JobState;
  count: number;
}

/** pg-boss's states as the metrics count them. */
const STATE_OF: Record<string, JobState> = { created: 'queued', retry: 'queued', active: 'active', failed: 'failed' };

/**
 * The counts of the queues in `schema` (db/job-schema.ts), every queue × state listed (0 when
 * none); none when pg-boss has not created its schema yet (a portal whose queue never started).
 */
export async function jobQueueCounts(db: Kysely<DB>, schema: string): Promise<QueueCount[]> {
  const exists = await sql<{ job: string | null }>`select to_regclass(${`"${schema}".job`}) as job`.execute(db);
  if (!exists.rows[0]?.job) return [];
  const { rows } = await sql<{ queue: string; state: string; count: number | string }>`
    select q.name as queue, j.state::text as state, count(j.state)::int as count
    from ${sql.table(`${schema}.queue`)} q
    left join ${sql.table(`${schema}.job`)} j on j.name = q.name and j.state in ('created', 'retry', 'active', 'failed')
    group by q.name, j.state`.execute(db);
  const counts = new Map<string, QueueCount>();
  for (const row of rows) {
    for (const state of ['queued', 'active', 'failed'] as const) {
      const key = `${row.queue}\u0000${state}`;
      if (!counts.has(key)) counts.set(key, { queue: row.queue, state, count: 0 });
    }
    const state = row.state === null ? undefined : STATE_OF[row.state];
    if (state) counts.get(`${row.queue}\u0000${state}`)!.count += Number(row.count);
  }
  return [...counts.values()];
}
