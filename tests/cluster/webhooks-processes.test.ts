/**
 * Webhooks delivered by several server processes (issue 35): two portals (`server/main.ts`) on one
 * PostgreSQL schema, both running the delivery worker, and a real HTTP receiver. Events are raised
 * through the API of either process: each message reaches the receiver once (by its webhook-id),
 * an order's status changes arrive in the order they happened, and a process killed in the middle
 * of deliveries loses nothing (its messages are delivered by the other, at least once).
 *
 * Always on PostgreSQL (DATABASE_URL, or the local one at 127.0.0.1:5432): PGlite belongs to one process.
 */
import { PgBoss } from 'pg-boss';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { WEBHOOK_SWEEP_QUEUE } from '../../server/webhooks/service.ts';
import { call, freePort, startPortal, TEST_POSTGRES_URL, type PortalProcess } from '../support/portal-process.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { DEMO } from '../support/test-app.ts';

const SCHEMA = `webhooks_${process.pid}`;

async function until(probe: () => Promise<boolean> | boolean, ms: number, describe: () => Promise<string> | string): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${await describe()}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('webhooks from two server processes on one PostgreSQL', () => {
  let receiver: Receiver;
  let a: PortalProcess;
  let b: PortalProcess;
  let database: DatabaseHandle;
  let signingName: string;
  let admin: string;
  let driver: string;
  let car: { pojazdId: number; rejestr: string; pracId: number | null };

  const states = async () => Object.fromEntries((await sql<{ state: string; n: number }>`
    select state, count(*)::int as n from webhook_message group by state`.execute(database.db)).rows.map((r) => [r.state, r.n]));
  const ids = () => receiver.at('/events').map((r) => String(r.headers['webhook-id']));
  /**
   * Should a message reach the receiver twice (CI saw it once): each repeated one's attempts as the
   * processes recorded them — a retry after an error shows the error, a second claim shows none.
   */
  const attemptsOfRepeated = async () => {
    const repeated = [...new Set(ids().filter((id, i, all) => all.indexOf(id) !== i))];
    if (!repeated.length) return 'no webhook-id repeated';
    const { rows } = await sql<Record<string, unknown>>`
      select m."eventId", m."state", m."attempts", a."attemptedAt", a."status", a."durationMs", a."error"
      from webhook_message m left join webhook_attempt a on a."messageId" = m."id"
      where m."eventId" = any(${repeated}::text[]) order by m."id", a."id"`.execute(database.db);
    return `repeated ${repeated.join(', ')}: ${JSON.stringify(rows)}`;
  };

  async function reportDamages(count: number): Promise<void> {
    for (let i = 0; i < count; i++) {
      const answer = await call([a.port, b.port][i % 2], 'POST', '/api/damage/add', {
        token: driver, signingName,
        body: {
          pojazdId: car.pojazdId, rejestr: car.rejestr, pracId: car.pracId, dataSzkod: new Date().toISOString(), rodzSzkod: 'Kolizja drogowa',
          zgloNazwiskoImie: 'Kowalski Jan', zgloTelef: '+48 600 100 200', zgloEmail: 'jan.kowalski@transbud.pl',
        },
      });
      expect(answer.status, answer.body.toString()).toBe(200);
    }
  }

  beforeAll(async () => {
    receiver = await startReceiver();
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
    const env = { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: SCHEMA, WEBHOOK_ALLOW_HOSTS: '127.0.0.1', SHUTDOWN_TIMEOUT_MS: '5000' };
    a = startPortal({ ...env, INSTANCE_ID: 'a', PORT: String(await freePort()) });
    b = startPortal({ ...env, INSTANCE_ID: 'b', PORT: String(await freePort()) });
    await Promise.all([a.ready(), b.ready()]);
    database = await openDatabase({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    signingName = (await call(a.port, 'GET', '/api/init/pre-config')).json().name;
    const signIn = async (account: typeof DEMO[keyof typeof DEMO]) => {
      const answer = await call(a.port, 'POST', '/api/user/auth', { body: account, signingName });
      expect(answer.status, answer.body.toString()).toBe(200);
      return answer.json().id_token as string;
    };
    admin = await signIn({ ...DEMO.admin, role: 'MANAGER' });
    driver = await signIn(DEMO.kierowca);
    car = await database.db.selectFrom('car').select(['pojazdId', 'rejestr', 'pracId']).where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const created = await call(b.port, 'POST', '/api/webhooks/endpoints', {
      token: admin, signingName, body: { url: receiver.url('/events'), events: ['damage.reported', 'order.status_changed'] },
    });
    expect(created.status, created.body.toString()).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await database?.close();
    await receiver?.close();
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
  });

  it('delivers each message once, and an order\'s moves in the order they happened', async () => {
    await reportDamages(12);
    // one order moved three times, through either process by turns
    const [{ autId }] = (await sql<{ autId: number }>`select "autId" from service_order where status = 1 and not "czySzkoda" order by "autId" limit 1`.execute(database.db)).rows;
    for (const [i, to] of [2, 4, 6].entries()) {
      const moved = await call([a.port, b.port][i % 2], 'POST', `/api/order/${autId}/transition`, { token: admin, signingName, body: { to } });
      expect(moved.status, moved.body.toString()).toBe(200);
    }
    await until(async () => (await states()).delivered === 15, 30_000, async () => JSON.stringify(await states()));
    expect(ids(), await attemptsOfRepeated()).toHaveLength(15);
    expect(new Set(ids()).size).toBe(15);
    const moves = receiver.at('/events').filter((r) => r.json.type === 'order.status_changed').map((r) => r.json.data.to);
    expect(moves).toEqual([2, 4, 6]);
  }, 60_000);

  it('loses nothing when a process is killed in the middle of deliveries', async () => {
    const before = ids().length;
    receiver.hold();
    await reportDamages(8);
    // both processes' workers are now waiting for the receiver's answers
    await until(() => receiver.held() >= 2, 15_000, () => `${receiver.held()} held`);
    process.kill(a.child.pid!, 'SIGKILL');
    expect(await a.exited).toBe('SIGKILL');
    receiver.release();

    // the messages the dead process was sending stay in sending until they count as abandoned, and
    // those whose jobs it had fetched but not started stay pending until the sweep counts them as
    // lost (a minute past due): both clocks are moved on rather than waited for, and the sweep's job
    // is queued as its cron would
    const timePasses = () => sql`update webhook_message set
        "claimedAt" = case when state = 'sending' then now() - interval '1 hour' else "claimedAt" end,
        "nextAttemptAt" = case when state = 'pending' then least("nextAttemptAt", now() - interval '2 minutes') else "nextAttemptAt" end
      where state in ('sending', 'pending')`.execute(database.db);
    await timePasses();
    const boss = new PgBoss({ connectionString: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA), supervise: false, schedule: false, migrate: false });
    await boss.start();
    try {
      await until(async () => {
        if ((await states()).delivered === 23) return true;
        await timePasses();
        await boss.send(WEBHOOK_SWEEP_QUEUE, {});
        await new Promise((r) => setTimeout(r, 500));
        return false;
      }, 30_000, async () => JSON.stringify(await states()));
    } finally {
      await boss.stop({ graceful: false });
    }
    // every message arrived, at least once (those the kill interrupted perhaps twice, with the same id)
    const after = ids().slice(before);
    const delivered = (await database.db.selectFrom('webhook_message').select('eventId').where('event', '=', 'damage.reported').execute()).map((r) => r.eventId);
    expect(new Set(after).size).toBe(8);
    for (const id of after) expect(delivered).toContain(id);
    expect(b.child.exitCode).toBeNull();
  }, 90_000);
});
