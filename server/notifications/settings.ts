/**
 * Each user's choice of notifications (Ustawienia → Powiadomienia): which events, the daily digest
 * on or off and its hour. What a user never changed follows their role's defaults in
 * screens/notifications.json, so the stored row keeps only the user's own answers and a changed
 * default reaches everyone who did not choose otherwise.
 */
import type { Kysely } from 'kysely';
import { jsonb } from '../db/value-types.ts';
import type { NotificationsFile } from '../../runtime/core/generated/meta.ts';
import type { DB } from '../db/types.generated.ts';
import { eventsOfRole, roleDefaults, type Role } from './events.ts';

export interface Settings {
  events: Record<string, boolean>;
  digest: boolean;
  digestHour: number;
}

interface Stored {
  events: unknown;
  digest: boolean | null;
  digestHour: number | null;
}

/** The settings in force: the role's defaults, overlaid by what the user chose, for the events the role may receive. */
export function effectiveSettings(file: NotificationsFile, role: Role, stored: Stored | undefined): Settings {
  const defaults = roleDefaults(file, role);
  const chosen = (stored?.events ?? {}) as Record<string, unknown>;
  const events: Record<string, boolean> = {};
  for (const event of eventsOfRole(file, role)) {
    events[event.id] = typeof chosen[event.id] === 'boolean' ? (chosen[event.id] as boolean) : defaults.events.includes(event.id);
  }
  return {
    events,
    digest: stored?.digest ?? defaults.digest,
    digestHour: stored?.digestHour ?? defaults.digestHour,
  };
}

/** The stored choices of some users, by user id (one query for every recipient of an event). */
export async function storedSettings(db: Kysely<DB>, userIds: readonly number[]): Promise<Map<number, Stored>> {
  if (userIds.length === 0) return new Map();
  const rows = await db.selectFrom('notification_setting').select(['userId', 'events', 'digest', 'digestHour'])
    .where('userId', 'in', [...userIds]).execute();
  return new Map(rows.map((r) => [r.userId, r]));
}

/** Event ids of a request that the role is not offered (each is a 400 naming the field). */
export function unofferedEvents(file: NotificationsFile, role: Role, events: Record<string, boolean>): string[] {
  const offered = new Set(eventsOfRole(file, role).map((e) => e.id));
  return Object.keys(events).filter((id) => !offered.has(id));
}

/** Writes the user's choices whole (an upsert: one statement, so two saves at once leave one of them, never a mix). */
export async function saveSettings(db: Kysely<DB>, userId: number, settings: Settings): Promise<void> {
  const values = { events: jsonb(settings.events), digest: settings.digest, digestHour: settings.digestHour, updatedAt: new Date() };
  await db.insertInto('notification_setting').values({ userId, ...values })
    .onConflict((oc) => oc.column('userId').doUpdateSet(values)).execute();
}
