/**
 * Pure parts of the dashboard's reminder sections: a tile's colour and label from its rule's worst
 * urgency, what a tile opens, the strip's line, the items' due and time-left texts, the address of
 * a page of items, the pager. No React, no DOM.
 */
import type { ReminderItems, ReminderSummary } from '../../../core/generated/api';
import type { DashboardFile } from '../../../core/generated/meta';
import { formatDate, formatKm, formatNumber, type Translate } from '../../format';
import { urlWithFilter } from '../../routing/filter-param';

export type RuleSummary = ReminderSummary['rules'][number];
export type ReminderItem = ReminderItems['items'][number];
export type Urgency = ReminderItem['urgency'];

/** Most urgent first: the order of the chips, the strip and a tile's counts. */
export const URGENCIES: readonly Urgency[] = ['pastDue', 'urgent', 'soon'];

/** A colour by urgency: past due and urgent red, soon amber, nothing due neutral. Always shown with its text, never alone. */
export type UrgencyTone = 'danger' | 'warning' | 'neutral';

export function urgencyTone(urgency: Urgency | null | undefined): UrgencyTone {
  if (urgency === 'pastDue' || urgency === 'urgent') return 'danger';
  if (urgency === 'soon') return 'warning';
  return 'neutral';
}

/** The text beside the colour: the urgency's name, or "nothing due". */
export function urgencyLabelKey(urgency: Urgency | null | undefined): string {
  return urgency ? `dashboard:urgency.${urgency}` : 'dashboard:urgency.none';
}

/** The counts over all the rules, by urgency. */
export function totalsByUrgency(rules: readonly Pick<RuleSummary, 'counts'>[]): Record<Urgency, number> {
  const totals = { pastDue: 0, urgent: 0, soon: 0 };
  for (const rule of rules) for (const u of URGENCIES) totals[u] += rule.counts[u] ?? 0;
  return totals;
}

/** The strip's counts: "Przypomnienia: po terminie 5 · pilne 12 · wkrótce 30", or "nothing due" when all are 0. */
export function stripText(totals: Record<Urgency, number>, t: Translate): string {
  if (URGENCIES.every((u) => !totals[u])) return t('dashboard:strip.none');
  // what it counts, then each count by its urgency (issue 49: a line of bare numbers said nothing)
  return t('dashboard:strip.counts', Object.fromEntries(URGENCIES.map((u) => [u, formatNumber(totals[u])])));
}

/** What a tile opens: its rule's table, filtered to the rule's rows, or the rule's items in the list. */
export type TileTarget = { kind: 'table'; href: string } | { kind: 'list'; rule: string };

export function tileTarget(rule: Pick<RuleSummary, 'id' | 'table'>): TileTarget {
  return rule.table ? { kind: 'table', href: urlWithFilter(rule.table.route, rule.table.filter) } : { kind: 'list', rule: rule.id };
}

/** The tiles shown: every rule, or (hideEmpty) those with something due. */
export function shownTiles(rules: readonly RuleSummary[], hideEmpty = false): RuleSummary[] {
  return hideEmpty ? rules.filter((r) => r.total > 0) : [...rules];
}

export { itemsPath, type ItemsQuery } from './reads';

/** When an item comes due: its date (DD.MM.YYYY), or for a distance without a projected date the reading it is due at. */
export function dueText(item: Pick<ReminderItem, 'dueDate' | 'limitKm'>, t: Translate): string {
  return formatDate(item.dueDate) ?? formatKm(item.limitKm) ?? t('app:empty');
}

/** How long is left: the server's one sentence (server/reminders/texts.ts leftText: which limit comes first), or the empty mark. */
export function leftText(item: Pick<ReminderItem, 'left'>, t: Translate): string {
  return item.left || t('app:empty');
}

/** Which fields of an item name its vehicle (the screen's reminders.vehicle: the runtime names no field of a resource, issue 45). */
export type VehicleFields = NonNullable<DashboardFile['reminders']>['vehicle'];

/** The item's vehicle, read by the names the configuration gives: its plate and its make with model (null when the item has none). */
export function itemVehicle(item: ReminderItem, fields: VehicleFields): { plate: string | null; model: string | null } {
  const text = (value: unknown) => (value === null || value === undefined ? null : String(value));
  const values = item as unknown as Record<string, unknown>;
  return { plate: text(values[fields.plate]), model: text(values[fields.model]) };
}

/** The item's vehicle as one line: registration and make with model. */
export function vehicleText(item: ReminderItem, fields: VehicleFields): string {
  const { plate, model } = itemVehicle(item, fields);
  return [plate, model].filter((x) => x !== null && x.trim() !== '').join(' ');
}

export interface PageInfo {
  from: number;
  to: number;
  total: number;
  previous: number | null;
  next: number | null;
}

/** The rows a page shows (1-based, for "11–20 z 57") and the offsets of the pages beside it. */
export function pageInfo(offset: number, limit: number, shown: number, total: number): PageInfo {
  return {
    from: shown ? offset + 1 : 0,
    to: offset + shown,
    total,
    previous: offset > 0 ? Math.max(0, offset - limit) : null,
    next: offset + limit < total ? offset + limit : null,
  };
}
