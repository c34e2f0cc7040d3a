/**
 * What a notification says, decided for its recipient when it is sent (an e-mail) or shown (the
 * bell), never when it was queued: the record is read through the recipient's own row scope at
 * that moment (visibility.ts), and prices appear only where the order's rules let the recipient
 * see them. Each event is rendered by the renderer registered for its id, else for its trigger
 * kind, else by the record renderer below; a scheduled message (the daily digest, the failure
 * summary) brings its own renderer, registered with `app.notifications.renderers.register`.
 */
import type { FastifyInstance } from 'fastify';
import type { ConditionEvaluator } from '../../runtime/core/conditions.ts';
import { orderTotals } from '../../runtime/core/order-values.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle } from '../config/bundle.ts';
import { localeOf, timeZoneOf } from '../config/locale.ts';
import { OrderRules, ruleCallerOf } from '../services/order-rules.ts';
import type { NotificationEvent } from './events.ts';
import { visibleRecord, type RecipientAccount } from './visibility.ts';

/** A stored notification, as a renderer gets it. */
export interface NotificationRow {
  id: number;
  event: string;
  userId: number;
  entity: string | null;
  entityId: number | null;
  payload: Record<string, unknown>;
  createdAt: Date;
}

export interface RenderContext {
  app: FastifyInstance;
  event: NotificationEvent;
  notification: NotificationRow;
  recipient: RecipientAccount;
  /** The recipient's variant: its configuration, conditions and texts. */
  variant: { bundle: Bundle; conditions: ConditionEvaluator; t: Translate };
}

export interface Rendered {
  subject: string;
  /** The e-mail's paragraphs, in order. */
  paragraphs: string[];
  /** The bell's title and text. */
  title: string;
  text: string;
  /** A path inside the portal (e.g. /app/order?open=12), or null when there is none the recipient may open. */
  link: string | null;
}

/** undefined: nothing may be said to this recipient (the record is out of their sight); the e-mail is skipped. */
export type Renderer = (context: RenderContext) => Promise<Rendered | undefined>;

export class Renderers {
  readonly #byKey = new Map<string, Renderer>();

  /** A renderer for an event id or a trigger kind (dailyDigest, failureSummary …). */
  register(key: string, renderer: Renderer): void {
    this.#byKey.set(key, renderer);
  }

  for(event: NotificationEvent): Renderer {
    return this.#byKey.get(event.id) ?? this.#byKey.get(event.trigger.kind) ?? renderRecordEvent;
  }
}

/** Values as a Polish reader reads them: dates in the portal's time zone, nothing for an empty value. */
export function textValues(values: Record<string, unknown>, config: Bundle['config']): Record<string, string> {
  const dateTime = new Intl.DateTimeFormat(localeOf(config), { dateStyle: 'short', timeStyle: 'short', timeZone: timeZoneOf(config) });
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined) out[name] = '';
    else if (value instanceof Date) out[name] = dateTime.format(value);
    else if (typeof value === 'object') continue;
    else out[name] = String(value);
  }
  return out;
}

/**
 * The link of an event for this recipient: its route (opening the record) when the route lets the
 * recipient's role in (screens/routes.json allowedWhen), else none — a driver is not sent to the
 * orders table they cannot open.
 */
export function linkFor(context: RenderContext, record: Record<string, unknown>): string | null {
  const { event, variant, recipient } = context;
  if (!event.link) return null;
  const routes = ((variant.bundle.screens.routes as any)?.routes ?? []) as { path: string; allowedWhen?: unknown }[];
  const route = routes.find((r) => r.path === event.link!.route);
  const who = { role: recipient.session.role, variant: variant.bundle.variant, config: variant.bundle.config };
  if (!route || (route.allowedWhen !== undefined && !variant.conditions.matches(route.allowedWhen as any, who as any))) return null;
  const key = event.resource ? variant.bundle.resources[event.resource]?.key : undefined;
  const id = record[event.link.idField ?? key ?? ''];
  return id === undefined || id === null ? event.link.route : `${event.link.route}?open=${encodeURIComponent(String(id))}`;
}

/** The net total of an order's positions, or undefined when the recipient may not see prices on it. */
async function visibleTotal(context: RenderContext, record: Record<string, unknown>): Promise<string | undefined> {
  const { app, event, variant, recipient, notification } = context;
  const rules = event.resource ? variant.bundle.resources[event.resource]?.rules : undefined;
  if (!rules || notification.entityId === null) return undefined;
  const caller = ruleCallerOf(variant.bundle, recipient.session);
  if (new OrderRules(rules, variant.conditions).isHidden(caller, record, 'totals')) return undefined;
  const positions = await app.orders.positions(app.db, notification.entityId);
  if (positions.length === 0) return undefined;
  const money = new Intl.NumberFormat(localeOf(variant.bundle.config), { style: 'currency', currency: 'PLN' });
  return money.format(orderTotals(positions).total);
}

/** The renderer of an event about a record (an order, a damage): its texts filled from the record as the recipient may see it. */
export const renderRecordEvent: Renderer = async (context) => {
  const { app, event, variant, recipient, notification } = context;
  let record: Record<string, unknown> = {};
  if (event.resource && notification.entityId !== null) {
    const found = await visibleRecord(app.db, variant.bundle, event.resource, notification.entityId, recipient.session);
    if (!found) return undefined;
    record = found;
  }
  const vars = {
    ...textValues(record, variant.bundle.config),
    ...textValues(notification.payload, variant.bundle.config),
    appName: appNameOf(variant.bundle),
  };
  const paragraphs = variant.t(event.body, vars).split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  if (event.price) {
    const total = await visibleTotal(context, record);
    if (total !== undefined) paragraphs.push(variant.t(event.price, { ...vars, total }));
  }
  return {
    subject: variant.t(event.subject, vars),
    paragraphs,
    title: variant.t(event.title, vars),
    text: variant.t(event.text, vars),
    link: linkFor(context, record),
  };
};

/** The portal's name as its users know it (the login screen's name of the variant). */
export function appNameOf(bundle: Bundle): string {
  const app = bundle.app as { loginAppName?: string; name: string };
  return app.loginAppName ?? app.name;
}
