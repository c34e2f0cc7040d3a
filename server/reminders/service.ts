/**
 * `app.reminders`: what is due for the caller (issue 24), from the rules of screens/reminders.json
 * in the bundle in use, computed by the database within the caller's rows (rule-sql.ts).
 *
 * - `summary`: per rule shown to the caller, its counts by urgency (one statement for all rules);
 * - `items`: a page of items, most urgent first, then by the day they come due, with the vehicle's
 *   registration and model and the item's text in Polish (texts.ts).
 *
 * `today` is the day in the portal's time zone at `app.clock()`, so tests fix the clock.
 */
import fp from 'fastify-plugin';
import { sql, type RawBuilder } from 'kysely';
import type { FastifyInstance } from 'fastify';
import type { ReminderRule, RemindersFile } from '../../runtime/core/generated/meta.ts';
import type { Session } from '../auth/sessions.ts';
import { byConfiguration } from '../db/configured-tables.ts';
import { timeZoneOf } from '../config/locale.ts';
import { HttpError } from '../http-error.ts';
import { ruleQuery, ruleShownTo, URGENCIES, type RuleContext, type RuleRow, type Urgency } from './rule-sql.ts';
import { itemText } from './texts.ts';
import { dayIn } from './today.ts';

export interface RuleSummary {
  id: string;
  label: string;
  unit: 'days' | 'km';
  counts: Record<Urgency, number>;
  total: number;
  worst: Urgency | null;
  table?: { route: string; filter: Record<string, unknown> };
}

export interface ItemsQuery {
  rule?: string;
  urgency?: Urgency;
  pojazdId?: number;
  offset?: number;
  limit?: number;
}

export interface ReminderItem extends Omit<RuleRow, 'recordLabel' | 'tooFewReadings'> {
  tooFewReadings?: boolean;
  label: string;
  rejestr: string | null;
  markaModel: string | null;
  text: string;
  open: { screen: string; id: number | string; tab?: string };
  action?: { label: string; screen: string; mode?: string };
}

const unitOf = (rule: ReminderRule): 'days' | 'km' => (rule.due.kind === 'date' ? 'days' : 'km');

function createReminders(app: FastifyInstance) {
  const db = byConfiguration(app.db);

  /** The rules of the bundle in use shown to the caller, with what their queries need. */
  const context = (session: Session) => {
    const bundle = app.config.bundle;
    const file = bundle.screens.reminders as unknown as RemindersFile | undefined;
    const rules = (file?.rules ?? []).filter((rule) => ruleShownTo(rule, bundle.resources, session.role));
    const ctx: RuleContext = {
      db,
      resources: bundle.resources,
      schemas: bundle.schemas,
      session,
      today: dayIn(app.clock(), timeZoneOf(bundle.config)),
      forbidden: app.config.t('errors:forbidden'),
      titleFields: (screen) => {
        const title = (bundle.screens[screen] as { titleField?: string | string[] } | undefined)?.titleField;
        return title === undefined ? [] : Array.isArray(title) ? title : [title];
      },
    };
    return { rules, ctx };
  };

  const union = (queries: RawBuilder<RuleRow>[]) => sql.join(queries.map((q) => sql`(${q})`), sql` union all `);

  async function summary(session: Session): Promise<{ today: string; rules: RuleSummary[] }> {
    const { rules, ctx } = context(session);
    const counts = new Map<string, Record<Urgency, number>>(rules.map((r) => [r.id, { pastDue: 0, urgent: 0, soon: 0 }]));
    if (rules.length) {
      const { rows } = await sql<{ rule: string; urgency: Urgency; n: string | number }>`
        select "rule", "urgency", count(*) as n from (${union(rules.map((r) => ruleQuery(r, ctx)))}) as due
        group by "rule", "urgency"`.execute(app.db);
      for (const row of rows) counts.get(row.rule)![row.urgency] = Number(row.n);
    }
    return {
      today: ctx.today,
      rules: rules.map((rule) => {
        const c = counts.get(rule.id)!;
        const total = c.pastDue + c.urgent + c.soon;
        const worst = URGENCIES.find((u) => c[u] > 0) ?? null;
        const out: RuleSummary = { id: rule.id, label: app.config.t(rule.label), unit: unitOf(rule), counts: c, total, worst };
        if (rule.table) out.table = { route: rule.table.route, filter: (rule.where ?? {}) as Record<string, unknown> };
        return out;
      }),
    };
  }

  async function items(session: Session, query: ItemsQuery): Promise<{ total: number; items: ReminderItem[] }> {
    const { rules: shown, ctx } = context(session);
    let rules = shown;
    if (query.rule !== undefined) {
      rules = shown.filter((r) => r.id === query.rule);
      if (rules.length === 0) {
        const message = app.config.t('reminders:errors.unknownRule');
        throw new HttpError(400, `rule: ${message}`, { code: 'VALIDATION', errors: [{ field: 'rule', message }] });
      }
    }
    if (rules.length === 0) return { total: 0, items: [] };
    const conditions = [sql`true`];
    if (query.urgency) conditions.push(sql`"urgency" = ${query.urgency}`);
    if (query.pojazdId !== undefined) conditions.push(sql`"pojazdId" = ${query.pojazdId}`);
    const where = sql.join(conditions, sql` and `);
    const all = sql`select * from (${union(rules.map((r) => ruleQuery(r, ctx)))}) as due where ${where}`;
    const limit = query.limit ?? 20;
    const offset = query.offset ?? 0;
    const [page, count] = await Promise.all([
      sql<RuleRow & { rejestr: string | null; markaModel: string | null }>`
        select page.*, vehicle."rejestr", vehicle."markaModel" from (
          select * from (${all}) as due
          order by case "urgency" when 'pastDue' then 0 when 'urgent' then 1 else 2 end,
            "dueDate" asc nulls last, "kmLeft" asc nulls last, "rule", "recordId"
          limit ${limit} offset ${offset}
        ) as page left join car as vehicle on vehicle."pojazdId" = page."pojazdId"
        order by case "urgency" when 'pastDue' then 0 when 'urgent' then 1 else 2 end,
          "dueDate" asc nulls last, "kmLeft" asc nulls last, "rule", "recordId"`.execute(app.db),
      sql<{ n: string | number }>`select count(*) as n from (${all}) as due`.execute(app.db),
    ]);
    const byId = new Map(rules.map((r) => [r.id, r]));
    const locale = app.config.bundle.config.locale as string | undefined;
    return {
      total: Number(count.rows[0]?.n ?? 0),
      items: page.rows.map((row) => toItem(row, byId.get(row.rule)!, locale)),
    };
  }

  function toItem(row: RuleRow & { rejestr: string | null; markaModel: string | null }, rule: ReminderRule, locale: string | undefined): ReminderItem {
    const recordId = /^\d+$/.test(String(row.recordId)) ? Number(row.recordId) : row.recordId;
    const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const item: ReminderItem = {
      rule: rule.id,
      label: app.config.t(rule.label),
      urgency: row.urgency,
      recordId,
      pojazdId: row.pojazdId,
      rejestr: row.rejestr,
      markaModel: row.markaModel,
      dueDate: row.dueDate,
      daysLeft: numberOrNull(row.daysLeft),
      kmLeft: numberOrNull(row.kmLeft),
      projectedKm: numberOrNull(row.projectedKm),
      limitKm: numberOrNull(row.limitKm),
      excessKm: numberOrNull(row.excessKm),
      excessCost: numberOrNull(row.excessCost),
      ...(row.tooFewReadings === null ? {} : { tooFewReadings: row.tooFewReadings }),
      text: '',
      open: { screen: rule.open.screen, id: recordId, ...(rule.open.tab ? { tab: rule.open.tab } : {}) },
    };
    item.text = itemText(app.config.t, rule, item, row.recordLabel, locale ?? 'pl-PL');
    if (rule.action) item.action = { label: app.config.t(rule.action.label), screen: rule.action.screen, ...(rule.action.mode ? { mode: rule.action.mode } : {}) };
    return item;
  }

  return { summary, items };
}

export type Reminders = ReturnType<typeof createReminders>;

declare module 'fastify' {
  interface FastifyInstance {
    reminders: Reminders;
  }
}

export default fp(async (app) => {
  app.decorate('reminders', createReminders(app));
}, { name: 'reminders', dependencies: ['db', 'config'] });
