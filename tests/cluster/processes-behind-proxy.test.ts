/**
 * One portal on several processes behind a real reverse proxy (issue 23), as docs/deployment.md
 * runs it: instance "a" with WORKERS=2 and instance "b" with WORKERS=1, two "machines" on one
 * PostgreSQL schema, behind Debian's haproxy, round robin, no stickiness. Each process names
 * itself in X-Served-By (<INSTANCE_ID>:<pid>). Always on PostgreSQL (DATABASE_URL, or the local
 * one at 127.0.0.1:5432): PGlite belongs to one process.
 *
 * The instances read their configuration from a copy (CONFIG_DIR), so that the admin's reload
 * can be seen to reach every process after a file changed.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationBookkeeping } from '../../server/db/configured-tables.ts';
import { dropSchema, openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { tinyPdf } from '../../server/seed/pdf.ts';
import { startHaproxy, type Proxy } from '../support/haproxy.ts';
import { multipartBody } from '../support/multipart.ts';
import { call, freePort, startPortal, TEST_POSTGRES_URL, type Answer, type PortalProcess } from '../support/portal-process.ts';
import { DEMO, ROOT } from '../support/test-app.ts';

const SCHEMA = `proxy_${process.pid}`;
const PDF = tinyPdf(['Protokol z dwoch procesow']);
const instanceOf = (answer: Answer) => answer.servedBy.split(':')[0];

describe('one portal on several processes behind haproxy', () => {
  let configDir: string;
  let a: PortalProcess;
  let b: PortalProcess;
  let proxy: Proxy;
  let database: DatabaseHandle;
  let signingName: string;
  let token: string;

  /** A call through the proxy, as the admin. */
  const viaProxy = (method: string, path: string, body?: unknown) => call(proxy.port, method, path, { token, body, signingName });

  beforeAll(async () => {
    configDir = mkdtempSync(join(tmpdir(), 'portal-config-'));
    for (const dir of ['screens', 'schemas', 'locales', 'client-variants']) cpSync(join(ROOT, dir), join(configDir, dir), { recursive: true });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
    const env = { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: SCHEMA, CONFIG_DIR: configDir, SHUTDOWN_TIMEOUT_MS: '5000' };
    // both "machines" start at once on an empty schema: one migrates and seeds, the other waits its turn
    a = startPortal({ ...env, WORKERS: '2', INSTANCE_ID: 'a', PORT: String(await freePort()) });
    b = startPortal({ ...env, WORKERS: '1', INSTANCE_ID: 'b', PORT: String(await freePort()) });
    await Promise.all([a.ready(), b.ready()]);
    proxy = await startHaproxy(await freePort(), { a: a.port, b: b.port });
    await proxy.until({ a: 'UP', b: 'UP' });
    database = await openDatabase({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    const preConfig = await call(proxy.port, 'GET', '/api/init/pre-config');
    expect(preConfig.status, preConfig.body.toString()).toBe(200);
    signingName = preConfig.json().name;
  }, 180_000);

  afterAll(async () => {
    await proxy?.stop();
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL')]);
    await database?.close();
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
  });

  it('migrated and seeded once although two instances started at once', async () => {
    const names = await migrationBookkeeping(database.db).selectFrom('kysely_migration').select('name').execute();
    expect(names.length).toBeGreaterThan(10);
    expect(new Set(names.map((r) => r.name)).size).toBe(names.length);
    const admins = await database.db.selectFrom('app_user').select('login').where('login', '=', 'admin').execute();
    expect(admins).toHaveLength(1);
  });

  it('signs in through the proxy, and the following calls alternate between the processes', async () => {
    const signIn = await call(proxy.port, 'POST', '/api/user/auth', { body: DEMO.admin, signingName });
    expect(signIn.status, signIn.body.toString()).toBe(200);
    token = signIn.json().id_token;

    const answers: Answer[] = [];
    for (let i = 0; i < 12; i++) answers.push(await viaProxy('GET', '/api/terms/status'));
    for (const answer of answers) expect(answer.status, answer.body.toString()).toBe(200);
    // the session made by one process is known to all: every call is answered, by turns
    const instances = answers.map(instanceOf);
    for (let i = 1; i < instances.length; i++) expect(instances[i], instances.join(' ')).not.toBe(instances[i - 1]);
    // instance a is two workers on one port: the proxy keeps its connection to a open between
    // calls (one worker), while new connections to a's port are handed to its workers in turn
    const direct = new Set<string>();
    for (let i = 0; i < 6; i++) direct.add((await call(a.port, 'GET', '/api/terms/status', { token })).servedBy);
    expect([...direct].filter((p) => p.startsWith('a:')), [...direct].join(' ')).toHaveLength(2);
  });

  it('downloads through one process a file that another one received', async () => {
    const car = await database.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const { body, contentType } = multipartBody([
      { name: 'id', value: String(car.pojazdId) },
      { name: 'group', value: 'SA_POJA' },
      { name: 'tytul', value: 'Protokół' },
      { name: 'opis', value: 'Przyjęty przez jeden proces' },
      { name: 'file', filename: 'protokół.pdf', content: PDF, type: 'application/pdf' },
    ]);
    const upload = await call(proxy.port, 'POST', '/api/attachment/upload', { token, raw: { bytes: body, contentType }, signingName });
    expect(upload.status, upload.body.toString()).toBe(200);
    const [zalaczId] = upload.json().zalaczIds;

    const link = await viaProxy('POST', '/api/attachment/download-link', { zalaczId });
    expect(link.status, link.body.toString()).toBe(200);
    // the proxy takes turns: one call in between when the next would land where the upload did
    if (instanceOf(link) !== instanceOf(upload)) await viaProxy('GET', '/api/terms/status');
    const file = await call(proxy.port, 'GET', `/api/attachment/download?id=${zalaczId}&token=${encodeURIComponent(link.json().token)}`);
    expect(file.status).toBe(200);
    expect(instanceOf(file)).not.toBe(instanceOf(upload));
    expect(file.body.equals(PDF)).toBe(true);
  });

  it('refuses on one process a one-time link already redeemed on another', async () => {
    const car = await database.db.selectFrom('attachment').select('zalaczId').orderBy('zalaczId', 'desc').executeTakeFirstOrThrow();
    const link = await viaProxy('POST', '/api/attachment/download-link', { zalaczId: car.zalaczId });
    const path = `/api/attachment/download?id=${car.zalaczId}&token=${encodeURIComponent(link.json().token)}`;
    const first = await call(a.port, 'GET', path);
    expect(first.status).toBe(200);
    const again = await call(b.port, 'GET', path);
    expect(again.status).toBe(403);
    expect(again.servedBy).toMatch(/^b:/);
  });

  it('reloads the configuration in every process when the admin reloads it on one', async () => {
    const file = join(configDir, 'locales/pl/app.json');
    const texts = JSON.parse(readFileSync(file, 'utf8'));
    texts.refresh.done = 'Konfiguracja odczytana ponownie we wszystkich procesach.';
    writeFileSync(file, JSON.stringify(texts, null, 2));

    const reload = await viaProxy('GET', '/api/settings/restart-application');
    expect(reload.status, reload.body.toString()).toBe(200);
    expect(reload.json().message).toBe('Konfiguracja odczytana ponownie we wszystkich procesach.');

    // every process, asked directly (a's two workers take turns on a's port), serves the new texts
    const seen = new Map<string, boolean>();
    const newTextEverywhere = async () => {
      for (const port of [a.port, a.port, b.port]) {
        const config = await call(port, 'GET', '/api/ui/config');
        seen.set(config.servedBy, config.body.toString().includes('we wszystkich procesach'));
      }
      return seen.size === 3 && [...seen.values()].every(Boolean);
    };
    await expect.poll(newTextEverywhere, { timeout: 10_000 }).toBe(true);
  });

  it('keeps answering every call while a killed process is dropped by the health check, and takes the process back when it returns', async () => {
    const killed = Number((await call(b.port, 'GET', '/api/health')).servedBy.split(':')[1]);
    process.kill(killed, 'SIGKILL');

    // Calls one after another until the proxy has marked b down, and 50 more. A connection that b's
    // primary accepted in the instant before it learnt of its only worker's death is handed to the
    // dead worker and neither answered nor closed (Node's cluster, nodejs/node#21746): the proxy
    // answers that call from a after its server timeout (retry-on response-timeout), so the loop
    // counts calls, not seconds.
    const answers: Answer[] = [];
    let downAt: number | undefined;
    while (downAt === undefined || answers.length < downAt + 50) {
      answers.push(await viaProxy('POST', '/api/car/table2', { startRow: 0, endRow: 5, sortModel: [], filterModel: {} }));
      if (downAt === undefined && (await proxy.states()).b === 'DOWN') downAt = answers.length;
      await sleep(50);
    }
    // every call answered
    const failed = answers.filter((x) => x.status !== 200);
    expect(failed.map((x) => `${x.status} ${x.servedBy} ${x.body.toString().slice(0, 200)}`)).toEqual([]);

    // b's primary started another worker; the health check takes it back into the rotation. A
    // worker's start is ~10 s of CPU (modules, the configuration's checks, the routes): on CI's two
    // cores beside three test workers it took more than 20 s, so the wait is sized for that load.
    await expect.poll(() => proxy.states(), { timeout: 90_000 }).toEqual({ a: 'UP', b: 'UP' });
    const after: Answer[] = [];
    for (let i = 0; i < 4; i++) after.push(await viaProxy('GET', '/api/terms/status'));
    const replacement = after.find((x) => instanceOf(x) === 'b');
    expect(replacement, after.map((x) => x.servedBy).join(' ')).toBeDefined();
    expect(Number(replacement!.servedBy.split(':')[1])).not.toBe(killed);
  }, 180_000);

  it('stops every worker after its requests in flight on SIGTERM', async () => {
    const workersOfA = new Set<number>();
    for (let i = 0; i < 4; i++) workersOfA.add(Number((await call(a.port, 'GET', '/api/health')).servedBy.split(':')[1]));
    const code = await a.stop('SIGTERM');
    expect(code, a.output()).toBe(0);
    const alive = (pid: number) => { try { process.kill(pid, 0); return true; } catch { return false; } };
    expect([...workersOfA].filter(alive)).toEqual([]);
    // b serves on: the proxy's calls all reach it
    await expect.poll(async () => (await proxy.states()).a, { timeout: 10_000 }).toBe('DOWN');
    for (let i = 0; i < 3; i++) {
      const answer = await viaProxy('GET', '/api/terms/status');
      expect(answer.status).toBe(200);
      expect(instanceOf(answer)).toBe('b');
    }
  });
});
