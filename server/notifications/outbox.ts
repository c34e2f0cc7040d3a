/**
 * The outbox: notifications written in the transaction of the change that causes them. Called by
 * the code that makes the change (an order's transition, a confirmed estimate, a reported damage)
 * with its own transaction; a change that rolls back takes its notifications with it, and one
 * that commits has them and their e-mail jobs (queue.ts) for sure.
 *
 * One row per recipient and channel, for the recipients of the event's kinds (recipients.ts) whose
 * role may receive it and whose settings have it on, never the person who made the change. The
 * dedupe key `event:entity:entityId:seq:userId:channel` is unique in the database, so the same
 * occurrence (`seq`: the order's transition row, the damage itself …) is never queued twice for
 * one person, whichever process or retry tries.
 */
import type { Kysely } from 'kysely';
import type { NotificationsFile } from '../../runtime/core/generated/meta.ts';
import type { DB } from '../db/types.generated.ts';
import { jsonb } from '../db/value-types.ts';
import { eventsFor, type NotificationEvent, type Occurrence, type Role } from './events.ts';
import { findRecipients, type RecipientKind, type RecordFacts } from './recipients.ts';
import { effectiveSettings, storedSettings } from './settings.ts';

export interface EventFacts {
  occurrence: Occurrence;
  /** The record (its resource's key) the event is about; none for a digest. */
  entityId?: number;
  /** Distinguishes occurrences on one record (the transition's id); the record's own id when it happens once. */
  seq: string | number;
  /** Who made the change: left out of the recipients. */
  actorUserId?: number;
  /** The record's client, station and reporter's e-mail, as the transaction sees them. */
  record: RecordFacts;
  /** Facts of the occurrence the texts may name ({{status}}, {{by}} …); no prices (they are judged per recipient when rendered). */
  payload?: Record<string, unknown>;
  /** The one user of a `self` recipient (a digest is queued for each user). */
  self?: number;
}

export interface Queued {
  event: string;
  id: number;
  userId: number;
  channel: 'email' | 'inApp';
}

export function dedupeKey(event: NotificationEvent, facts: EventFacts, userId: number, channel: string): string {
  return [event.id, event.resource ?? '-', facts.entityId ?? '-', facts.seq, userId, channel].join(':');
}

/** Writes the notifications of an occurrence in `trx`; answers the rows written (a row already there is not written again). */
export async function writeNotifications(trx: Kysely<DB>, file: NotificationsFile, facts: EventFacts): Promise<Queued[]> {
  const queued: Queued[] = [];
  for (const event of eventsFor(file, facts.occurrence)) {
    const people = (await findRecipients(trx, event.recipients as RecipientKind[], facts.record, event.roles as Role[], facts.self))
      .filter((p) => p.id !== facts.actorUserId);
    if (people.length === 0) continue;
    const stored = await storedSettings(trx, people.map((p) => p.id));
    const rows = people
      .filter((p) => effectiveSettings(file, p.rola, stored.get(p.id)).events[event.id] !== false)
      .flatMap((p) => (event.channels as ('email' | 'inApp')[])
        .filter((channel) => channel !== 'email' || Boolean(p.email))
        .map((channel) => ({
          event: event.id, userId: p.id, channel, email: channel === 'email' ? p.email : null,
          entity: event.resource ?? null, entityId: facts.entityId ?? null, payload: jsonb(facts.payload ?? {}),
          dedupeKey: dedupeKey(event, facts, p.id, channel),
          // the bell needs no delivery: its row is there to be read
          state: channel === 'inApp' ? 'sent' : 'queued',
          sentAt: channel === 'inApp' ? new Date() : null,
        })));
    if (rows.length === 0) continue;
    const written = await trx.insertInto('notification').values(rows)
      .onConflict((oc) => oc.column('dedupeKey').doNothing())
      .returning(['id', 'userId', 'channel']).execute();
    queued.push(...written.map((r) => ({ event: event.id, id: r.id, userId: r.userId, channel: r.channel as Queued['channel'] })));
  }
  return queued;
}
