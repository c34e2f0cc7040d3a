/**
 * The notifications of the configuration (screens/notifications.json, overlaid per variant): which
 * events an occurrence (an order entering a status, a confirmed estimate, a reported damage, a
 * scheduled digest) raises, which of them a role may receive, each role's defaults and how
 * e-mails are retried. Only reads the configuration; nothing here touches the database.
 */
import type { NotificationEvent, NotificationRoleDefaults, NotificationsFile } from '../../runtime/core/generated/meta.ts';
import type { Bundle } from '../config/bundle.ts';
import { linksOf } from '../config/notifications-check.ts';

export type Role = 'ADMIN' | 'MANAGER' | 'USER' | 'ADVISOR';
export type { NotificationEvent };

/** What happened, as the code that made it happen says it (the triggers of the meta-schema). */
export type Occurrence =
  | { kind: 'orderStatusEntered'; status: number }
  | { kind: 'estimateConfirmed' }
  | { kind: 'damageCreated' }
  | { kind: 'fuelAnomaliesFound' }
  | { kind: 'inspectionFailed' }
  | { kind: 'dailyDigest' }
  | { kind: 'failureSummary' }
  | { kind: 'webhookDisabled' }
  | { kind: 'reportSubscription' }
  | { kind: 'remindersDue' };

const EMPTY: NotificationsFile = { schemaVersion: 1, type: 'notifications', events: [], defaults: {} };

/** The file of the bundle; a configuration without one notifies nobody. */
export function notificationsFile(bundle: Bundle): NotificationsFile {
  return (bundle.screens.notifications as unknown as NotificationsFile | undefined) ?? EMPTY;
}

/** An event's links, in the order they are tried (config/notifications-check.ts, which checks them, holds it). */
export { linksOf };

export function eventById(file: NotificationsFile, id: string): NotificationEvent | undefined {
  return file.events.find((e) => e.id === id);
}

/** The events an occurrence raises. */
export function eventsFor(file: NotificationsFile, occurrence: Occurrence): NotificationEvent[] {
  return file.events.filter((e) => {
    if (e.trigger.kind !== occurrence.kind) return false;
    return occurrence.kind !== 'orderStatusEntered' || ('statuses' in e.trigger && e.trigger.statuses.includes(occurrence.status));
  });
}

/**
 * The events a role may receive, in the file's order (the settings page offers these); the daily
 * digest has its own switch and hour, a subscribed report its subscription (Raporty).
 */
export function eventsOfRole(file: NotificationsFile, role: Role): NotificationEvent[] {
  return file.events.filter((e) => e.roles.includes(role) && e.trigger.kind !== 'dailyDigest' && e.trigger.kind !== 'reportSubscription');
}

/** A role's defaults; a role the file does not name gets every event it may receive, no digest. */
export function roleDefaults(file: NotificationsFile, role: Role): NotificationRoleDefaults {
  return file.defaults[role] ?? { events: eventsOfRole(file, role).map((e) => e.id), digest: false, digestHour: 7 };
}

export interface DeliverySettings {
  retryLimit: number;
  retryDelaySeconds: number;
  retryBackoff: boolean;
  sweepEveryMinutes: number;
  sendingTimeoutMinutes: number;
  /** E-mails one process renders and sends at once. */
  concurrency: number;
  /** Connections one process keeps open to the SMTP server (nodemailer's pool): at most this many messages on the wire at once. */
  smtpConnections: number;
  /** While the SMTP server cannot be reached, how often a process asks whether it is back (and then sends what waited). */
  probeSeconds: number;
}

const DELIVERY_DEFAULTS: DeliverySettings = {
  retryLimit: 8, retryDelaySeconds: 30, retryBackoff: true, sweepEveryMinutes: 1, sendingTimeoutMinutes: 15,
  concurrency: 16, smtpConnections: 5, probeSeconds: 10,
};

export function deliverySettings(file: NotificationsFile): DeliverySettings {
  return { ...DELIVERY_DEFAULTS, ...file.delivery };
}
