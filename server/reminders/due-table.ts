/**
 * reminder_due (migration 015) kept fresh: what is due per rule definition and record, so that a
 * cockpit counts and pages rows by index instead of computing every rule over every vehicle.
 *
 * How it stays fresh (docs/decisions.md "Reminders: what is due, kept per record"):
 * - a write to any table with a "pojazdId" column marks the vehicles it touched in reminder_dirty,
 *   by triggers, in the writer's own transaction;
 * - every read first refreshes the marked vehicles (`drain`): their rows of every known rule
 *   definition are computed again and the marks removed, in one transaction; an item that
 *   appeared or got worse is noted in reminder_change for the daily digest (migration 017). A reader therefore
 *   sees every committed write: its mark is either drained by this reader, or by another drain
 *   that committed before this reader's lock was granted;
 * - a definition (a rule and everything its SQL depends on, keyed by a hash) is computed for all
 *   records once, the first time a process serves it (`ensure`): a variant that moves a threshold,
 *   a reload, a new analyst rule get rows of their own, and an old definition no process has
 *   served for a week is dropped;
 * - nothing depends on the day: the rows hold the days from which an item is soon, urgent and
 *   past due, and the reader compares them with today, so the table needs no nightly pass.
 *
 * Builds and drains of all processes take turns on one transaction-level advisory lock, so a
 * drain never misses a definition being built, and two drains never compute the same vehicle.
 */
import { createHash } from 'node:crypto';
import { sql, type Kysely, type SqlBool, type Transaction } from 'kysely';
import type { ReminderRule } from '../../runtime/core/generated/meta.ts';
import type { Bundle } from '../config/bundle.ts';
import { byConfiguration } from '../db/configured-tables.ts';
import type { DB } from '../db/types.generated.ts';
import { DUE_COLUMNS, dueRowsQuery, listedAt, urgencyAt, urgencyRank, type RuleDefinition } from './rule-sql.ts';

/** Raised when dueRowsQuery computes other rows for the same definition: every key changes, every row is built anew. */
const COMPUTATION_VERSION = 1;
/** Vehicles refreshed per transaction: a bulk import is drained in steps that each hold the lock briefly. */
const DRAIN_BATCH = 2000;
/** Changes a write made (reminder_change, for the daily digest) are kept this long. */
const CHANGES_KEPT_DAYS = 30;
/** A definition no process has served for this long is dropped with its rows. */
const UNUSED_DAYS = 7;
/** A process tells the database again that it serves a definition this often (so it is never dropped under it). */
const SEEN_AGAIN_MS = 24 * 3600_000;

/** A rule with what its SQL reads from the bundle, and the key its rows are stored under. */
export interface KeyedRule {
  key: string;
  rule: ReminderRule;
  definition: RuleDefinition;
}

function titleFields(bundle: Bundle, screen: string): string[] {
  const title = (bundle.screens[screen] as { titleField?: string | string[] } | undefined)?.titleField;
  return title === undefined ? [] : Array.isArray(title) ? title : [title];
}

/** JSON with its object keys sorted: the same definition always hashes the same. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    return `{${Object.keys(value).sort().map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

export function keyedRule(rule: ReminderRule, bundle: Bundle): KeyedRule {
  const resource = bundle.resources[rule.resource];
  const entity = bundle.schemas[resource.entity] as RuleDefinition['entity'];
  const definition: RuleDefinition = {
    rule,
    resource: { source: resource.source, key: resource.key, ...(resource.scopeColumns ? { scopeColumns: resource.scopeColumns } : {}) },
    // the columns' names and types are what the SQL reads of the entity
    entity: { properties: entity.properties ?? {} },
    titles: titleFields(bundle, rule.open.screen),
  };
  const hash = createHash('sha256').update(`${COMPUTATION_VERSION}:${stableJson(definition)}`).digest('hex').slice(0, 16);
  return { key: `${rule.id}@${hash}`, rule, definition };
}

async function takeTurn(trx: Transaction<DB>): Promise<void> {
  await sql`set local statement_timeout = 0`.execute(trx); // a first build covers every record
  await sql`select pg_advisory_xact_lock(hashtext(current_schema() || ':reminder_due'))`.execute(trx);
}

export function createDueTable(db: Kysely<DB>) {
  /** The keys this process has seen built, and when: it asks the database once a day per key. */
  const built = new Map<string, number>();
  const configured = (trx: Transaction<DB>) => byConfiguration(trx);

  async function insertRows(trx: Transaction<DB>, rule: KeyedRule | { key: string; definition: RuleDefinition }, vehicles?: readonly number[]) {
    const columns = sql.join(DUE_COLUMNS.map((c) => sql.ref(c)));
    await sql`insert into reminder_due (${columns}) ${dueRowsQuery(rule.definition, rule.key, configured(trx), vehicles)}`.execute(trx);
  }

  /** Makes sure every rule has its rows, building those of a definition not seen before. */
  async function ensure(rules: readonly KeyedRule[]): Promise<void> {
    const now = Date.now();
    const missing = rules.filter((r) => now - (built.get(r.key) ?? -Infinity) > SEEN_AGAIN_MS);
    if (missing.length === 0) return;
    await db.transaction().execute(async (trx) => {
      await takeTurn(trx);
      for (const rule of missing) {
        const row = await trx
          .insertInto('reminder_rule')
          .values({ ruleKey: rule.key, definition: JSON.stringify(rule.definition) })
          .onConflict((oc) => oc.column('ruleKey').doUpdateSet({ seenAt: sql`now()` }))
          .returning('builtAt')
          .executeTakeFirstOrThrow();
        if (row.builtAt === null) {
          await trx.deleteFrom('reminder_due').where('ruleKey', '=', rule.key).execute();
          await insertRows(trx, rule);
          await trx.updateTable('reminder_rule').set({ builtAt: sql`now()` }).where('ruleKey', '=', rule.key).execute();
        }
      }
      // definitions no process serves any more (a threshold moved, a rule removed) go with their rows
      await trx.deleteFrom('reminder_rule').where('seenAt', '<', sql<Date>`now() - ${sql.lit(`${UNUSED_DAYS} days`)}::interval`).execute();
      await sql`delete from reminder_count c where not exists (select 1 from reminder_rule r where r."ruleKey" = c."ruleKey")`.execute(trx);
    });
    for (const rule of missing) built.set(rule.key, now);
  }

  /**
   * Refreshes the vehicles writes have marked, for every built definition; returns how many. An
   * item the refresh makes appear or get worse on `today` is written to reminder_change (the
   * daily digest's "changed by a write", migration 017).
   */
  async function drain(today: string): Promise<number> {
    let total = 0;
    for (;;) {
      const pending = await db.selectFrom('reminder_dirty').select('pojazdId').limit(1).executeTakeFirst();
      if (!pending) return total;
      total += await db.transaction().execute(async (trx) => {
        await takeTurn(trx);
        const taken = await sql<{ pojazdId: number }>`
          delete from reminder_dirty where "pojazdId" in (select "pojazdId" from reminder_dirty order by 1 limit ${DRAIN_BATCH})
          returning "pojazdId"`.execute(trx);
        if (taken.rows.length === 0) return 0; // another process drained them while this one waited
        const vehicles = taken.rows.map((r) => r.pojazdId);
        const definitions = await trx.selectFrom('reminder_rule').select(['ruleKey', 'definition']).where('builtAt', 'is not', null).execute();
        const ofVehicles = sql<SqlBool>`"pojazdId" = any(${sql.val(vehicles)}::integer[]) and ${listedAt(today)}`;
        const before = await sql<{ ruleKey: string; recordId: string; urgency: string }>`
          select "ruleKey", "recordId", ${urgencyAt(today)} as urgency from reminder_due where ${ofVehicles}`.execute(trx);
        await trx.deleteFrom('reminder_due').where('pojazdId', '=', sql<number>`any(${sql.val(vehicles)}::integer[])`).execute();
        for (const d of definitions) await insertRows(trx, { key: d.ruleKey, definition: d.definition as unknown as RuleDefinition }, vehicles);
        const old = (column: 'ruleKey' | 'recordId' | 'urgency') => sql.val(before.rows.map((r) => r[column]));
        await sql`
          insert into reminder_change ("ruleKey", "recordId", "urgency", "scopeClient", "scopeVehicle", "scopeStation", "scopeUser")
          select fresh."ruleKey", fresh."recordId", fresh."urgency", fresh."scopeClient", fresh."scopeVehicle", fresh."scopeStation", fresh."scopeUser"
          from (select *, ${urgencyAt(today)} as "urgency" from reminder_due where ${ofVehicles}) as fresh
          left join unnest(${old('ruleKey')}::text[], ${old('recordId')}::text[], ${old('urgency')}::text[]) as old("ruleKey", "recordId", "urgency")
            on old."ruleKey" = fresh."ruleKey" and old."recordId" = fresh."recordId"
          where old."urgency" is null or ${urgencyRank(sql.ref('fresh.urgency'))} < ${urgencyRank(sql.ref('old.urgency'))}`.execute(trx);
        await trx.deleteFrom('reminder_change').where('at', '<', sql<Date>`now() - ${sql.lit(`${CHANGES_KEPT_DAYS} days`)}::interval`).execute();
        await trx.deleteFrom('reminder_count').where('n', '=', 0).execute(); // the sums the refresh emptied
        return vehicles.length;
      });
    }
  }

  /** Forgets what this process knows was built (a test that empties the table). */
  const forget = () => built.clear();

  return { ensure, drain, forget };
}

export type DueTable = ReturnType<typeof createDueTable>;
