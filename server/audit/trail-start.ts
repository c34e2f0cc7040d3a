/**
 * Records older than the trail (issue 49): an order approved before the audit trail began has no
 * entry of its approval, and "Nie zapisano jeszcze żadnej zmiany" would say something untrue. A
 * record whose history holds no entry of its creation is older than what the trail knows of it: its
 * history says from which day changes are kept ("Zmiany sprzed 01.12.2026 nie są zapisane").
 */
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.generated.ts';
import { dateText } from '../../runtime/core/date-text.ts';

/**
 * The day (by `datePattern`, the reader's language's, in `timeZone`) since which the trail keeps changes, when the record's
 * entries do not begin with its creation; null when they do. The trail's first kept entry is read
 * from the index on "at" (its first row).
 */
export async function untrackedBefore(db: Kysely<DB>, entries: { action: string }[], more: boolean, timeZone: string, datePattern: string): Promise<string | null> {
  // more entries than shown: the oldest are left out, not missing
  if (more || entries.some((e) => e.action === 'create')) return null;
  const first = await db.selectFrom('audit_entry').select('at').orderBy('at').orderBy('id').limit(1).executeTakeFirst();
  return dateText(first ? new Date(first.at) : new Date(), timeZone, datePattern);
}
