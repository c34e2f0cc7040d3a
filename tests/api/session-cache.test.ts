/**
 * Sessions are cached in each server process for a few seconds (server/auth/session-cache.ts),
 * and a change that ends or alters a session is refused at once everywhere: in the process that
 * made it (its own writes clear its cache before they run), and in every other process behind the
 * same database (the triggers of migration 008 notify them at the commit). A lost listening
 * connection empties the cache and it is refilled only after the LISTEN is back.
 *
 * Across processes "at once" means as soon as the database's message arrives (the same moment the
 * commit's answer does); the tests wait for exactly that with `sessionCache.sync()` — a marker
 * sent on the channel after the change, which PostgreSQL delivers after every earlier commit —
 * rather than for a guessed time.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { buildApp } from '../../server/app.ts';
import { openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { databaseUrlFor } from '../../server/seed/testing.ts';
import { SESSION_CHANNEL } from '../../server/migrations/008_session_notifications.ts';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
const databaseUrl = process.env.DATABASE_URL;

/** Signed calls to any app instance (the second instance has no TestApp of its own). */
function caller(app: FastifyInstance) {
  const preConfigName = app.config.bundle.app.name;
  return (method: 'GET' | 'POST', url: string, opts: { token?: string; body?: unknown } = {}) => {
    const headers: Record<string, string> = {};
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | undefined;
    if (method === 'POST') {
      payload = JSON.stringify(opts.body ?? {});
      const nonce = makeNonce();
      Object.assign(headers, { 'content-type': 'application/json', 'x-nonce': nonce, 'x-signature': signBody(preConfigName, nonce, payload) });
    }
    return app.inject({ method, url, headers, payload });
  };
}

/** Shared by both describes: fresh accounts on the demo manager's password and client. */
function accounts(getApp: () => TestApp) {
  let seq = 0;
  return async function account(rola: 'MANAGER' | 'ADMIN', { acceptTerms = true } = {}) {
    const t = getApp();
    const manager = await t.app.db.selectFrom('app_user').select(['passwordHash', 'klientSymbol']).where('login', '=', 'manager').executeTakeFirstOrThrow();
    const login = `cache.${process.pid}.${++seq}`;
    const { id } = await t.app.db.insertInto('app_user').values({
      login, rola, firstName: 'Jan', lastName: 'Testowy', passwordHash: manager.passwordHash, klientSymbol: manager.klientSymbol, firstLogin: false,
    }).returning('id').executeTakeFirstOrThrow();
    if (acceptTerms) await acceptAllTerms(t, id);
    const res = await t.call('POST', '/api/user/auth', { body: { username: login, password: 'Manager123!', role: 'MANAGER' } });
    expect(res.statusCode).toBe(200);
    return { id, login, token: res.json().id_token as string };
  };
}

async function acceptAllTerms(t: TestApp, userId: number) {
  await t.app.db.insertInto('terms_acceptance')
    .columns(['userId', 'templateId', 'acceptedAt'])
    .expression((eb) => eb.selectFrom('terms_template').select([sql.lit(userId).as('userId'), 'id', sql`now()`.as('acceptedAt')]).where('current', '=', true))
    .execute();
}

const CAR_TABLE = '/api/car/table2';
const block = { startRow: 0, endRow: 5 };

describe('the session cache in one process', () => {
  let t: TestApp;
  const account = accounts(() => t);

  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => t?.close());

  const carTable = (token: string) => t.call('POST', CAR_TABLE, { token, body: block });

  it('answers a repeated call from the cache, without reading the session again', async () => {
    const a = await account('MANAGER');
    expect((await carTable(a.token)).statusCode).toBe(200);
    const before = { ...t.app.sessionCache.stats };
    expect((await carTable(a.token)).statusCode).toBe(200);
    expect(t.app.sessionCache.stats.hits).toBe(before.hits + 1);
    expect(t.app.sessionCache.stats.misses).toBe(before.misses);
  });

  it('refuses a signed-out session at once', async () => {
    const a = await account('MANAGER');
    expect((await carTable(a.token)).statusCode).toBe(200);
    expect((await t.call('POST', '/api/user/logout', { token: a.token, body: {} })).statusCode).toBeLessThan(300);
    expect((await carTable(a.token)).statusCode).toBe(401);
  });

  it('refuses at once after a role change, a lock, an end date or a deletion written straight to the database', async () => {
    const changes: ((id: number) => Promise<unknown>)[] = [
      (id) => t.app.db.updateTable('app_user').set({ rola: 'ADMIN', klientSymbol: null }).where('id', '=', id).execute(),
      (id) => t.app.db.updateTable('app_user').set({ lockedUntil: new Date(Date.now() + 3_600_000) }).where('id', '=', id).execute(),
      (id) => t.app.db.updateTable('app_user').set({ dataDo: sql`current_date - 1` }).where('id', '=', id).execute(),
      // raw SQL passes by the query builder: the database's notification does it
      (id) => sql`delete from app_user where id = ${id}`.execute(t.app.db).then(() => t.app.sessionCache.sync()),
    ];
    for (const change of changes) {
      const a = await account('MANAGER');
      expect((await carTable(a.token)).statusCode).toBe(200);
      expect((await carTable(a.token)).statusCode).toBe(200); // from the cache
      await change(a.id);
      expect((await carTable(a.token)).statusCode).toBe(401);
    }
  });

  it('lets a user in at once after accepting the terms, and stops them at once when new terms are published', async () => {
    const a = await account('MANAGER', { acceptTerms: false });
    expect((await carTable(a.token)).statusCode).toBe(403);
    await acceptAllTerms(t, a.id);
    expect((await carTable(a.token)).statusCode).toBe(200);
    expect((await carTable(a.token)).statusCode).toBe(200); // cached as accepted
    const old = await t.app.db.selectFrom('terms_template').select(['id', 'grupa', 'name', 'pdf']).where('current', '=', true).executeTakeFirstOrThrow();
    await t.app.db.transaction().execute(async (trx) => {
      await trx.updateTable('terms_template').set({ current: false }).where('id', '=', old.id).execute();
      await trx.insertInto('terms_template').values({ name: old.name, grupa: old.grupa, version: 99, current: true, pdf: old.pdf }).execute();
    });
    expect((await carTable(a.token)).statusCode).toBe(403);
  });
});

describe.runIf(databaseUrl)('the session cache across two processes on one PostgreSQL schema', () => {
  let t: TestApp;
  let second: { app: FastifyInstance; database: DatabaseHandle; applicationName: string };
  const account = accounts(() => t);

  beforeAll(async () => {
    t = await startTestApp();
    // the first app's database and schema (a test app's database is a copy of its own: server/seed/testing.ts)
    const { rows } = await sql<{ schema: string; database: string }>`select current_schema() as schema, current_database() as database`.execute(t.app.db);
    const applicationName = `session_cache_b_${process.pid}`;
    const database = await openDatabase({ databaseUrl: databaseUrlFor(databaseUrl!, rows[0].database), schema: rows[0].schema, maxConnections: 4, applicationName });
    const app = await buildApp({ secondFactor: { enforce: false }, db: database.db, root: ROOT, version: VERSION });
    await app.ready();
    second = { app, database, applicationName };
  }, 60_000);
  afterAll(async () => {
    await second?.app.close();
    await second?.database.close();
    await t?.close();
  });

  const inSecond = (token: string) => caller(second.app)('POST', CAR_TABLE, { token, body: block });
  /** Calls the second process twice, so that the second answer comes from its cache. */
  async function cachedInSecond(token: string) {
    expect((await inSecond(token)).statusCode).toBe(200);
    const hits = second.app.sessionCache.stats.hits;
    expect((await inSecond(token)).statusCode).toBe(200);
    expect(second.app.sessionCache.stats.hits).toBe(hits + 1);
  }

  it('refuses in the other process a session signed out in one', async () => {
    const a = await account('MANAGER');
    await cachedInSecond(a.token);
    expect((await t.call('POST', '/api/user/logout', { token: a.token, body: {} })).statusCode).toBeLessThan(300);
    await second.app.sessionCache.sync();
    expect((await inSecond(a.token)).statusCode).toBe(401);
  });

  it('refuses in the other process after a role change, a lock, or new terms made in one', async () => {
    const changes: ((id: number) => Promise<unknown>)[] = [
      (id) => t.app.db.updateTable('app_user').set({ rola: 'ADMIN', klientSymbol: null }).where('id', '=', id).execute(),
      (id) => t.app.db.updateTable('app_user').set({ lockedUntil: new Date(Date.now() + 3_600_000) }).where('id', '=', id).execute(),
      (id) => t.app.db.deleteFrom('terms_acceptance').where('userId', '=', id).execute(),
    ];
    for (const [i, change] of changes.entries()) {
      const a = await account('MANAGER');
      await cachedInSecond(a.token);
      await change(a.id);
      await second.app.sessionCache.sync();
      expect((await inSecond(a.token)).statusCode, `change ${i}`).toBe(i === 2 ? 403 : 401);
    }
  });

  it('empties the cache when its listening connection is lost, and serves from it again once it is back', async () => {
    const a = await account('MANAGER');
    await cachedInSecond(a.token);
    // what a database restart does to the listening connection
    const admin = new pg.Client({ connectionString: databaseUrl });
    await admin.connect();
    try {
      // the process listens on one connection per channel; this one carries the sessions' changes
      const { rowCount } = await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1 and query = $2', [
        `${second.applicationName}-listen`,
        `listen "${SESSION_CHANNEL}"`,
      ]);
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await second.app.sessionCache.sync(); // resolves at the loss or the reconnection, whichever it meets
    expect(second.app.sessionCache.size).toBe(0);
    // a change made while it may not be listening is still seen
    await t.app.db.updateTable('app_user').set({ lockedUntil: new Date(Date.now() + 3_600_000) }).where('id', '=', a.id).execute();
    expect((await inSecond(a.token)).statusCode).toBe(401);
    // back to normal: cached again, and told again
    const b = await account('MANAGER');
    while (!second.app.sessionCache.live) await second.app.sessionCache.sync();
    await cachedInSecond(b.token);
    await t.app.db.updateTable('app_user').set({ rola: 'ADMIN', klientSymbol: null }).where('id', '=', b.id).execute();
    await second.app.sessionCache.sync();
    expect((await inSecond(b.token)).statusCode).toBe(401);
  });
});
