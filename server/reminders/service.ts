/**
 * `app.reminders`: what is due for the caller (issue 24), from the rules of screens/reminders.json
 * in the bundle in use: the rows reminder_due holds for them (due-table.ts keeps them fresh,
 * rule-sql.ts computes them), counted and paged by the database within the caller's rows.
 *
 * - `summary`: per rule shown to the caller, its counts by urgency (one statement for all rules);
 * - `items`: a page of items, most urgent first, then by the day they come due, with the vehicle's
 *   registration and model and the item's text in Polish (texts.ts).
 *
 * `today` is the day in the portal's time zone at `app.clock()`, so tests fix the clock.
 */
import fp from 'fastify-plugin';
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import { configuredBuilder } from '../db/configured-tables.ts';
import type { FastifyInstance } from 'fastify';
import type { ReminderRule, RemindersFile } from '../../runtime/core/generated/meta.ts';
import type { Session } from '../auth/sessions.ts';
import type { Bundle, ResourceDecl } from '../config/bundle.ts';
import { localeOf, timeZoneOf } from '../config/locale.ts';
import { datePatternFor, type Language } from '../config/languages.ts';
import { HttpError } from '../http-error.ts';
import { scopeExpression, scopeOf } from '../access/row-scope.ts';
import type { DB } from '../db/types.generated.ts';
import { createDueTable, keyedRule, type KeyedRule } from './due-table.ts';
import { DUE_SCOPE_COLUMNS, listedAt, ruleShownTo, urgencyAt, urgencyRank, URGENCIES, type RuleRow, type Urgency } from './rule-sql.ts';
import { itemText, leftText } from './texts.ts';
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

export interface ReminderItem extends Omit<RuleRow, 'recordLabel' | 'tooFewReadings' | 'openId'> {
  tooFewReadings?: boolean;
  label: string;
  rejestr: string | null;
  markaModel: string | null;
  text: string;
  /** How long is left, one sentence saying which limit comes first (texts.ts leftText). */
  left: string;
  open: { screen: string; id: number | string; tab?: string };
  action?: { label: string; screen: string; mode?: string };
}

/** A row of reminder_due as the items query answers it. */
type StoredItem = Omit<RuleRow, 'rule'> & { ruleKey: string; rejestr: string | null; markaModel: string | null };

const unitOf = (rule: ReminderRule): 'days' | 'km' => (rule.due.kind === 'date' ? 'days' : 'km');

/** The order of the items within an urgency: by the day they come due. */
const ITEM_ORDER = sql`"dueDate" asc nulls last, "kmLeft" asc nulls last, "ruleKey", "recordId"`;

type Counts = Map<string, Record<Urgency, number>>;

function createReminders(app: FastifyInstance) {
  const due = createDueTable(app.db);
  /** A rule's key hashes its definition: once per rule object of a loaded bundle (a reload brings new objects). */
  const keyed = new WeakMap<ReminderRule, KeyedRule>();
  const keyedOnce = (rule: ReminderRule, bundle: Bundle) => {
    let found = keyed.get(rule);
    if (!found) keyed.set(rule, (found = keyedRule(rule, bundle)));
    return found;
  };

  /** The serving variant: the request's, or the one a digest names for its reader. */
  type Variant = Pick<FastifyInstance['config'], 'bundle' | 't'> & { language?: Pick<Language, 'locale' | 'datePattern'> };
  /** The reader's language's locale and date pattern (the request's, or the recipient's for an e-mail). */
  const styleOf = (variant: Variant) => ({
    locale: variant.language?.locale ?? localeOf(variant.bundle.config),
    datePattern: variant.language?.datePattern ?? datePatternFor(variant.bundle),
  });

  /** The rules of the bundle in use shown to the caller, keyed as their rows are stored, and today. */
  const context = (session: Session, variant: Variant = app.config) => {
    const bundle = variant.bundle;
    const file = bundle.screens.reminders as unknown as RemindersFile | undefined;
    const rules = (file?.rules ?? []).filter((rule) => ruleShownTo(rule, bundle.resources, session.role)).map((rule) => keyedOnce(rule, bundle));
    return { rules, today: dayIn(app.clock(), timeZoneOf(bundle.config)) };
  };

  /**
   * The rules by resource, each with the caller's scope on it (ACCESS.md, the resource's
   * declaration), read from the scope columns stored with the rows; their rows fresh.
   */
  async function scoped(session: Session, rules: readonly KeyedRule[], variant: Variant = app.config) {
    await due.ensure(rules);
    await due.drain(dayIn(app.clock(), timeZoneOf(variant.bundle.config)));
    const bundle = variant.bundle;
    const forbidden = variant.t('errors:forbidden');
    const byResource = new Map<string, KeyedRule[]>();
    for (const rule of rules) byResource.set(rule.rule.resource, [...(byResource.get(rule.rule.resource) ?? []), rule]);
    return [...byResource].map(([name, group]) => {
      const stored: ResourceDecl = { ...bundle.resources[name], source: 'reminder_due', scopeColumns: DUE_SCOPE_COLUMNS };
      const keys = sql<string>`any(${sql.val(group.map((r) => r.key))}::text[])`;
      return {
        keys,
        scope: scopeOf(bundle.resources, stored, session, forbidden),
        /** The conditions on reminder_due: these rules, listed today, within the caller's rows. */
        where: (eb: ExpressionBuilder<DB, 'reminder_due'>, today: string) =>
          eb.and([eb('ruleKey', '=', keys), listedAt(today), scopeExpression(configuredBuilder(eb), bundle.resources, stored, session, forbidden)]),
      };
    });
  }

  type Branches = Awaited<ReturnType<typeof scoped>>;

  /**
   * Per rule and urgency, how many items: an administrator's (every row) and a manager's (a
   * client) add up reminder_count's sums; a driver's or an advisor's few rows are counted.
   */
  async function countsOf(session: Session, rules: readonly KeyedRule[], today: string, pojazdId?: number, branches?: Branches): Promise<Counts> {
    const counts: Counts = new Map(rules.map((r) => [r.key, { pastDue: 0, urgent: 0, soon: 0 }]));
    if (rules.length === 0) return counts;
    const parts = (branches ?? (await scoped(session, rules))).map(({ keys, scope, where }) => {
      if (pojazdId === undefined && (scope === 'all' || scope === 'client')) {
        return app.db
          .selectFrom('reminder_count')
          .select(['ruleKey', urgencyAt(today).as('urgency'), sql<string>`sum("n")`.as('n')])
          .where((eb) => eb.and([
            eb('ruleKey', '=', keys),
            listedAt(today),
            scope === 'all' ? sql<SqlBool>`true` : session.klientSymbol ? eb('scopeClient', '=', session.klientSymbol) : sql<SqlBool>`false`,
          ]))
          .groupBy(sql`1, 2`);
      }
      return app.db
        .selectFrom('reminder_due')
        .select(['ruleKey', urgencyAt(today).as('urgency'), sql<string>`count(*)`.as('n')])
        .where((eb) => eb.and([where(eb, today), pojazdId === undefined ? sql<SqlBool>`true` : eb('pojazdId', '=', pojazdId)]))
        .groupBy(sql`1, 2`);
    });
    const { rows } = await sql<{ ruleKey: string; urgency: Urgency; n: string | number }>`${sql.join(parts.map((p) => sql`(${p})`), sql` union all `)}`.execute(app.db);
    for (const row of rows) counts.get(row.ruleKey)![row.urgency] += Number(row.n);
    return counts;
  }

  async function summary(session: Session): Promise<{ today: string; rules: RuleSummary[] }> {
    const { rules, today } = context(session);
    const counts = await countsOf(session, rules, today);
    return {
      today,
      rules: rules.map(({ key, rule }) => {
        const c = counts.get(key)!;
        const total = c.pastDue + c.urgent + c.soon;
        const worst = URGENCIES.find((u) => c[u] > 0) ?? null;
        const out: RuleSummary = { id: rule.id, label: app.config.t(rule.label), unit: unitOf(rule), counts: c, total, worst };
        if (rule.table) out.table = { route: rule.table.route, filter: (rule.where ?? {}) as Record<string, unknown> };
        return out;
      }),
    };
  }

  /**
   * A page of items, most urgent first: the counts say which urgencies the page reaches, and each
   * is read in the order of the day it comes due, from the index, as far as the page needs.
   */
  async function items(session: Session, query: ItemsQuery, variant: Variant = app.config): Promise<{ total: number; items: ReminderItem[] }> {
    const { rules: shown, today } = context(session, variant);
    let rules = shown;
    if (query.rule !== undefined) {
      rules = shown.filter((r) => r.rule.id === query.rule);
      if (rules.length === 0) {
        const message = variant.t('reminders:errors.unknownRule');
        throw new HttpError(400, `rule: ${message}`, { code: 'VALIDATION', errors: [{ field: 'rule', message }] });
      }
    }
    if (rules.length === 0) return { total: 0, items: [] };
    const branches = await scoped(session, rules, variant);
    const counts = await countsOf(session, rules, today, query.pojazdId, branches);
    const urgencies = query.urgency ? [query.urgency] : URGENCIES;
    const sizes = urgencies.map((u) => [...counts.values()].reduce((sum, c) => sum + c[u], 0));
    const total = sizes.reduce((a, b) => a + b, 0);
    const rows: StoredItem[] = [];
    let skip = query.offset ?? 0;
    let need = query.limit ?? 20;
    for (const [i, urgency] of urgencies.entries()) {
      if (need === 0) break;
      if (skip >= sizes[i]) {
        skip -= sizes[i];
        continue;
      }
      // one statement with the branches or-ed (not a union): the planner then reads the index in
      // the items' order and stops at the page, instead of sorting every item of the urgency
      const page = await sql<StoredItem>`
        select page.*, ${urgency}::text as "urgency", ("dueDate" - ${today}::date) as "daysLeft", vehicle."rejestr", vehicle."markaModel" from (
          ${app.db
            .selectFrom('reminder_due')
            .selectAll()
            .where((eb) => eb.and([
              eb.or(branches.map(({ where }) => where(eb, today))),
              sql<SqlBool>`${urgencyAt(today)} = ${urgency}`,
              query.pojazdId === undefined ? sql<SqlBool>`true` : eb('pojazdId', '=', query.pojazdId),
            ]))
            .orderBy(ITEM_ORDER)
            .limit(need)
            .offset(skip)}
        ) as page left join car as vehicle on vehicle."pojazdId" = page."pojazdId"
        order by ${ITEM_ORDER}`.execute(app.db);
      rows.push(...page.rows);
      need -= page.rows.length;
      skip = 0;
    }
    const byKey = new Map(rules.map((r) => [r.key, r.rule]));
    const style = styleOf(variant);
    return { total, items: rows.map((row) => toItem(row, byKey.get(row.ruleKey)!, style, variant.t)) };
  }

  /**
   * What is new or got worse for the caller since `since` (the daily digest): items whose soon,
   * urgent or past-due day came after `since.day` and by today, or that a write made appear or
   * get worse after `since.at` (reminder_change); the most urgent first, `limit` of them, and how
   * many in all. Without `since` (a first digest) everything listed is new.
   */
  async function changes(session: Session, since: { day: string; at: Date } | null, limit: number, variant: Variant = app.config): Promise<{ total: number; items: ReminderItem[] }> {
    const { rules, today } = context(session, variant);
    if (rules.length === 0) return { total: 0, items: [] };
    if (since === null) return items(session, { limit }, variant); // everything listed: the cockpit's first page and count
    const branches = await scoped(session, rules, variant);
    // the items whose soon, urgent or past-due day fell after the last digest and by today, or that
    // a write made appear or worse since: each found by its own index, then read within the branches
    const keys = sql`any(${sql.val(rules.map((r) => r.key))}::text[])`;
    const cameBy = (column: 'soonFrom' | 'urgentFrom' | 'pastFrom') => sql`
      select "ruleKey", "recordId" from reminder_due
      where "ruleKey" = ${keys} and ${sql.ref(column)} > ${since.day}::date and ${sql.ref(column)} <= ${today}::date`;
    const changedKeys = sql`${cameBy('soonFrom')} union ${cameBy('urgentFrom')} union ${cameBy('pastFrom')}
      union select "ruleKey", "recordId" from reminder_change where "at" > ${since.at} and "ruleKey" = ${keys}`;
    const changed = app.db
      .selectFrom('reminder_due')
      .selectAll()
      .select(urgencyAt(today).as('urgency'))
      .where((eb) => eb.and([
        eb.or(branches.map(({ where }) => where(eb, today))),
        sql<SqlBool>`("ruleKey", "recordId") in (${changedKeys})`,
      ]));
    const [page, count] = await Promise.all([
      sql<StoredItem>`
        select page.*, ("dueDate" - ${today}::date) as "daysLeft", vehicle."rejestr", vehicle."markaModel" from (
          select * from (${changed}) as due order by ${urgencyRank(sql.ref('urgency'))}, ${ITEM_ORDER} limit ${limit}
        ) as page left join car as vehicle on vehicle."pojazdId" = page."pojazdId"
        order by ${urgencyRank(sql.ref('urgency'))}, ${ITEM_ORDER}`.execute(app.db),
      sql<{ n: string | number }>`select count(*) as n from (${changed}) as due`.execute(app.db),
    ]);
    const byKey = new Map(rules.map((r) => [r.key, r.rule]));
    const style = styleOf(variant);
    return { total: Number(count.rows[0]?.n ?? 0), items: page.rows.map((row) => toItem(row, byKey.get(row.ruleKey)!, style, variant.t)) };
  }

  function toItem(row: StoredItem, rule: ReminderRule, { locale, datePattern }: ReturnType<typeof styleOf>, t: Variant['t'] = app.config.t): ReminderItem {
    const asId = (value: number | string) => (/^\d+$/.test(String(value)) ? Number(value) : value);
    const recordId = asId(row.recordId);
    const numberOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));
    const item: ReminderItem = {
      rule: rule.id,
      label: t(rule.label),
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
      left: '',
      open: { screen: rule.open.screen, id: asId(row.openId), ...(rule.open.tab ? { tab: rule.open.tab } : {}) },
    };
    item.text = itemText(t, rule, item, row.recordLabel, locale, datePattern);
    item.left = leftText(t, rule, item, locale);
    if (rule.action) item.action = { label: t(rule.action.label), screen: rule.action.screen, ...(rule.action.mode ? { mode: rule.action.mode } : {}) };
    return item;
  }

  return { summary, items, changes, dueTable: due };
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
