/**
 * The colour fields of a resource (ocKolor, acKolor, … of the vehicle) as the reminder rules
 * decide them: a rule with `colorField` makes that column read the colour of its urgency today
 * (screens/reminders.json `colors`), or the "ok" colour for a date not yet due, instead of a
 * stored value. One source of truth: the vehicle's details and the cockpit cannot disagree, and a
 * variant that moves a threshold moves the colour with it.
 */
import { sql, type RawBuilder } from 'kysely';
import type { RemindersFile } from '../../runtime/core/generated/meta.ts';
import { urgencyOf } from './rule-sql.ts';

/** Column name → the SQL that computes it, for the rules of `resource` that declare a colour field. */
export function colorColumns(reminders: RemindersFile | undefined, resource: string, today: string): Map<string, RawBuilder<string | null>> {
  const out = new Map<string, RawBuilder<string | null>>();
  const colors = reminders?.colors;
  if (!colors) return out;
  for (const rule of reminders.rules) {
    if (rule.resource !== resource || !rule.colorField || rule.due.kind !== 'date' || rule.where) continue;
    const field = sql.ref(rule.due.field);
    const left = sql`(${field}::date + ${sql.lit(rule.due.afterDays ?? 0)} - ${today}::date)`;
    out.set(
      rule.colorField,
      sql<string | null>`case when ${field} is null then null else (case ${urgencyOf(left, rule.thresholds)}
        when 'pastDue' then ${colors.pastDue}::text when 'urgent' then ${colors.urgent}::text when 'soon' then ${colors.soon}::text else ${colors.ok}::text end) end`,
    );
  }
  return out;
}
