/**
 * The outbox: notifications written in the transaction of the change that causes them. Called by
 * the code that makes the change (an order's transition, a confirmed estimate, a reported damage)
 * with its own transaction; a change that rolls back takes its notifications with it, and one
 * that commits has them and their e-mail jobs (queue.ts) for sure.
 *
 * One row per recipient and channel (push: per recipient and device), for the recipients of the event's kinds (recipients.ts) whose
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
  channel: Channel;
}

export type Channel = 'email' | 'inApp' | 'push';

export function dedupeKey(event: NotificationEvent, facts: EventFacts, userId: number, channel: string): string {
  return [event.id, event.resource ?? '-', facts.entityId ?? '-', facts.seq, userId, channel].join(':');
}

/** The push subscriptions (devices) of some people, by person. */
async function devicesOf(trx: Kysely<DB>, userIds: number[]): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (userIds.length === 0) return out;
  const rows = await trx.selectFrom('push_subscription').select(['id', 'userId']).where('userId', 'in', userIds).orderBy('id').execute();
  for (const row of rows) out.set(row.userId, [...(out.get(row.userId) ?? []), row.id]);
  return out;
}

/** Writes the notifications of an occurrence in `trx`; answers the rows written (a row already there is not written again). */
export async function writeNotifications(trx: Kysely<DB>, file: NotificationsFile, facts: EventFacts): Promise<Queued[]> {
  const queued: Queued[] = [];
  for (const event of eventsFor(file, facts.occurrence)) {
    const people = (await findRecipients(trx, event.recipients as RecipientKind[], facts.record, event.roles as Role[], facts.self))
      .filter((p) => p.id !== facts.actorUserId);
    if (people.length === 0) continue;
    const stored = await storedSettings(trx, people.map((p) => p.id));
    const receiving = people.filter((p) => effectiveSettings(file, p.rola, stored.get(p.id)).events[event.id] !== false);
    // push: one row per device the person subscribed (issue 47), each sent once on its own
    const devices = event.channels.includes('push') ? await devicesOf(trx, receiving.map((p) => p.id)) : new Map<number, number[]>();
    const rows = receiving
      .flatMap((p) => (event.channels as Channel[])
        .filter((channel) => channel !== 'email' || Boolean(p.email))
        .flatMap((channel) => (channel === 'push' ? (devices.get(p.id) ?? []) : [null]).map((device) => ({
          event: event.id, userId: p.id, channel, email: channel === 'email' ? p.email : null,
          entity: event.resource ?? null, entityId: facts.entityId ?? null, payload: jsonb(facts.payload ?? {}),
          dedupeKey: dedupeKey(event, facts, p.id, device === null ? channel : `${channel}:${device}`),
          pushSubscriptionId: device,
          // the bell needs no delivery: its row is there to be read
          state: channel === 'inApp' ? 'sent' : 'queued',
          sentAt: channel === 'inApp' ? new Date() : null,
        }))));
    if (rows.length === 0) continue;
    const written = await trx.insertInto('notification').values(rows)
      .onConflict((oc) => oc.column('dedupeKey').doNothing())
      .returning(['id', 'userId', 'channel']).execute();
    queued.push(...written.map((r) => ({ event: event.id, id: r.id, userId: r.userId, channel: r.channel as Queued['channel'] })));
  }
  return queued;
}
