/**
 * One reminder rule of screens/reminders.json as SQL: the rows of its resource the caller may see
 * (the resource's row scope of ACCESS.md), narrowed by the rule's `where`, with what is due, how
 * far off it is and its urgency. Every rule answers the same columns, so the rules of a cockpit
 * are one `union all`, counted and paged by the database (server/reminders/service.ts).
 *
 * The urgency of a rule whose thresholds count days (km for distances and projections):
 *   left < 0          → pastDue
 *   left <= urgent    → urgent
 *   left <= soon      → soon
 *   otherwise         → not listed
 * A date's `left` is its days from today (the due day itself is 0: urgent, the day after is past
 * due). `today` is a parameter, never the database's clock: the portal's time zone decides the
 * day, and tests fix it.
 *
 * Distances and projections use the vehicle's daily average over its readings, read from
 * vehicle_mileage (migration 014: count, first and last reading per vehicle, kept by triggers).
 */
import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { ReminderRule } from '../../runtime/core/generated/meta.ts';
import type { Session } from '../auth/sessions.ts';
import type { ConfiguredTables } from '../db/configured-tables.ts';
import type { Kysely } from 'kysely';
import { scopeExpression, type Resources } from '../resources/scope.ts';
import { columnsFromSchema, filterExpression } from '../resources/table-query.ts';

export type Urgency = 'pastDue' | 'urgent' | 'soon';
export const URGENCIES: readonly Urgency[] = ['pastDue', 'urgent', 'soon'];

/** The columns every rule's query answers (the item before its vehicle and texts are added). */
export interface RuleRow {
  rule: string;
  recordId: number | string;
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

export interface RuleContext {
  db: Kysely<ConfiguredTables>;
  resources: Resources;
  schemas: Record<string, Record<string, any>>;
  session: Session;
  /** YYYY-MM-DD in the portal's time zone. */
  today: string;
  forbidden: string;
  /** The label a details dialog shows for a record (its titleField), by screen id. */
  titleFields: (screen: string) => readonly string[];
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
 * The rule's query: FROM its resource's view as `item`, within the caller's scope and the rule's
 * filter, joined to its vehicle and the vehicle's readings; only rows with an urgency.
 */
export function ruleQuery(rule: ReminderRule, ctx: RuleContext): RawBuilder<RuleRow> {
  const resource = ctx.resources[rule.resource];
  const entity = ctx.schemas[resource.entity];
  const columns = columnsFromSchema(entity);
  const vehicleKey = rule.vehicleKey ?? 'pojazdId';
  const today = sql`${ctx.today}::date`;

  // the scoped and filtered rows, selected in a subquery so that the scope's column names read
  // the resource's own view and never a column of the joined vehicle
  // only the columns the rule reads: a view's costly columns (a contract's charges) stay unread
  const scoped = ctx.db
    .selectFrom(resource.source)
    .select(readColumns(rule, entity, resource.key, ctx.titleFields(rule.open.screen)).map((c) => sql.ref(c).as(c)))
    .where((eb) => {
      const parts: Expression<SqlBool>[] = [scopeExpression(eb, ctx.resources, resource, ctx.session, ctx.forbidden)];
      const filter = filterExpression(eb, columns, rule.where);
      if (filter) parts.push(filter);
      parts.push(candidate(rule, today));
      return eb.and(parts);
    });

  const due = rule.due;
  let dueDate: RawBuilder<unknown> = sql`null::date`;
  let daysLeft: RawBuilder<unknown> = sql`null::integer`;
  let kmLeft: RawBuilder<unknown> = sql`null::integer`;
  let projectedKm: RawBuilder<unknown> = sql`null::integer`;
  let limitKm: RawBuilder<unknown> = sql`null::integer`;
  let excessKm: RawBuilder<unknown> = sql`null::integer`;
  let excessCost: RawBuilder<unknown> = sql`null::numeric`;
  let tooFew: RawBuilder<unknown> = sql`null::boolean`;
  let urgency: RawBuilder<unknown>;
  const average = dailyAverage(rule);

  if (due.kind === 'date') {
    dueDate = sql`(${fieldRef(due.field)}::date + ${sql.lit(due.afterDays ?? 0)})`;
    daysLeft = sql`(${dueDate} - ${today})`;
    urgency = urgencyOf(daysLeft as RawBuilder<unknown>, rule.thresholds);
  } else if (due.kind === 'distance') {
    limitKm = sql`${fieldRef(due.limit)}::integer`;
    kmLeft = sql`(${fieldRef(due.limit)} - ${fieldRef(due.reading)})::integer`;
    // the day the distance is projected to come, from the last reading's day at the daily average
    dueDate = sql`case when ${kmLeft} >= 0 and ${average} > 0
      then coalesce(mileage."lastData"::date, ${today}) + ceil((${fieldRef(due.limit)} - coalesce(mileage."lastLicznik", ${fieldRef(due.reading)})) / ${average})::integer end`;
    daysLeft = sql`(${dueDate} - ${today})`;
    tooFew = sql`(${average} is null)`;
    // projected to have come already (the last reading is old, the vehicle drove on): past due
    urgency = sql`case when ${dueDate} < ${today} then 'pastDue' else ${urgencyOf(kmLeft, rule.thresholds)} end`;
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
    daysLeft = sql`(${end} - ${today})`;
    tooFew = sql`(${average} is null)`;
    // already over limit + margin: past due; projected over it (km left at the end <= urgent, e.g. 0): urgent
    urgency = sql`case when ${cap} - ${current} < 0 then 'pastDue'
      when ${kmLeft} <= ${sql.lit(rule.thresholds.urgent)} then 'urgent' when ${kmLeft} <= ${sql.lit(rule.thresholds.soon)} then 'soon' end`;
  }

  const titles = ctx.titleFields(rule.open.screen).filter((f) => Object.hasOwn(entity.properties ?? {}, f));
  const recordLabel = titles.length ? sql`coalesce(${sql.join(titles.map((f) => sql`${sql.ref(`item.${f}`)}::text`))})` : sql`null::text`;
  const idField = rule.open.idField ?? resource.key;

  return sql<RuleRow>`select * from (
    select ${sql.lit(rule.id)}::text as "rule",
      ${sql.ref(`item.${idField}`)}::text as "recordId",
      ${sql.ref(`item.${vehicleKey}`)}::integer as "pojazdId",
      ${recordLabel} as "recordLabel",
      ${dueDate} as "dueDate",
      ${daysLeft}::integer as "daysLeft",
      ${kmLeft} as "kmLeft",
      ${projectedKm} as "projectedKm",
      ${limitKm} as "limitKm",
      ${excessKm} as "excessKm",
      ${excessCost}::numeric as "excessCost",
      ${tooFew} as "tooFewReadings",
      ${urgency} as "urgency"
    from (${scoped}) as item
    left join car as vehicle on vehicle."pojazdId" = ${sql.ref(`item.${vehicleKey}`)}
    left join vehicle_mileage as mileage on mileage."pojazdId" = ${sql.ref(`item.${vehicleKey}`)}
  ) as due where "urgency" is not null`;
}

/** The columns of the rule's own row that its query reads. */
function readColumns(rule: ReminderRule, entity: Record<string, any>, key: string, titles: readonly string[]): string[] {
  const due = rule.due;
  const named = due.kind === 'date' ? [due.field] : due.kind === 'distance' ? [due.limit, due.reading] : [due.end, due.limit, due.margin, due.rate];
  const own = named.filter((n): n is string => typeof n === 'string' && !n.startsWith('vehicle.'));
  const columns = new Set([key, rule.vehicleKey ?? 'pojazdId', rule.open.idField ?? key, ...own, ...titles]);
  return [...columns].filter((c) => Object.hasOwn(entity.properties ?? {}, c));
}

/**
 * A condition on the resource's own row that keeps what cannot be due out of the join (an index
 * on a date column answers it): a date on or before the last day of "soon"; a distance with both
 * its values; a projection whose end has not passed.
 */
function candidate(rule: ReminderRule, today: RawBuilder<unknown>): Expression<SqlBool> {
  const own = (name: string) => (name.startsWith('vehicle.') ? undefined : sql.ref(name));
  const due = rule.due;
  if (due.kind === 'date') {
    return sql<SqlBool>`${sql.ref(due.field)} < (${today} + ${sql.lit(rule.thresholds.soon - (due.afterDays ?? 0) + 1)})`;
  }
  if (due.kind === 'distance') {
    // within "soon" of the limit by the last reading (a vehicle farther off is not due, whatever
    // its projection says), decided on the row itself, before any join
    const [limit, reading] = [own(due.limit), own(due.reading)];
    return limit && reading ? sql<SqlBool>`${limit} - ${reading} <= ${sql.lit(rule.thresholds.soon)}` : sql<SqlBool>`true`;
  }
  const end = own(due.end);
  const limit = own(due.limit);
  return sql<SqlBool>`${end ?? sql`true`} >= ${today} and ${limit ?? sql`0`} is not null`;
}
