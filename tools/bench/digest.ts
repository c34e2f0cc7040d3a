/**
 * The daily digest (issue 25) of 1 000 fleet managers over the bench's 100 000 vehicles: how long
 * one run takes that queues a digest for each of them (their first: what is due in their client's
 * rows), and a second run right after, when nothing changed and nothing is sent.
 *
 * The managers are added to the bench data for the measurement (spread over the three large
 * clients, each with an e-mail address and the default settings: digest on), closed after it,
 * and everything the runs wrote (their digests and notifications) removed, so the reused bench
 * data holds none of it. The run is the portal's own (`app.digest.run({ now: true })`, as the
 * administrators' button calls it), in the bench's server process, on its database.
 */
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';

export const DIGEST_MANAGERS = 1_000;
const LOGIN = 'bench.digest.';

const f1 = (n: number) => n.toFixed(1);
const n0 = (n: number) => n.toLocaleString('en-US');

export async function digestFigures(app: FastifyInstance, o: { managers: number; log: (m: string) => void }): Promise<string[]> {
  const db = app.db;
  // The accounts stay in the bench data between runs, closed (deletedAt) while not measured: deleting
  // them would check every table that refers to app_user, some of a million rows by no index.
  const forget = () => db.transaction().execute(async (trx) => {
    const users = trx.selectFrom('app_user').select('id').where('login', 'like', `${LOGIN}%`);
    await trx.deleteFrom('notification').where('userId', 'in', users).execute();
    await trx.deleteFrom('digest_run').where('userId', 'in', users).execute();
  });
  await forget(); // a run broken off before
  await sql`
    insert into app_user (login, "firstName", "lastName", rola, "klientSymbol", email, "passwordHash")
    select ${LOGIN} || g, 'Bench', 'Manager ' || g, 'MANAGER', (array['KL001', 'KL002', 'KL003'])[1 + g % 3], ${LOGIN} || g || '@example.pl', m."passwordHash"
    from generate_series(1, ${o.managers}) as g, (select "passwordHash" from app_user where login = 'manager') as m
    on conflict (login) do nothing`.execute(db);
  const close = () => db.updateTable('app_user').set({ deletedAt: new Date() }).where('login', 'like', `${LOGIN}%`).execute();
  await close(); // a larger run's accounts too
  await db.updateTable('app_user').set({ deletedAt: null })
    .where('login', 'like', `${LOGIN}%`).where(sql<number>`substr(login, ${LOGIN.length + 1})::integer`, '<=', o.managers).execute();
  try {
    o.log(`digest: ${n0(o.managers)} managers…`);
    const t0 = performance.now();
    const first = await app.digest.run({ now: true });
    const firstSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const second = await app.digest.run({ now: true });
    const secondSeconds = (performance.now() - t1) / 1000;
    const { n } = await db.selectFrom('notification').innerJoin('app_user', 'app_user.id', 'notification.userId')
      .select((eb) => eb.fn.countAll<string>().as('n')).where('app_user.login', 'like', `${LOGIN}%`).executeTakeFirstOrThrow();
    o.log(`digest: first run ${f1(firstSeconds)} s (${first.queued} queued), second ${f1(secondSeconds)} s (${second.queued} queued)`);
    return ['', `### The daily digest of ${n0(o.managers)} fleet managers over the bench's vehicles`, '',
      '| run | users looked at | digests queued | time |', '|---|---:|---:|---:|',
      `| first (each manager's first digest: what is due in his client's rows, 30 named and the rest counted) | ${n0(first.users)} | ${n0(first.queued)} | ${f1(firstSeconds)} s (${f1((firstSeconds * 1000) / Math.max(1, first.users))} ms a user) |`,
      `| second, right after (nothing changed: nothing sent) | ${n0(second.users)} | ${n0(second.queued)} | ${f1(secondSeconds)} s |`,
      '',
      `\`app.digest.run({ now: true })\` in the bench's server process (the administrators' button), ${n0(o.managers)} MANAGER accounts opened for it over the three large clients (digest on by default) and closed after, with the ${n0(Number(n))} notifications the runs wrote. Each user: his last digest, what changed for his rows since (\`app.reminders.changes\`: reminder_due's days and reminder_change, with the count), and, when something did, the outbox row and its e-mail job in one transaction. The administrators' failure summary runs in the same pass. See docs/decisions.md "Notifications".`,
    ];
  } finally {
    await forget();
    await close();
  }
}
