/**
 * Every shipped reminder rule (screens/reminders.json) at the edges of its thresholds, with the
 * day fixed: the SQL of rule-sql.ts (the rows reminder_due stores, read on that day) run on an embedded PostgreSQL against a probe table that holds
 * just the columns the rule reads. What each edge must give is issue 24's rule, written here:
 * one day (km) past due is past due, the due day itself and the urgent threshold are urgent, the
 * day after it soon up to the soon threshold, the day after that not listed.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReminderRule } from '../../runtime/core/generated/meta.ts';
import type { Session } from '../auth/sessions.ts';
import { loadBundle } from '../config/load-bundle.ts';
import { byConfiguration, type ConfiguredTables } from '../db/configured-tables.ts';
import { openTestDatabase, type TestDatabase } from '../seed/testing.ts';
import { dueRowsQuery, listedAt, urgencyAt, type RuleDefinition } from './rule-sql.ts';
import { ROOT } from '../../tests/support/test-app.ts';

const TODAY = '2031-03-10';
const ADMIN: Session = { tokenHash: '', userId: 1, login: 'admin', role: 'ADMIN', klientSymbol: null, stacjaSerw: null, pojazdId: null, termsPending: false, firstLogin: false };
const rules = (loadBundle({ root: ROOT }).screens.reminders as unknown as { rules: ReminderRule[] }).rules;

/** What an edge must give: `left` days (km) before the due day (distance). */
function expected(left: number, t: ReminderRule['thresholds']): string | null {
  if (left < 0) return 'pastDue';
  if (left <= t.urgent) return 'urgent';
  if (left <= t.soon) return 'soon';
  return null;
}

const edges = (t: ReminderRule['thresholds']) => [...new Set([-1, 0, t.urgent, t.urgent + 1, t.soon, t.soon + 1])].sort((a, b) => a - b);

const addDays = (day: string, n: number) => {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

describe('each shipped reminder rule at its edges', () => {
  let database: TestDatabase;
  // the probe tables exist only here: the database as the configuration addresses it
  let db: Kysely<ConfiguredTables>;

  beforeAll(async () => {
    database = await openTestDatabase({ kind: 'pglite', migrate: true });
    db = byConfiguration(database.db);
  });
  afterAll(async () => database?.close());

  /** A probe table with the rule's columns, one row per edge; the rule retargeted to it. */
  async function probe(rule: ReminderRule, rows: Record<string, unknown>[], columns: Record<string, string>) {
    const table = `probe_${rule.id.toLowerCase()}`;
    const defs = Object.entries({ id: 'integer', pojazdId: 'integer', ...columns }).map(([c, type]) => `"${c}" ${type}`).join(', ');
    await sql.raw(`create table ${table} (${defs})`).execute(db);
    for (const [i, row] of rows.entries()) {
      // a vehicle of its own each (no such car: a probe reads nothing of it)
      const names = ['id', 'pojazdId', ...Object.keys(row)];
      await sql`insert into ${sql.table(table)} (${sql.join(names.map((n) => sql.ref(n)))}) values (${sql.join([i + 1, 900_000 + i, ...Object.values(row)])})`.execute(db);
    }
    const typeOf = (t: string) => (t === 'integer' ? { type: ['integer', 'null'] } : t === 'boolean' ? { type: ['boolean', 'null'] } : t === 'text' ? { type: ['string', 'null'] } : { type: ['string', 'null'], format: t === 'date' ? 'date' : 'date-time' });
    const entity = { type: 'object', properties: Object.fromEntries(Object.entries({ id: 'integer', pojazdId: 'integer', ...columns }).map(([c, t]) => [c, typeOf(t)])) };
    const definition: RuleDefinition = { rule: { ...rule, resource: 'probe', open: { screen: 'none' } }, resource: { source: table, key: 'id' }, entity, titles: [] };
    // the rows as reminder_due stores them, read on TODAY as the cockpit reads them
    const stored = dueRowsQuery(definition, rule.id, db);
    const { rows: found } = await sql<{ recordId: string; urgency: string }>`
      select "recordId", ${urgencyAt(TODAY)} as urgency from (${stored}) as due where ${listedAt(TODAY)}`.execute(db);
    return new Map(found.map((r) => [Number(r.recordId), r.urgency]));
  }

  for (const rule of rules.filter((r) => r.due.kind === 'date')) {
    it(`${rule.id}: ${edges(rule.thresholds).map((e) => `${e} days`).join(', ')} before its due day`, async () => {
      const due = rule.due as Extract<ReminderRule['due'], { kind: 'date' }>;
      const cases = edges(rule.thresholds);
      // the watched date lies afterDays before the due day (a reading 90 days old is due)
      const rows = cases.map((left) => ({ [due.field]: addDays(TODAY, left - (due.afterDays ?? 0)), ...whereValues(rule) }));
      const fieldType = rule.resource === 'order' || rule.resource === 'damage' ? 'timestamptz' : 'date';
      const found = await probe(rule, rows, { [due.field]: fieldType, ...whereColumns(rule) });
      cases.forEach((left, i) => expect(found.get(i + 1) ?? null, `${left} days`).toBe(expected(left, rule.thresholds)));
    });
  }

  for (const rule of rules.filter((r) => r.due.kind === 'distance')) {
    it(`${rule.id}: ${edges(rule.thresholds).map((e) => `${e} km`).join(', ')} before its limit`, async () => {
      const due = rule.due as Extract<ReminderRule['due'], { kind: 'distance' }>;
      const cases = edges(rule.thresholds);
      const rows = cases.map((left) => ({ [due.limit]: 100_000, [due.reading]: 100_000 - left }));
      const found = await probe(rule, rows, { [due.limit]: 'integer', [due.reading]: 'integer' });
      cases.forEach((left, i) => expect(found.get(i + 1) ?? null, `${left} km`).toBe(expected(left, rule.thresholds)));
    });
  }

  for (const rule of rules.filter((r) => r.due.kind === 'date' && r.due.whenEmpty)) {
    it(`${rule.id}: a record never done is urgent from the start and never past due; one the rule's filter excludes is not listed`, async () => {
      const due = rule.due as Extract<ReminderRule['due'], { kind: 'date' }>;
      const matching = whereValues(rule);
      // the same record failing the filter's yes/no (the weekly inspection: a vehicle not handed over)
      const unmatched = Object.fromEntries(Object.entries(matching).map(([k, v]) => [k, typeof v === 'boolean' ? !v : v]));
      expect(unmatched, 'the rule has a yes/no filter to fail').not.toEqual(matching);
      const found = await probe({ ...rule, id: `${rule.id}Never` }, [{ [due.field]: null, ...matching }, { [due.field]: null, ...unmatched }], { [due.field]: 'date', ...whereColumns(rule) });
      expect(found.get(1)).toBe('urgent');
      expect(found.has(2)).toBe(false);
    });
  }

  it('keeps out the rows the rule\'s filter excludes (an order of another status, a closed damage)', async () => {
    const rule = rules.find((r) => r.id === 'ordersAwaitingAcceptance')!;
    const found = await probe({ ...rule, id: 'statusFilter' }, [
      { zgloData: `${TODAY}T08:00:00Z`, status: 1 },
      { zgloData: `${TODAY}T08:00:00Z`, status: 2 },
    ], { zgloData: 'timestamptz', status: 'integer' });
    expect([...found.keys()]).toEqual([1]);
  });
});

/** Columns and values that satisfy a rule's `where` (status 1, a stage not closed …). */
/** A set filter's value that is a word (a vehicle category: "Osobowe"), not a yes or no. */
const isWord = (value: unknown) => typeof value === 'string' && value !== 'true' && value !== 'false';

function whereColumns(rule: ReminderRule): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, filter] of Object.entries((rule.where ?? {}) as Record<string, { filterType: string; values?: unknown[] }>)) {
    out[name] = filter.filterType === 'text' || isWord(filter.values?.[0]) ? 'text' : typeof filter.values?.[0] === 'number' ? 'integer' : 'boolean';
  }
  return out;
}
function whereValues(rule: ReminderRule): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, filter] of Object.entries((rule.where ?? {}) as Record<string, { filterType: string; values?: unknown[] }>)) {
    out[name] = filter.filterType === 'text' ? 'Zgłoszona' : isWord(filter.values?.[0]) || typeof filter.values?.[0] === 'number' ? filter.values![0] : filter.values?.[0] === 'true';
  }
  return out;
}
