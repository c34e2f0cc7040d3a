/**
 * One reminder rule of screens/reminders.json as SQL: the rows of reminder_due (migration 015)
 * for its resource's records, narrowed by the rule's `where`, with what is due and the days from
 * which each record is soon, urgent and past due (server/reminders/due-table.ts keeps them;
 * server/reminders/service.ts counts and pages them within the caller's rows).
 *
 * The urgency of a rule whose thresholds count days (km for distances and projections):
 *   left < 0          → pastDue
 *   left <= urgent    → urgent
 *   left <= soon      → soon
 *   otherwise         → not listed
 * A date's `left` is its days from today (the due day itself is 0: urgent, the day after is past
 * due). Stored as days (soon from `due - soon` …), so `today` only meets the rows at reading:
 * it is a parameter, never the database's clock (the portal's time zone decides the day, and
 * tests fix it), and the rows need no refresh when the day turns.
 *
 * Distances and projections use the vehicle's daily average over its readings, read from
 * vehicle_mileage (migration 014: count, first and last reading per vehicle, kept by triggers).
 */
import { sql, type Expression, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { ReminderRule } from '../../runtime/core/generated/meta.ts';
import type { ResourceDecl } from '../config/bundle.ts';
import type { ConfiguredTables } from '../db/configured-tables.ts';
import { scopeColumnName, type Resources } from '../access/row-scope.ts';
import { columnsFromSchema, filterExpression } from '../db/table-query.ts';

export type Urgency = 'pastDue' | 'urgent' | 'soon';
export const URGENCIES: readonly Urgency[] = ['pastDue', 'urgent', 'soon'];

/** An item as a reader answers it from reminder_due (before its vehicle and texts are added). */
export interface RuleRow {
  rule: string;
  /** The record's key in its resource. */
  recordId: number | string;
  /** What its details dialog opens (the rule's `open.idField`, else the record's key). */
  openId: number | string;
  pojazdId: number | null;
  recordLabel: string | null;
  dueDate: string | null;
  daysLeft: number | null;
  kmLeft: number | null;
  projectedKm: number | null;
  limitKm: number | null;
  excessKm: number | null;
  excessCost: number | null;
  tooFewReadings: boolean | null;
  urgency: Urgency;
}

const DEFAULT_PROJECTION = { minReadings: 2, minSpanDays: 30 };

/** `vehicle.x` names the rule's vehicle's column; anything else a column of the rule's own row. */
function fieldRef(name: string): RawBuilder<unknown> {
  return name.startsWith('vehicle.') ? sql.ref(`vehicle.${name.slice('vehicle.'.length)}`) : sql.ref(`item.${name}`);
}

/** The roles a rule is shown to: its own list, within the roles that may read its resource. */
export function ruleShownTo(rule: ReminderRule, resources: Resources, role: string): boolean {
  const resource = resources[rule.resource];
  if (!resource) return false;
  const readers = resource.parentScope ? [] : Object.keys(resource.access ?? {});
  return readers.includes(role) && (!rule.roles || (rule.roles as string[]).includes(role));
}

/** The SQL of `case when left < 0 … end`, the one place urgencies are decided. */
export function urgencyOf(left: RawBuilder<unknown>, thresholds: ReminderRule['thresholds']): RawBuilder<Urgency | null> {
  return sql<Urgency | null>`case when ${left} < 0 then 'pastDue' when ${left} <= ${sql.lit(thresholds.urgent)} then 'urgent' when ${left} <= ${sql.lit(thresholds.soon)} then 'soon' end`;
}

/** The daily average (km per day) of the vehicle's readings, or null when they are too few or too close. */
function dailyAverage(rule: ReminderRule): RawBuilder<number | null> {
  const { minReadings, minSpanDays } = { ...DEFAULT_PROJECTION, ...rule.projection };
  const spanDays = sql`(extract(epoch from (mileage."lastData" - mileage."firstData")) / 86400.0)`;
  return sql<number | null>`case when mileage."readings" >= ${sql.lit(minReadings)} and ${spanDays} >= ${sql.lit(minSpanDays)}
    then (mileage."lastLicznik" - mileage."firstLicznik") / ${spanDays} end`;
}

/**
 * Everything a rule's SQL depends on, stored with its rows (reminder_rule): the rule, its
 * resource's view, key and scope columns, the entity's columns, the details dialog's title
 * fields. Any process can refresh the rows of any definition from it, whatever bundle it serves.
 */
export interface RuleDefinition {
  rule: ReminderRule;
  resource: Pick<ResourceDecl, 'source' | 'key' | 'scopeColumns'>;
  entity: { properties?: Record<string, unknown> };
  titles: string[];
}

/** The columns of reminder_due (migration 015), in the order dueRowsQuery selects them. */
export const DUE_COLUMNS = [
  'ruleKey', 'recordId', 'openId', 'pojazdId', 'scopeClient', 'scopeVehicle', 'scopeStation', 'scopeUser', 'recordLabel',
  'dueDate', 'kmLeft', 'projectedKm', 'limitKm', 'excessKm', 'excessCost', 'tooFewReadings',
  'soonFrom', 'urgentFrom', 'pastFrom', 'until',
] as const;

/** Where each scope kind of server/access/row-scope.ts finds its value in reminder_due. */
export const DUE_SCOPE_COLUMNS = { client: 'scopeClient', ownVehicle: 'scopeVehicle', station: 'scopeStation', self: 'scopeUser' } as const;
const SCOPE_TYPES = { client: 'text', ownVehicle: 'integer', station: 'text', self: 'integer' } as const;

const NEVER = sql`null::date`;
const ALWAYS = sql`'-infinity'::date`;

/**
 * The rows of reminder_due for one rule definition: every record of its resource that is or will
 * be due, whoever may see it (the reader applies the scope to the stored scope columns), with the
 * days from which it is soon, urgent and past due. Nothing here depends on the day: the reader
 * compares those days with today (urgencyAt, listedAt). `vehicles` limits it to their records.
 *
 * A date comes due on `field + afterDays`: soon from `due - soon`, urgent from `due - urgent`,
 * past due from the day after; an empty date, where the rule has `whenEmpty`, is urgent for ever
 * (no due day: never past due). A distance is decided by km on its own row (a vehicle farther off
 * than "soon" is not due), and is past due from the day after its projected day. A projection is
 * decided by km at the contract's end and listed until that end.
 */
export function dueRowsQuery(definition: RuleDefinition, ruleKey: string, db: Kysely<ConfiguredTables>, vehicles?: readonly number[]): RawBuilder<unknown> {
  const { rule, resource, entity, titles } = definition;
  const columns = columnsFromSchema(entity);
  const vehicleKey = rule.vehicleKey ?? 'pojazdId';
  const has = (name: string) => Object.hasOwn(entity.properties ?? {}, name);
  const scopeKinds = (Object.keys(DUE_SCOPE_COLUMNS) as (keyof typeof DUE_SCOPE_COLUMNS)[]).filter((kind) => has(scopeColumnName(resource, kind)));

  // only the columns the rule reads: a view's costly columns (a contract's charges) stay unread
  const read = new Set([...readColumns(rule, entity, resource.key, titles), ...scopeKinds.map((kind) => scopeColumnName(resource, kind))]);
  const rows = db
    .selectFrom(resource.source)
    .select([...read].map((c) => sql.ref(c).as(c)))
    .where((eb) => {
      const parts: Expression<SqlBool>[] = [eb(sql.ref(vehicleKey), 'is not', null), candidate(rule)];
      const filter = filterExpression(eb, columns, rule.where);
      if (filter) parts.push(filter);
      if (vehicles) parts.push(sql<SqlBool>`${sql.ref(vehicleKey)} = any(${sql.val([...vehicles])}::integer[])`);
      return eb.and(parts);
    });

  const due = rule.due;
  const t = rule.thresholds;
  let dueDate: RawBuilder<unknown>;
  let kmLeft: RawBuilder<unknown> = sql`null::integer`;
  let projectedKm: RawBuilder<unknown> = sql`null::integer`;
  let limitKm: RawBuilder<unknown> = sql`null::integer`;
  let excessKm: RawBuilder<unknown> = sql`null::integer`;
  let excessCost: RawBuilder<unknown> = sql`null::numeric`;
  let tooFew: RawBuilder<unknown> = sql`null::boolean`;
  let soonFrom: RawBuilder<unknown>;
  let urgentFrom: RawBuilder<unknown>;
  let pastFrom: RawBuilder<unknown>;
  let until: RawBuilder<unknown> = NEVER;
  const average = dailyAverage(rule);
  /** The days of an urgency decided once and for all by km (null: not due by km). */
  const byKm = (urgency: RawBuilder<unknown>, then: RawBuilder<unknown>) => ({
    soon: sql`case when ${urgency} is not null then ${ALWAYS} else ${then} end`,
    urgent: sql`case when ${urgency} in ('pastDue', 'urgent') then ${ALWAYS} else ${then} end`,
    past: sql`case when ${urgency} = 'pastDue' then ${ALWAYS} else ${then} end`,
  });

  if (due.kind === 'date') {
    dueDate = sql`(${fieldRef(due.field)}::date + ${sql.lit(due.afterDays ?? 0)})`;
    soonFrom = sql`(${dueDate} - ${sql.lit(t.soon)})`;
    urgentFrom = sql`(${dueDate} - ${sql.lit(t.urgent)})`;
    pastFrom = sql`(${dueDate} + 1)`;
    if (due.whenEmpty) {
      // never done (a vehicle never inspected): urgent from always, never past due, with no due day
      soonFrom = sql`coalesce(${soonFrom}, ${ALWAYS})`;
      urgentFrom = sql`coalesce(${urgentFrom}, ${ALWAYS})`;
    }
  } else if (due.kind === 'distance') {
    limitKm = sql`${fieldRef(due.limit)}::integer`;
    kmLeft = sql`(${fieldRef(due.limit)} - ${fieldRef(due.reading)})::integer`;
    // the day the distance is projected to come, from the last reading's day at the daily average
    dueDate = sql`case when ${kmLeft} >= 0 and ${average} > 0
      then mileage."lastData"::date + ceil((${fieldRef(due.limit)} - mileage."lastLicznik") / ${average})::integer end`;
    tooFew = sql`(${average} is null)`;
    // projected to have come already (the last reading is old, the vehicle drove on): past due
    const days = byKm(urgencyOf(kmLeft, t), sql`(${dueDate} + 1)`);
    [soonFrom, urgentFrom, pastFrom] = [days.soon, days.urgent, days.past];
  } else {
    const current = sql`coalesce(mileage."lastLicznik", vehicle."aktStanLicz")`;
    const lastDay = sql`coalesce(mileage."lastData"::date, vehicle."aktDataLicz")`;
    const end = sql`${fieldRef(due.end)}::date`;
    const cap = sql`(${fieldRef(due.limit)} + coalesce(${due.margin ? fieldRef(due.margin) : sql`0`}, 0))`;
    const projected = sql`case when ${average} is not null then round(${current} + ${average} * greatest(${end} - ${lastDay}, 0))::integer end`;
    limitKm = sql`${fieldRef(due.limit)}::integer`;
    projectedKm = projected;
    kmLeft = sql`(${cap} - coalesce(${projected}, ${current}))::integer`;
    excessKm = sql`greatest(coalesce(${projected}, ${current}) - ${cap}, 0)::integer`;
    excessCost = due.rate ? sql`round(greatest(coalesce(${projected}, ${current}) - ${cap}, 0) * coalesce(${fieldRef(due.rate)}, 0), 2)` : sql`null::numeric`;
    dueDate = end;
    tooFew = sql`(${average} is null)`;
    // already over limit + margin: past due; projected over it (km left at the end <= urgent, e.g. 0): urgent
    const urgency = sql`case when ${cap} - ${current} < 0 then 'pastDue'
      when ${kmLeft} <= ${sql.lit(t.urgent)} then 'urgent' when ${kmLeft} <= ${sql.lit(t.soon)} then 'soon' end`;
    const days = byKm(urgency, NEVER);
    [soonFrom, urgentFrom, pastFrom] = [days.soon, days.urgent, days.past];
    until = end;
  }

  const shownTitles = titles.filter(has);
  const recordLabel = shownTitles.length ? sql`coalesce(${sql.join(shownTitles.map((f) => sql`${sql.ref(`item.${f}`)}::text`))})` : sql`null::text`;
  const scopeValue = (kind: keyof typeof DUE_SCOPE_COLUMNS) =>
    scopeKinds.includes(kind) ? sql`${sql.ref(`item.${scopeColumnName(resource, kind)}`)}::${sql.raw(SCOPE_TYPES[kind])}` : sql`null::${sql.raw(SCOPE_TYPES[kind])}`;
  const idField = rule.open.idField ?? resource.key;

  return sql`select * from (
    select ${ruleKey}::text as "ruleKey",
      ${sql.ref(`item.${resource.key}`)}::text as "recordId",
      ${sql.ref(`item.${idField}`)}::text as "openId",
      ${sql.ref(`item.${vehicleKey}`)}::integer as "pojazdId",
      ${scopeValue('client')} as "scopeClient",
      ${scopeValue('ownVehicle')} as "scopeVehicle",
      ${scopeValue('station')} as "scopeStation",
      ${scopeValue('self')} as "scopeUser",
      ${recordLabel} as "recordLabel",
      ${dueDate}::date as "dueDate",
      ${kmLeft} as "kmLeft",
      ${projectedKm} as "projectedKm",
      ${limitKm} as "limitKm",
      ${excessKm} as "excessKm",
      ${excessCost}::numeric as "excessCost",
      ${tooFew} as "tooFewReadings",
      ${soonFrom}::date as "soonFrom",
      ${urgentFrom}::date as "urgentFrom",
      ${pastFrom}::date as "pastFrom",
      ${until}::date as "until"
    from (${rows}) as item
    left join car as vehicle on vehicle."pojazdId" = ${sql.ref(`item.${vehicleKey}`)}
    left join vehicle_mileage as mileage on mileage."pojazdId" = ${sql.ref(`item.${vehicleKey}`)}
  ) as due where "soonFrom" is not null`;
}

/** The urgency of a stored row on `today`: the latest of its days that has come. */
export function urgencyAt(today: string): RawBuilder<Urgency | null> {
  const day = sql`${today}::date`;
  return sql<Urgency | null>`case when "pastFrom" <= ${day} then 'pastDue' when "urgentFrom" <= ${day} then 'urgent' when "soonFrom" <= ${day} then 'soon' end`;
}

/** 0 for past due, 1 urgent, 2 soon: a smaller rank is worse. */
export function urgencyRank(urgency: RawBuilder<unknown>): RawBuilder<number> {
  return sql<number>`case ${urgency} when 'pastDue' then 0 when 'urgent' then 1 when 'soon' then 2 end`;
}

/** Whether a stored row is listed on `today`: its "soon" has come and its projection's end has not passed. */
export function listedAt(today: string): RawBuilder<SqlBool> {
  const day = sql`${today}::date`;
  return sql<SqlBool>`"soonFrom" <= ${day} and ("until" is null or "until" >= ${day})`;
}

/** The columns of the rule's own row that its query reads. */
function readColumns(rule: ReminderRule, entity: RuleDefinition['entity'], key: string, titles: readonly string[]): string[] {
  const due = rule.due;
  const named = due.kind === 'date' ? [due.field] : due.kind === 'distance' ? [due.limit, due.reading] : [due.end, due.limit, due.margin, due.rate];
  const own = named.filter((n): n is string => typeof n === 'string' && !n.startsWith('vehicle.'));
  const columns = new Set([key, rule.vehicleKey ?? 'pojazdId', rule.open.idField ?? key, ...own, ...titles]);
  return [...columns].filter((c) => Object.hasOwn(entity.properties ?? {}, c));
}

/**
 * A condition on the resource's own row that keeps what can never be due out of the join: a date
 * that is set (or any, for a rule that says what an empty one means); a distance within "soon" of its limit by the last reading (a vehicle farther off is
 * not due, whatever its projection says); a projection with its end and limit.
 */
function candidate(rule: ReminderRule): Expression<SqlBool> {
  const own = (name: string) => (name.startsWith('vehicle.') ? undefined : sql.ref(name));
  const due = rule.due;
  if (due.kind === 'date') {
    const field = own(due.field);
    // an empty date is due only where the rule says what that means (whenEmpty)
    return field && !due.whenEmpty ? sql<SqlBool>`${field} is not null` : sql<SqlBool>`true`;
  }
  if (due.kind === 'distance') {
    const [limit, reading] = [own(due.limit), own(due.reading)];
    return limit && reading ? sql<SqlBool>`${limit} - ${reading} <= ${sql.lit(rule.thresholds.soon)}` : sql<SqlBool>`true`;
  }
  const end = own(due.end);
  const limit = own(due.limit);
  return sql<SqlBool>`${end ?? sql`true`} is not null and ${limit ?? sql`0`} is not null`;
}
