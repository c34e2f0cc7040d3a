/**
 * The audit trail's retention (issue 37, docs/decisions.md "Audit trail (issue 37)", "Retention"):
 * entries older than the configured period (screens/app.json `audit.keepDays`) are removed, the
 * oldest first, through the database's one door for it (`audit_remove_expired`, migration 031),
 * which moves the checkpoint (`audit_retention`: the last removed entry's sequence number and hash)
 * with every row. The removal is itself an entry of the trail, in the same transaction, naming how
 * many went, up to which sequence number and time, and the last removed hash — so the chain's new
 * start is both in the checkpoint and in the chain, and `--verify` checks one against the other.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { systemActor } from './actor.ts';
import { recordChange } from './record.ts';

/** The job's name in the trail (its entries' actor) and its queue. */
export const RETENTION_JOB = 'audit-retention';
/** Rows removed per transaction: a long backlog goes in several, each recorded. */
export const RETENTION_BATCH = 50_000;
const DAY = 86_400_000;

export interface RetentionResult { removed: number; throughSeq: number; lastHash: string; throughAt: string | null }

/**
 * Removes, in one transaction, at most `batch` of the oldest entries older than `keepDays`, and
 * records the removal. Nothing to remove: nothing happens, nothing is recorded.
 */
export async function removeExpiredEntries(db: Kysely<DB>, options: { keepDays: number; now?: Date; batch?: number }): Promise<RetentionResult | null> {
  const cutoff = new Date((options.now ?? new Date()).getTime() - options.keepDays * DAY);
  return db.transaction().execute(async (trx) => {
    // one retention at a time (a second process's job waits here, then finds its rows gone)
    await sql`select "seq" from audit_retention where "id" = 1 for update`.execute(trx);
    const { rows } = await sql<{ removed: string | number }>`select audit_remove_expired(${cutoff.toISOString()}::timestamptz, ${options.batch ?? RETENTION_BATCH}) as removed`.execute(trx);
    const removed = Number(rows[0]?.removed ?? 0);
    if (removed === 0) return null;
    const checkpoint = await trx.selectFrom('audit_retention').select(['seq', 'hash', 'at']).where('id', '=', 1).executeTakeFirstOrThrow();
    const result: RetentionResult = {
      removed, throughSeq: Number(checkpoint.seq), lastHash: checkpoint.hash, throughAt: checkpoint.at ? new Date(checkpoint.at).toISOString() : null,
    };
    await recordChange(trx, {
      actor: systemActor(RETENTION_JOB), resource: 'audit', recordKey: null, action: 'retention',
      changes: { removed: [null, removed], throughSeq: [null, result.throughSeq], throughAt: [null, result.throughAt], lastHash: [null, result.lastHash], keepDays: [null, options.keepDays] },
    });
    return result;
  });
}

/** Every batch until nothing older than the period is left. */
export async function removeAllExpired(db: Kysely<DB>, options: { keepDays: number; now?: Date; batch?: number }): Promise<number> {
  let total = 0;
  for (;;) {
    const done = await removeExpiredEntries(db, options);
    if (!done) return total;
    total += done.removed;
  }
}
