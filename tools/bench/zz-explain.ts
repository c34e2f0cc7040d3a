import { sql } from 'kysely';
import { openDatabase } from '../../server/db/connect.ts';
import { loadBundle } from '../../server/config/load-bundle.ts';
import { byConfiguration } from '../../server/db/configured-tables.ts';
import { ruleQuery } from '../../server/reminders/rule-sql.ts';
async function main() {
  const { db, close } = await openDatabase({ databaseUrl: 'postgres://postgres@127.0.0.1:5432/test', schema: 'bench' });
  const bundle = loadBundle({ root: '/work/main' });
  const rules = (bundle.screens.reminders as any).rules;
  const role = process.argv[2] ?? 'ADMIN';
  const session: any = { role, klientSymbol: role === 'MANAGER' ? 'KL001' : null, stacjaSerw: null, pojazdId: null, userId: 1 };
  for (const rule of rules) {
    if (process.argv[3] && rule.id !== process.argv[3]) continue;
    const q = ruleQuery(rule, { db: byConfiguration(db), resources: bundle.resources as any, schemas: bundle.schemas, session, today: '2026-11-25', forbidden: 'x', titleFields: () => [] });
    const t0 = performance.now();
    const { rows } = await sql<any>`explain (analyze, format text) select "urgency", count(*) from (${q}) as d group by 1`.execute(db);
    const total = rows.find((r: any) => /Execution Time/.test(r['QUERY PLAN']))?.['QUERY PLAN'];
    console.log(rule.id, total, (performance.now() - t0).toFixed(0));
    if (process.argv[3]) console.log(rows.map((r: any) => r['QUERY PLAN']).join('\n'));
  }
  await close();
}
main();
