/**
 * The audit trail at fleet scale (issue 37): with 10,000,000 entries, how long a record's "Historia
 * zmian" and the administrator's first page of "Dziennik zmian" (default sort, newest first; and
 * filtered by what was changed) take, over HTTP, as the browser asks. Target: 50 ms p95.
 *
 * The entries are generated in SQL (generate_series: minutes for 10M rather than hours through the
 * writer) into the bench's database, once: a later run with the same count reuses them (the bench's
 * own `app_setting` 'bench-audit' says how many). Their hashes are NOT a real chain (each entry's
 * `hash` is an md5 of its seq, `prevHash` the previous one's, so the head fits but `--verify` would
 * fail on the first): the chain's arithmetic is not measured here, only reading. Their shape follows
 * the trail's: a tenth of the records are orders (key = an order of the bench data, so a manager's
 * order has entries), positions of orders (`<order>/<n>`), vehicles, damages, users and the rest;
 * each entry is 3 seconds after the previous one (10M span about a year).
 *
 * In the full run (tools/bench/index.ts) the part uses the bench's server and data. Alone, on a
 * small seed of its own (schema bench_audit, 2,000 vehicles, 20,000 orders):
 *   node --import tsx tools/bench/audit.ts [--entries 1000000] [--repetitions 40]
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql, type Kysely } from 'kysely';
import type { DB } from '../../server/db/types.generated.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import type { Api } from './http.ts';
import { runStandalone } from './standalone.ts';
import { latency, timed } from './stats.ts';

export const AUDIT_ENTRIES = 10_000_000;
const TARGET_MS = 50;
const f1 = (n: number) => n.toFixed(1);
const n0 = (n: number) => n.toLocaleString('en-US');

/** Fills audit_entry with `entries` generated entries (once; the same count later is reused). */
export async function prepareAuditEntries(db: Kysely<DB>, entries: number, log: (m: string) => void): Promise<void> {
  const setting = await db.selectFrom('app_setting').select('value').where('key', '=', 'bench-audit').executeTakeFirst();
  if (Number((setting?.value as { entries?: number } | undefined)?.entries) === entries) {
    log(`audit: reusing ${n0(entries)} generated entries`);
    return;
  }
  const present = Number((await sql<{ n: string }>`select count(*) as n from audit_entry`.execute(db)).rows[0]!.n);
  if (present > 0) {
    // the trail refuses DELETE and TRUNCATE to the portal's role: a bench database's own trail is dropped with its triggers off
    log(`audit: the bench's trail holds ${n0(present)} other entries; removing them (triggers off, bench data only)`);
    await db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await sql`delete from audit_entry`.execute(trx);
      await sql`update audit_retention set "seq" = 0, "hash" = repeat('0', 64), "at" = null`.execute(trx);
    });
  }
  const started = Date.now();
  log(`audit: generating ${n0(entries)} entries (generate_series)…`);
  const orders = await sql<{ lo: number; hi: number }>`select min("autId") as lo, max("autId") as hi from service_order`.execute(db);
  const cars = await sql<{ lo: number; hi: number }>`select min("pojazdId") as lo, max("pojazdId") as hi from car`.execute(db);
  const o = orders.rows[0]!;
  const c = cars.rows[0]!;
  const chunk = 1_000_000;
  for (let from = 1; from <= entries; from += chunk) {
    const to = Math.min(entries, from + chunk - 1);
    // kind by g % 20: 0-7 order, 8-9 order position, 10-13 vehicle, 14-15 damage, 16 user, 17-19 other resources
    // one chunk a transaction, without the serving pool's statement time limit
    await db.transaction().execute(async (trx) => {
      await sql`set local statement_timeout = 0`.execute(trx);
      await sql`
        insert into audit_entry ("seq", "at", "actorKind", "userId", "role", "actorLabel", "address", "session", "resource", "recordKey", "action", "changes", "prevHash", "hash")
        select g, now() - ((${entries} - g) * interval '3 seconds'),
          case when g % 50 = 0 then 'system' else 'user' end,
          case when g % 50 = 0 then null else 1 + g % 400 end,
          case when g % 50 = 0 then null when g % 4 = 0 then 'ADMIN' else 'MANAGER' end,
          case when g % 50 = 0 then 'audit-retention' else 'user' || (g % 400) end,
          '10.0.' || (g % 250) || '.' || (g % 199), substr(md5('s' || (g / 40)), 1, 16),
          (array['order','order','order','order','order','order','order','order','order-position','order-position','car','car','car','car','damage','damage','users','email','config-studio','webhook-endpoint'])[1 + g % 20],
          case
            when g % 20 < 8 then (${o.lo}::bigint + (g * 7919) % (${o.hi}::bigint - ${o.lo}::bigint + 1))::text
            when g % 20 < 10 then (${o.lo}::bigint + (g * 7919) % (${o.hi}::bigint - ${o.lo}::bigint + 1))::text || '/' || (1 + g % 5)
            when g % 20 < 14 then (${c.lo}::bigint + (g * 104729) % (${c.hi}::bigint - ${c.lo}::bigint + 1))::text
            else (1 + (g * 31) % 100000)::text
          end,
          (array['update','transition','create','update'])[1 + g % 4],
          jsonb_build_object('status', jsonb_build_array(g % 10, (g + 1) % 10), 'uwagi', jsonb_build_array(null, 'bench ' || g)),
          md5((g - 1)::text) || md5('x' || (g - 1)), md5(g::text) || md5('x' || g)
        from generate_series(${from}::bigint, ${to}::bigint) as g`.execute(trx);
    });
    log(`audit: ${n0(to)} entries (${f1((Date.now() - started) / 1000)} s)`);
  }
  await sql`update audit_head set "seq" = ${entries}, "hash" = md5(${String(entries)}) || md5(${`x${entries}`}) where "id" = 1`.execute(db);
  await db.connection().execute(async (c) => {
    await sql`set statement_timeout = 0`.execute(c);
    await sql`vacuum analyze audit_entry`.execute(c);
    await sql`reset statement_timeout`.execute(c);
  });
  await db.insertInto('app_setting').values({ key: 'bench-audit', value: JSON.stringify({ entries }) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify({ entries }) })).execute();
  log(`audit: ${n0(entries)} entries generated and analysed in ${f1((Date.now() - started) / 1000)} s`);
}

interface Figure { label: string; median: number; p95: number; n: number; rows: string }

async function measure(label: string, repetitions: number, call: (i: number) => Promise<unknown>, rowsOf: (answer: any) => string): Promise<Figure> {
  for (let i = 0; i < 5; i++) await call(i); // warm-up
  const samples: number[] = [];
  let answer: unknown;
  for (let i = 0; i < repetitions; i++) samples.push(await timed(async () => { answer = await call(i); }));
  return { label, ...latency(samples), rows: rowsOf(answer) };
}

/** The figures, as markdown lines for docs/benchmarks.md. */
export async function auditFigures(o: { api: Api; db: Kysely<DB>; admin: string; manager: string; entries: number; repetitions: number; log: (m: string) => void }): Promise<string[]> {
  await prepareAuditEntries(o.db, o.entries, o.log);
  // records that have entries: orders of the manager's client among the generated keys, any vehicle
  const managerClient = (await o.db.selectFrom('app_user').select('klientSymbol').where('login', '=', DEMO_ACCOUNTS.manager.login).executeTakeFirstOrThrow()).klientSymbol;
  const ownOrders = (await sql<{ k: string }>`
    select e."recordKey" as k from audit_entry e join service_order s on s."autId"::text = e."recordKey" join car c on c."pojazdId" = s."pojazdId"
    where e."resource" = 'order' and c."klientSymbol" = ${managerClient} order by e."seq" desc limit 40`.execute(o.db)).rows.map((r) => r.k);
  const anyOrders = (await sql<{ k: string }>`select "recordKey" as k from audit_entry where "resource" = 'order' order by "seq" desc limit 40`.execute(o.db)).rows.map((r) => r.k);
  const cars = (await sql<{ k: string }>`select "recordKey" as k from audit_entry where "resource" = 'car' order by "seq" desc limit 40`.execute(o.db)).rows.map((r) => r.k);
  if (!ownOrders.length || !anyOrders.length || !cars.length) throw new Error('audit bench: no generated entry names an order or a vehicle');
  const pick = (keys: string[], i: number) => keys[i % keys.length]!;
  const entriesOf = (a: any) => `${a.changes.length} changes`;
  const page = (a: any) => `${a.rows.length} rows${a.lastRow >= 0 ? ` of ${n0(a.lastRow)}` : ''}${a.estimated ? ` (about ${n0(a.count)})` : ''}`;
  const block = (filterModel?: unknown) => ({ startRow: 0, endRow: 100, sortModel: [], ...(filterModel ? { filterModel } : {}) });
  const figures: Figure[] = [];
  const run = async (f: Promise<Figure>) => {
    const figure = await f;
    o.log(`audit: ${figure.label}: median ${f1(figure.median)} ms, p95 ${f1(figure.p95)} ms`);
    figures.push(figure);
  };
  await run(measure('an order\'s Historia zmian, ADMIN', o.repetitions, (i) => o.api.get(`/audit/history/order/${pick(anyOrders, i)}`, o.admin), entriesOf));
  await run(measure('an order\'s Historia zmian, MANAGER (his client\'s order, fields he may read)', o.repetitions, (i) => o.api.get(`/audit/history/order/${pick(ownOrders, i)}`, o.manager), entriesOf));
  await run(measure('a vehicle\'s Historia zmian, ADMIN', o.repetitions, (i) => o.api.get(`/audit/history/car/${pick(cars, i)}`, o.admin), entriesOf));
  await run(measure('Dziennik zmian, first page (newest first, with the count)', o.repetitions, () => o.api.post('/audit/table2', block(), o.admin), page));
  // what the screen sends: the resource column is coded (its choice list), the login a text filter
  await run(measure('Dziennik zmian, first page filtered by what (choice: Zlecenia)', o.repetitions, () => o.api.post('/audit/table2',
    block({ resource: { filterType: 'set', values: ['order'] } }), o.admin), page));
  await run(measure('Dziennik zmian, first page filtered by what (choice: Szkody, Pojazdy)', o.repetitions, () => o.api.post('/audit/table2',
    block({ resource: { filterType: 'set', values: ['damage', 'car'] } }), o.admin), page));
  // who, as an API caller may type it ("równa się", any case): lower("actorLabel") = lower(…), read in the table's order until a page matches — no index since migration 056 (its cost on every imported record); the screen chooses the person (below)
  await run(measure('Dziennik zmian, first page filtered by who (text equals: User7, no index)', o.repetitions, () => o.api.post('/audit/table2',
    block({ actorLabel: { filterType: 'text', type: 'equals', filter: 'User7' } }), o.admin), page));
  await run(measure('Dziennik zmian, first page filtered by who and what (User7, Zlecenia)', o.repetitions, () => o.api.post('/audit/table2',
    block({ actorLabel: { filterType: 'text', type: 'equals', filter: 'User7' }, resource: { filterType: 'set', values: ['order'] } }), o.admin), page));
  // who, as chosen from the list of persons (issue 49): the actor's id, read from audit_entry_actor_at in the table's order and counted from it alone (migration 055); user:8 is User7's id in the generated entries
  await run(measure('Dziennik zmian, first page filtered by who (choice of the person: user:8, index on actor)', o.repetitions, () => o.api.post('/audit/table2',
    block({ actor: { filterType: 'set', values: ['user:8'] } }), o.admin), page));
  await run(measure('Dziennik zmian, first page filtered by who and what (the person, Zlecenia)', o.repetitions, () => o.api.post('/audit/table2',
    block({ actor: { filterType: 'set', values: ['user:8'] }, resource: { filterType: 'set', values: ['order'] } }), o.admin), page));
  await run(measure('Kto: the persons with entries whose name or login contains "a"', o.repetitions, () => o.api.get('/audit/actors?q=a', o.admin),
    (a: any) => `${a.items.length} persons${a.more ? ' (more)' : ''}`));
  // a part of the login ("zawiera") is still a scan in the table's order until enough rows match: reported, not promised
  await run(measure('Dziennik zmian, first page filtered by who (text contains: user39, no index)', o.repetitions, () => o.api.post('/audit/table2',
    block({ actorLabel: { filterType: 'text', type: 'contains', filter: 'user39' } }), o.admin), page));
  const total = Number((await sql<{ n: string }>`select count(*) as n from audit_entry`.execute(o.db)).rows[0]!.n);
  return [
    '', `### The audit trail: ${n0(total)} entries`, '',
    '| call | median | p95 | target p95 | answer |', '|---|---:|---:|---:|---|',
    ...figures.map((f) => `| ${f.label} | ${f1(f.median)} ms | ${f1(f.p95)} ms ${f.p95 <= TARGET_MS ? '✓' : '✗'} | ${TARGET_MS} ms | ${f.rows} |`),
    '',
    `${o.repetitions} calls each after 5 warm-up calls, over HTTP with a real session (tools/bench/audit.ts). The entries are generated in SQL (generate_series), shaped like the trail's — orders, their positions (\`<order>/<n>\`), vehicles, damages, users and the rest, 3 s apart — with hashes that are NOT a real chain (an md5 per entry: the chain's arithmetic is not what is measured). A record's history: the index \`audit_entry_history\` (resource, the record's own key, newest first; migration 031), at most 200 entries. Dziennik zmian: \`audit_entry_at\` newest first, \`audit_entry_resource_at\` / \`audit_entry_actor_at\` (the person's id) for the filters' plans, the count capped as every table's. See docs/decisions.md "Audit trail (issue 37)".`,
  ];
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { entries: { type: 'string' }, repetitions: { type: 'string' }, schema: { type: 'string' } } });
  await runStandalone(values.schema ?? 'bench_audit', { cars: 2_000, orders: 20_000 }, (signed) =>
    auditFigures({ ...signed, entries: Number(values.entries ?? AUDIT_ENTRIES), repetitions: Number(values.repetitions ?? 40) }));
}
