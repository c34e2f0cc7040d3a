/**
 * The audit trail's retention job (issue 37): once a day, on the notifications' pg-boss queue
 * (pg-boss's cron, so one process runs it whatever their number), entries older than
 * screens/app.json `audit.keepDays` are removed and the removal recorded (./retention.ts).
 */
import fp from 'fastify-plugin';
import { JOB_HISTORY_SECONDS } from '../jobs/queue.ts';
import { runJob } from '../jobs/job-log.ts';
import { removeAllExpired, RETENTION_JOB } from './retention.ts';

/** Days kept when the configuration names none (docs/decisions.md "Retention"). */
export const DEFAULT_KEEP_DAYS = 730;

export default fp(async (app) => {
  const keepDays = () => (app.config.bundle.app.audit?.keepDays as number | undefined) ?? DEFAULT_KEEP_DAYS;
  app.notifications.whenStarted(async (queue) => {
    await queue.boss.createQueue(RETENTION_JOB, { policy: 'singleton', deleteAfterSeconds: JOB_HISTORY_SECONDS });
    // every night at 02:40 (UTC), away from the digest's quarter hours
    await queue.boss.schedule(RETENTION_JOB, '40 2 * * *');
    await queue.boss.work(RETENTION_JOB, async ([job]) => {
      await runJob(app.log, RETENTION_JOB, job, async () => {
        const removed = await removeAllExpired(app.db, { keepDays: keepDays() });
        if (removed) app.log.info({ removed, keepDays: keepDays() }, 'audit retention removed old entries');
      });
    });
  });
}, { name: 'audit-retention', dependencies: ['notifications'] });
