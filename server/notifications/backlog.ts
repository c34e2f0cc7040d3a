/**
 * The e-mails not delivered yet, for the metrics (issue 33: the outbox's delivery lag). Undelivered
 * is every e-mail notification that delivery (delivery.ts) will still try by itself:
 * - queued: its job has not run yet, or no mail server is configured (NO_SMTP, the sweep puts it
 *   back on the queue);
 * - sending: a process is sending it (or died doing so, until the sweep closes it as INTERRUPTED);
 * - failed by the mail server with retries left: pg-boss runs its job again with backoff.
 * Not counted: sent and skipped ones, and failed ones that nothing retries by itself (retries used
 * up, INTERRUPTED): those wait for an administrator's "send again" and are counted by
 * `portal_emails_failed_total` when they fail.
 *
 * Both parts are read through partial indexes (migration 016's pending index; 019's failed one),
 * so the cost does not grow with the notifications delivered.
 */
import { sql, type Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { REASON } from './delivery.ts';

export interface Backlog {
  /** E-mails not delivered yet. */
  count: number;
  /** Age of the oldest of them, by the database's clock; 0 when none waits. */
  oldestAgeSeconds: number;
}

/** `retryLimit`: the delivery's retries (screens/notifications.json `delivery`); an e-mail is tried at most 1 + retryLimit times. */
export async function emailBacklog(db: Kysely<DB>, retryLimit: number): Promise<Backlog> {
  const pending = db.selectFrom('notification').where('channel', '=', 'email').where('state', 'in', ['queued', 'sending']);
  const retrying = db.selectFrom('notification').where('channel', '=', 'email').where('state', '=', 'failed')
    .where(sql`coalesce("lastError", '')`, '<>', REASON.interrupted).where('attempts', '<=', retryLimit);
  const part = (q: typeof pending) => q.select([sql<number>`count(*)::int`.as('n'), sql<Date | null>`min("createdAt")`.as('oldest')]);
  const { rows } = await sql<{ n: number; age: number | string | null }>`
    select sum(n)::int as n, extract(epoch from now() - min(oldest))::float8 as age
    from (${part(pending)} union all ${part(retrying)}) parts`.execute(db);
  const row = rows[0];
  return { count: Number(row?.n ?? 0), oldestAgeSeconds: Math.max(0, Number(row?.age ?? 0)) };
}
