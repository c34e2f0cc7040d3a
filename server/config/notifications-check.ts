/**
 * What the configuration check asks of screens/notifications.json beyond its meta-schema: unique
 * event ids; a record event names a resource that exists (and, for an order status, a status some
 * declared transition of that resource enters, or it would never fire); a recipient kind fits the
 * event's roles; the link's route and id field exist; every text exists; each role's defaults name
 * only events that role may receive. Called by server/config/cross-check.ts, so a broken file stops
 * start-up and reload with the file and JSON pointer.
 */
import type { NotificationEvent, NotificationLink, NotificationRole, NotificationsFile } from '../../runtime/core/generated/meta.ts';
import type { ScreenCheckContext } from '../../runtime/core/screen-checks/check-context.ts';

/** Triggers about a record: they need the record's resource. */
const RECORD_TRIGGERS = new Set(['orderStatusEntered', 'estimateConfirmed', 'damageCreated', 'inspectionFailed']);
/** The role a recipient kind can only be. */
const KIND_ROLE: Record<string, NotificationRole> = { clientManagers: 'MANAGER', stationAdvisors: 'ADVISOR', admins: 'ADMIN' };

/** An event's links, in the order they are tried (one link, or a list of them). */
export function linksOf(event: Pick<NotificationEvent, 'link'>): NotificationLink[] {
  return event.link === undefined ? [] : Array.isArray(event.link) ? event.link : [event.link];
}

export function checkNotifications(file: NotificationsFile, ctx: ScreenCheckContext, routePaths: ReadonlySet<string>): void {
  const seen = new Set<string>();
  file.events.forEach((event, i) => {
    const at = (path: string) => `/events/${i}${path}`;
    if (seen.has(event.id)) ctx.problem(at('/id'), `event "${event.id}" is declared twice`);
    seen.add(event.id);
    const resource = event.resource ? ctx.resources[event.resource] : undefined;
    if (event.resource && !resource) ctx.problem(at('/resource'), `"${event.resource}" is not a resource of schemas/resources/`);
    if (RECORD_TRIGGERS.has(event.trigger.kind) && !event.resource) ctx.problem(at('/resource'), `a "${event.trigger.kind}" event needs the resource of its record`);
    if (event.trigger.kind === 'orderStatusEntered' && resource) {
      const entered = new Set((resource.rules?.transitions ?? []).map((t) => t.to));
      event.trigger.statuses.forEach((status, j) => {
        if (!entered.has(status)) ctx.problem(at(`/trigger/statuses/${j}`), `no transition of "${event.resource}" enters status ${status}`);
      });
    }
    event.recipients.forEach((kind, j) => {
      const role = KIND_ROLE[kind];
      if (role && !event.roles.includes(role)) ctx.problem(at(`/recipients/${j}`), `"${kind}" are ${role} users, and the event's roles leave ${role} out`);
    });
    for (const key of ['label', 'subject', 'body', 'title', 'text', 'price'] as const) {
      if (event[key]) ctx.needKey(at(`/${key}`), event[key]!);
    }
    (event.facts ?? []).forEach((fact, j) => {
      ctx.needKey(at(`/facts/${j}/label`), fact.label);
      ctx.needKey(at(`/facts/${j}/value`), fact.value);
    });
    linksOf(event).forEach((link, j) => {
      const ptr = Array.isArray(event.link) ? `/link/${j}` : '/link';
      if (!routePaths.has(link.route)) ctx.problem(at(`${ptr}/route`), `"${link.route}" is not the path of a route`);
      if (link.idField && resource) ctx.needField(at(`${ptr}/idField`), resource.entity, link.idField);
      // a link with an id field opens a record of the event's resource; without one it opens the route (a digest's cockpit)
      if (link.idField && !resource) ctx.problem(at(ptr), 'a link naming an id field opens a record: the event needs its resource');
      if (link.label) ctx.needKey(at(`${ptr}/label`), link.label);
    });
  });
  for (const [role, defaults] of Object.entries(file.defaults)) {
    defaults?.events.forEach((id, j) => {
      const event = file.events.find((e) => e.id === id);
      if (!event) ctx.problem(`/defaults/${role}/events/${j}`, `"${id}" is not an event of this file`);
      else if (!event.roles.includes(role as NotificationRole)) ctx.problem(`/defaults/${role}/events/${j}`, `${role} may not receive "${id}" (its roles)`);
    });
  }
  for (const key of ['greeting', 'open', 'button', 'copyLink', 'settings', 'footer'] as const) {
    const text = file.mail?.[key];
    if (text) ctx.needKey(`/mail/${key}`, text);
  }
}
