/**
 * DESIGN.md §3: "every sortable column is indexed". For each resource declared `large` (orders,
 * vehicles), each column a table screen over it lets the user sort, each role whose scope reads
 * many rows, and both directions, the first block's query must be answered in order by an index:
 * its plan (with sorting and sequential scans priced out, so the planner uses an index whenever
 * one fits) contains no Sort node. A sortable column added to a screen without an index, or a
 * joined column left sortable, fails here with its name.
 */
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../tests/support/test-app.ts';
import type { Session } from '../auth/sessions.ts';
import { loadBundle, type ResourceDecl } from '../config/load-bundle.ts';
import { openTestDatabase, testBackends, type TestDatabase } from '../seed/testing.ts';
import { scopeExpression } from '../access/row-scope.ts';
import { columnsFromSchema, orderBy, sortKeys } from '../db/table-query.ts';
import { byConfiguration, type ConfiguredTables } from '../db/configured-tables.ts';

const bundle = loadBundle({ root: ROOT });
const SESSIONS: Record<string, Partial<Session>> = {
  ADMIN: { role: 'ADMIN', userId: 1 },
  MANAGER: { role: 'MANAGER', userId: 2, klientSymbol: 'KL001' },
  ADVISOR: { role: 'ADVISOR', userId: 5, stacjaSerw: 'SS01', pojazdId: 1 },
};
/** Scopes that read many rows; a USER's own vehicle has a handful, read by the (pojazdId, …) indexes. */
const WIDE_SCOPES = new Set(['all', 'client', 'station']);

interface Case {
  resource: ResourceDecl;
  field: string;
  role: string;
  dir: 'asc' | 'desc';
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const resource of Object.values(bundle.resources).filter((r) => r.large)) {
    const columns = columnsFromSchema(bundle.schemas[resource.entity]);
    const fields = new Set<string>();
    for (const screen of Object.values(bundle.screens) as any[]) {
      if (screen.type !== 'table' || screen.resource !== resource.resource) continue;
      for (const column of screen.columns) {
        const field = column.field ?? column.id;
        if (column.sortable !== false && columns.has(field)) fields.add(field);
      }
    }
    for (const [role, scope] of Object.entries(resource.access ?? {})) {
      if (!WIDE_SCOPES.has(scope)) continue;
      for (const field of fields) for (const dir of ['asc', 'desc'] as const) out.push({ resource, field, role, dir });
    }
  }
  return out;
}

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };
const nodes = (n: PlanNode): PlanNode[] => [n, ...(n.Plans ?? []).flatMap(nodes)];

async function plan(db: Kysely<ConfiguredTables>, c: Case): Promise<PlanNode> {
  const entity = bundle.schemas[c.resource.entity];
  const columns = columnsFromSchema(entity);
  const session = SESSIONS[c.role] as Session;
  const query = orderBy(
    db
      .selectFrom(c.resource.source)
      .where((eb) => scopeExpression(eb, bundle.resources, c.resource, session, 'forbidden'))
      .select(Object.keys(entity.properties ?? {}).map((p) => sql.ref(p).as(p))),
    sortKeys(columns, [{ colId: c.field, sort: c.dir }], c.resource.key),
  )
    .limit(30)
    .compile();
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_sort = off`.execute(trx);
    await sql`set local enable_seqscan = off`.execute(trx);
    const result = await trx.executeQuery<Record<string, unknown>>({ ...query, sql: `explain (format json) ${query.sql}` });
    const cell = Object.values(result.rows[0])[0];
    return ((typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[])[0].Plan;
  });
}

describe.each(testBackends)('indexes of the large tables on %s', (kind) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase({ kind, seed: true });
  }, 120_000);
  afterAll(async () => t?.close());

  const all = cases();
  it('cover the orders and vehicles lists', () => {
    expect(new Set(all.map((c) => c.resource.resource))).toEqual(new Set(['order', 'car']));
    expect(all.length).toBeGreaterThan(100);
  });

  it.each(all.map((c) => [c.resource.resource, c.field, c.dir, c.role, c] as const))('%s sorted by %s %s for %s is read in index order', async (_r, _f, _d, _role, c) => {
    const root = await plan(byConfiguration(t.db), c);
    const sorts = nodes(root).filter((n) => /Sort/.test(n['Node Type']));
    expect(sorts.map((n) => n['Node Type'])).toEqual([]);
  });

  // A count or the keys of a deep jump read the view but none of its joined columns; the joins are
  // removed, and their joining columns must be in the index for it to answer alone (migration 013).
  it.each([
    ['ADMIN', sql`status in (1, 9, 10)`],
    ['MANAGER', sql`"klientSymbol" = 'KL001' and status in (1, 9, 10)`],
    ['MANAGER', sql`"klientSymbol" = 'KL001'`],
  ] as const)('counts the orders list of %s (%#) from an index alone, never visiting the table', async (_role, where) => {
    const root = await t.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      await sql`set local enable_bitmapscan = off`.execute(trx);
      const { rows } = await sql<Record<string, unknown>>`explain (format json) select count(*) from (select 1 from v_order where ${where} limit 100001) t`.execute(trx);
      const cell = Object.values(rows[0])[0];
      return ((typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[])[0].Plan;
    });
    const scans = nodes(root).filter((n) => /Scan/.test(n['Node Type']));
    expect(scans.map((n) => n['Node Type'])).toEqual(['Index Only Scan']);
  });
});
