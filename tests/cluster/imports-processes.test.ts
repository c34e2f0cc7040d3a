/**
 * Imports and integration keys across server processes (issue 34): two portals (`server/main.ts`)
 * on one PostgreSQL schema.
 *
 * - A key revoked through one process is refused at once by the other, which had just served it
 *   (the database tells every process at the revoke's commit: server/auth/session-cache.ts).
 * - All or nothing after a process is killed mid-run: a large import is caught in its final write
 *   transaction — its UPDATE of the file's existing vehicles done, its INSERT of the new ones
 *   waiting on a client row this test holds locked — and the process running it (either may take
 *   its job) is SIGKILLed. A process started again fails the run with its Polish message (or the
 *   other process does, at its minute's look), and nothing of the file was written.
 *
 * Always on PostgreSQL (DATABASE_URL, or the local one at 127.0.0.1:5432): PGlite belongs to one process.
 */
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema, openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { eventually } from '../support/eventually.ts';
import { multipartBody } from '../support/multipart.ts';
import { call, freePort, startPortal, TEST_POSTGRES_URL, type PortalProcess } from '../support/portal-process.ts';
import { DEMO } from '../support/test-app.ts';
import { SESSION_CACHE_MS } from '../../server/auth/session-cache.ts';

const SCHEMA = `imports_${process.pid}`;
/** Enough new rows that the run is still writing when the test looks (its INSERT waits on the lock anyway). */
const NEW_ROWS = 5_000;
/** The processes' database sessions are found by their names (the database is shared with other tests). */
const appName = (instance: string) => `imports-${instance}-${process.pid}`;

describe('imports and integration keys across two server processes on one PostgreSQL', () => {
  let a: PortalProcess;
  let b: PortalProcess;
  let database: DatabaseHandle;
  let signingName: string;
  let admin: string;
  const env = { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: SCHEMA, SHUTDOWN_TIMEOUT_MS: '5000' };

  beforeAll(async () => {
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
    a = startPortal({ ...env, INSTANCE_ID: 'a', PORT: String(await freePort()), DB_APPLICATION_NAME: appName('a') });
    await a.ready(); // one seeds the schema, then the other joins it
    b = startPortal({ ...env, INSTANCE_ID: 'b', PORT: String(await freePort()), DB_APPLICATION_NAME: appName('b') });
    await b.ready();
    database = await openDatabase({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    signingName = (await call(a.port, 'GET', '/api/init/pre-config')).json().name;
    const signedIn = await call(a.port, 'POST', '/api/user/auth', { body: DEMO.admin, signingName });
    expect(signedIn.status, signedIn.body.toString()).toBe(200);
    admin = signedIn.json().id_token;
  }, 180_000);

  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await database?.close();
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
  }, 60_000);

  it('refuses at once, in the other process, a key revoked through one', async () => {
    const client = (await database.db.selectFrom('client').select('klient').orderBy('klient').executeTakeFirstOrThrow()).klient;
    const account = await call(a.port, 'POST', '/api/integration-accounts', { token: admin, signingName, body: { name: 'Dwa procesy', allClients: false, clients: [client], scopes: ['read:car'] } });
    expect(account.status, account.body.toString()).toBe(201);
    const made = await call(a.port, 'POST', `/api/integration-accounts/${account.json().id}/keys`, { token: admin, signingName, body: {} });
    expect(made.status, made.body.toString()).toBe(201);
    const { key, id: keyId } = made.json();
    // what a back office sends: the key alone, unsigned
    const inB = () => call(b.port, 'POST', '/api/car/table', { token: key, body: { startRow: 0, endRow: 10 } });
    for (let i = 0; i < 2; i++) {
      const served = await inB();
      expect(served.status, served.body.toString()).toBe(200);
      expect(served.servedBy).toMatch(/^b:/);
    }
    const revoked = await call(a.port, 'POST', `/api/integration-accounts/${account.json().id}/keys/${keyId}/revoke`, { token: admin, signingName, body: {} });
    expect(revoked.status, revoked.body.toString()).toBe(200);
    expect(revoked.servedBy).toMatch(/^a:/);
    // refused by the other process as soon as the database's message about the revoke reaches it
    // (the commit tells every listening process; in practice the very next call). The deadline is
    // below the cache's lifetime: a key served until then could be forgotten by age, not by the revoke.
    const refused = await eventually(async () => {
      const answer = await inB();
      expect(answer.servedBy).toMatch(/^b:/);
      return answer.status !== 200 && answer;
    }, { within: SESSION_CACHE_MS - 1_000, every: 20, what: 'the other process refusing the revoked key' });
    expect(refused.status, refused.body.toString()).toBe(401);
  });

  it('fails a run whose process was killed in its final write, with nothing of the file written', async () => {
    const client = (await database.db.selectFrom('client').select('klient').orderBy('klient').executeTakeFirstOrThrow()).klient;
    const existing = await database.db.selectFrom('car').select(['nrPodw', 'rejestr', 'marka']).where('klientSymbol', '=', client).where('nrPodw', 'is not', null).orderBy('pojazdId').limit(3).execute();
    expect(existing.length).toBeGreaterThan(0);
    const vin = (n: number) => `KILLTEST${String(n).padStart(9, '0')}`;
    const lines = ['VIN;Klient;Nr rejestracyjny;Marka'];
    for (const car of existing) lines.push(`${car.nrPodw};${client};${car.rejestr};Zmieniona`);
    for (let i = 0; i < NEW_ROWS; i++) lines.push(`${vin(i)};${client};K${String(i).padStart(6, '0')};Nowa`);
    const { body, contentType } = multipartBody([
      { name: 'declaration', value: 'car' }, { name: 'mode', value: 'import' }, { name: 'file', filename: 'pojazdy.csv', content: lines.join('\n') + '\n', type: 'text/csv' },
    ]);

    // the client row held: the run's UPDATE of existing vehicles goes through, its INSERT (whose
    // foreign key takes a share lock of that row) waits inside the run's one transaction
    const holder = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await holder.connect();
    let backend: { pid: number; app: string } | undefined;
    let runId: number;
    try {
      await holder.query(`set search_path to "${SCHEMA}"`);
      await holder.query('begin');
      await holder.query('select 1 from client where klient = $1 for update', [client]);
      const created = await call(a.port, 'POST', '/api/import/runs', { token: admin, signingName, raw: { bytes: body, contentType } });
      expect(created.status, created.body.toString()).toBe(202);
      runId = created.json().id;
      // (asked on another connection: a transaction sees pg_stat_activity as it was at its first look)
      const statements = (where: string) => sql<{ pid: number; app: string; state: string; wait: string | null; query: string }>`
        select pid, application_name as app, state, wait_event_type as wait, left(query, 200) as query from pg_stat_activity
        where datname = current_database() and pid <> pg_backend_pid() and ${sql.raw(where)}`.execute(database.db);
      // either process may have taken the run's job from the queue
      backend = await eventually(async () => (await statements(`application_name in ('${appName('a')}', '${appName('b')}') and wait_event_type = 'Lock' and query like '%insert into "car"%'`)).rows[0], {
        within: 120_000,
        what: async () => `the run's INSERT waiting on the client row; run: ${JSON.stringify((await call(a.port, 'GET', `/api/import/runs/${runId}`, { token: admin })).json())}; `
          + `the processes' busy statements: ${JSON.stringify((await statements(`application_name in ('${appName('a')}', '${appName('b')}') and state <> 'idle'`)).rows)}`,
      });
      const { state } = await database.db.selectFrom('import_run').select('state').where('id', '=', runId).executeTakeFirstOrThrow();
      expect(state).toBe('running');

      const running = backend.app === appName('a') ? a : b;
      expect(await running.stop('SIGKILL')).toBe('SIGKILL');
    } finally {
      await holder.query('rollback').catch(() => undefined);
      await holder.end();
    }
    // the killed process's database session ends (its transaction, never committed, with it)
    await eventually(async () => (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${backend!.pid}`.execute(database.db)).rows[0].n === 0,
      { within: 60_000, what: `backend ${backend!.pid} of the killed process gone` });

    // a process started again (at its start; or the other one, at its minute's look) finds the run
    // whose process died — its lock is free — and fails it, saying so
    const again = startPortal({ ...env, INSTANCE_ID: 'again', PORT: String(await freePort()) });
    if (backend!.app === appName('a')) a = again;
    else b = again;
    await again.ready();
    const run = await eventually(async () => {
      const answer = await call(again.port, 'GET', `/api/import/runs/${runId}`, { token: admin });
      expect(answer.status, answer.body.toString()).toBe(200);
      return answer.json().state !== 'running' && answer.json();
    }, { within: 120_000, what: `run ${runId} no longer running` });
    expect(run).toMatchObject({ state: 'failed', message: 'Import przerwany przez restart serwera – nic nie zostało zapisane. Uruchom go ponownie.' });

    // nothing of the file: no new vehicle, the existing ones as they were, the stored file gone
    const added = await database.db.selectFrom('car').select((e) => e.fn.countAll<number>().as('n')).where('nrPodw', 'like', 'KILLTEST%').executeTakeFirstOrThrow();
    expect(Number(added.n)).toBe(0);
    const after = await database.db.selectFrom('car').select(['nrPodw', 'rejestr', 'marka']).where('nrPodw', 'in', existing.map((c) => c.nrPodw!)).orderBy('pojazdId').execute();
    expect(after).toEqual(existing);
    const chunks = await database.db.selectFrom('import_file_chunk').select((e) => e.fn.countAll<number>().as('n')).where('runId', '=', runId).executeTakeFirstOrThrow();
    expect(Number(chunks.n)).toBe(0);
  }, 300_000);
});
