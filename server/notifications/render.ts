/**
 * What a notification says, decided for its recipient when it is sent (an e-mail) or shown (the
 * bell), never when it was queued: the record is read through the recipient's own row scope at
 * that moment (visibility.ts), and prices appear only where the order's rules let the recipient
 * see them. Each event is rendered by the renderer registered for its id, else for its trigger
 * kind, else by the record renderer below; a scheduled message (the daily digest, the failure
 * summary) brings its own renderer, registered with `app.notifications.renderers.register`.
 */
import type { FastifyInstance } from 'fastify';
import { asCondition, type ConditionEvaluator } from '../../runtime/core/conditions.ts';
import { orderTotals } from '../../runtime/core/order-values.ts';
import { dateTimeText } from '../../runtime/core/date-text.ts';
import { recordNameOf } from '../../runtime/core/record-name.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle } from '../config/bundle.ts';
import { currencyOf, localeOf, timeZoneOf } from '../config/locale.ts';
import { datePatternFor } from '../config/languages.ts';
import { fileOfType } from '../config/screen-files.ts';
import { OrderRules, ruleCallerOf } from '../access/order-rules.ts';
import { linksOf, type NotificationEvent } from './events.ts';
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
  variant: { bundle: Bundle; conditions: ConditionEvaluator; t: Translate; language?: { locale: string; datePattern?: string } };
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
  /** The e-mail's button to the link (the link's label; else the frame's). */
  linkLabel?: string;
  /** What a reader needs without opening the portal, as label and value (the e-mail lists them under its text). */
  facts?: { label: string; value: string }[];
  /** Files the e-mail carries (a subscribed report, issue 46); the bell shows none. */
  attachments?: { filename: string; content: Buffer; contentType: string }[];
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

/** Values as the recipient reads them: dates by his language's pattern in the portal's time zone, nothing for an empty value. */
export function textValues(values: Record<string, unknown>, config: Bundle['config'], datePattern: string): Record<string, string> {
  const zone = timeZoneOf(config);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(values)) {
    if (value === null || value === undefined) out[name] = '';
    else if (value instanceof Date) out[name] = dateTimeText(value, zone, datePattern);
    else if (typeof value === 'object') continue;
    else out[name] = String(value);
  }
  return out;
}

/**
 * The link of an event for this recipient: the first of its links whose route lets the recipient's
 * role in (screens/routes.json allowedWhen) and whose own `when` holds, opening the record
 * (`?open=<id>`); else none — a driver is not sent to the orders table he cannot open, but to his
 * vehicle's panel, which opens his order.
 */
export function linkTo(context: RenderContext, record: Record<string, unknown>): { path: string; label?: string } | null {
  const { event, variant, recipient } = context;
  const routes = fileOfType(variant.bundle.screens.routes, 'routes')?.routes ?? [];
  const who = { role: recipient.session.role, variant: variant.bundle.variant, config: variant.bundle.config };
  const lets = (condition: unknown) => condition === undefined || variant.conditions.matches(asCondition(condition), who);
  for (const link of linksOf(event)) {
    const route = routes.find((r) => r.path === link.route);
    if (!route || !lets(route.allowedWhen) || !lets(link.when)) continue;
    const key = event.resource ? variant.bundle.resources[event.resource]?.key : undefined;
    const id = link.idField || key ? record[link.idField ?? key ?? ''] : undefined;
    const path = id === undefined || id === null ? link.route : `${link.route}?open=${encodeURIComponent(String(id))}`;
    return { path, ...(link.label ? { label: variant.t(link.label) } : {}) };
  }
  return null;
}

/** The path alone (the bell's link). */
export function linkFor(context: RenderContext, record: Record<string, unknown>): string | null {
  return linkTo(context, record)?.path ?? null;
}

/** The event's facts filled from the record's values, those that come out empty left out. */
export function factsOf(context: RenderContext, vars: Record<string, string>): { label: string; value: string }[] {
  const { event, variant } = context;
  return (event.facts ?? []).flatMap((fact) => {
    // a value whose every field was empty leaves only its punctuation: "( )"
    const value = variant.t(fact.value, vars).replace(/\(\s*\)/g, '').trim();
    return /[\p{L}\p{N}]/u.test(value) ? [{ label: variant.t(fact.label), value }] : [];
  });
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
  const money = new Intl.NumberFormat(variant.language?.locale ?? localeOf(variant.bundle.config), { style: 'currency', currency: currencyOf(variant.bundle.config) });
  return money.format(orderTotals(positions).total);
}

/** How the recipient's language writes a day. */
const patternOf = (variant: RenderContext['variant']): string => variant.language?.datePattern ?? datePatternFor(variant.bundle);

/**
 * `{{recordName}}`: the record as users know it, as its details dialog is titled (its entity's
 * x-recordName, runtime/core/record-name.ts) — an order by its number, before it has one by its day
 * ("z 03.12.2026"), in the recipient's language; never its internal id.
 */
export function recordNameVar(context: RenderContext, record: Record<string, unknown>): { recordName?: string } {
  const { event, variant } = context;
  const resource = event.resource ? variant.bundle.resources[event.resource] : undefined;
  if (!resource) return {};
  const name = recordNameOf(variant.bundle.schemas[resource.entity], record, variant.t, timeZoneOf(variant.bundle.config), patternOf(variant));
  return name === null ? {} : { recordName: name };
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
    ...textValues(record, variant.bundle.config, patternOf(variant)),
    ...textValues(notification.payload, variant.bundle.config, patternOf(variant)),
    ...recordNameVar(context, record),
    appName: appNameOf(variant.bundle),
  };
  const paragraphs = variant.t(event.body, vars).split(/\n\s*\n/).map((p) => p.trim()).filter(Boolean);
  const facts = factsOf(context, vars);
  if (event.price) {
    // the price only where the recipient may see it (the order's rules), else not a word of it
    const total = await visibleTotal(context, record);
    if (total !== undefined) facts.push({ label: variant.t(event.price, vars), value: total });
  }
  const link = linkTo(context, record);
  return {
    subject: variant.t(event.subject, vars),
    paragraphs,
    facts,
    title: variant.t(event.title, vars),
    text: variant.t(event.text, vars),
    link: link?.path ?? null,
    ...(link?.label ? { linkLabel: link.label } : {}),
  };
};

/** The portal's name as its users know it (the login screen's name of the variant). */
export function appNameOf(bundle: Bundle): string {
  const app = bundle.app as { loginAppName?: string; name: string };
  return app.loginAppName ?? app.name;
}
