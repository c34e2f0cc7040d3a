/**
 * A configuration published in the studio reaches every server process without a restart (issue
 * 26): two portals (`server/main.ts`) on one PostgreSQL schema; an administrator publishes a text
 * through one, and the other serves it within 5 s (LISTEN/NOTIFY, server/db/reload-broadcast.ts);
 * a rollback through the other reaches the first; a process started afterwards serves the published
 * layer from its start.
 *
 * Always on PostgreSQL (DATABASE_URL, or the local one at 127.0.0.1:5432): PGlite belongs to one process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropSchema } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { call, freePort, startPortal, TEST_POSTGRES_URL, type PortalProcess } from '../support/portal-process.ts';
import { DEMO } from '../support/test-app.ts';

const SCHEMA = `studio_${process.pid}`;

/** Polls `probe` until it answers true; fails with `describe()` after `ms`. */
async function until(probe: () => Promise<boolean>, ms: number, describe: () => Promise<string>): Promise<number> {
  const started = Date.now();
  for (;;) {
    if (await probe()) return Date.now() - started;
    if (Date.now() - started > ms) throw new Error(`not within ${ms} ms: ${await describe()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('the configuration studio with two server processes on one PostgreSQL', () => {
  let a: PortalProcess;
  let b: PortalProcess;
  let c: PortalProcess | undefined;
  let signingName: string;
  let admin: string;
  let env: Record<string, string>;
  /** The vehicles' registration label a process serves (or its answer, when it is not a bundle: a loaded machine may answer 503). */
  const label = async (port: number) => {
    const answer = await call(port, 'GET', '/api/ui/config', { token: admin });
    return answer.status === 200 ? (answer.json().locales.pl.car.fields.rejestr as string) : `${answer.status} ${answer.body.toString()}`;
  };

  beforeAll(async () => {
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
    env = { DATABASE_URL: TEST_POSTGRES_URL, DATABASE_SCHEMA: SCHEMA, SHUTDOWN_TIMEOUT_MS: '5000' };
    a = startPortal({ ...env, INSTANCE_ID: 'a', PORT: String(await freePort()) });
    await a.ready(); // a migrates and seeds the schema; b starts on it
    b = startPortal({ ...env, INSTANCE_ID: 'b', PORT: String(await freePort()) });
    await b.ready();
    signingName = (await call(a.port, 'GET', '/api/init/pre-config')).json().name;
    const signIn = await call(a.port, 'POST', '/api/user/auth', { body: DEMO.admin, signingName });
    expect(signIn.status, signIn.body.toString()).toBe(200);
    admin = signIn.json().id_token;
  }, 120_000);

  afterAll(async () => {
    await Promise.all([a?.stop('SIGKILL'), b?.stop('SIGKILL'), c?.stop('SIGKILL')]);
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: SCHEMA });
    await dropSchema({ databaseUrl: TEST_POSTGRES_URL, schema: jobQueueSchema(SCHEMA) });
  });

  it('serves a change published on one process from the other within 5 s, and a rollback on the other from the first', async () => {
    expect(await label(b.port)).toBe('Nr rejestracyjny');
    const saved = await call(a.port, 'PUT', '/api/config-studio/texts', { token: admin, signingName, body: { scope: 'base', key: 'car:fields.rejestr', text: 'Rejestracja (studio)' } });
    expect(saved.status, saved.body.toString()).toBe(200);
    const published = await call(a.port, 'POST', '/api/config-studio/publish', { token: admin, signingName, body: { comment: 'dwa procesy' } });
    expect(published.status, published.body.toString()).toBe(200);
    // this process reloads before answering
    expect(await label(a.port)).toBe('Rejestracja (studio)');
    await until(async () => (await label(b.port)) === 'Rejestracja (studio)', 5000, async () => `b serves "${await label(b.port)}"\n${b.output()}`);

    // rolled back through b (the first version had nothing): a serves the files' text again
    const second = await call(b.port, 'PUT', '/api/config-studio/texts', { token: admin, signingName, body: { scope: 'base', key: 'car:fields.rejestr', text: 'Rejestracja (2)' } });
    expect(second.status, second.body.toString()).toBe(200);
    expect((await call(b.port, 'POST', '/api/config-studio/publish', { token: admin, signingName, body: { comment: 'druga' } })).status).toBe(200);
    await until(async () => (await label(a.port)) === 'Rejestracja (2)', 5000, async () => `a serves "${await label(a.port)}"`);
    const first = published.json().version.id;
    const restored = await call(b.port, 'POST', `/api/config-studio/versions/${first}/restore`, { token: admin, signingName, body: {} });
    expect(restored.status, restored.body.toString()).toBe(200);
    await until(async () => (await label(a.port)) === 'Rejestracja (studio)', 5000, async () => `a serves "${await label(a.port)}"`);
  });

  it('serves the published layer from the start of a process started afterwards', async () => {
    c = startPortal({ ...env, INSTANCE_ID: 'c', PORT: String(await freePort()) });
    await c.ready();
    await until(async () => (await label(c!.port)) === 'Rejestracja (studio)', 5000, async () => `c serves "${await label(c!.port)}"\n${c!.output()}`);
  }, 120_000);
});
