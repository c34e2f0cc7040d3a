/**
 * A real application on a real database for API tests: in-memory PGlite by default, or, when
 * DATABASE_URL is set, PostgreSQL in a throwaway schema dropped afterwards (server/seed/testing.ts).
 * Requests go through fastify.inject with real signatures.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { buildApp, type AppOptions } from '../../server/app.ts';
import { openTestDatabase } from '../../server/seed/testing.ts';
import type { DatabaseHandle } from '../../server/db/connect.ts';

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const VERSION = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;

export const DEMO = {
  admin: { username: 'admin', password: 'Admin123!', role: 'MANAGER' },
  manager: { username: 'manager', password: 'Manager123!', role: 'MANAGER' },
  manager2: { username: 'manager2', password: 'Manager123!', role: 'MANAGER' },
  kierowca: { username: 'kierowca', password: 'Kierowca123!', role: 'USER', rejestr: 'WZ12345' },
  doradca: { username: 'doradca', password: 'Doradca123!', role: 'ADVISOR', rejestr: 'WZ12345', vin: '000123' },
  nowyKierowca: { username: 'nowy.kierowca', password: 'Start123!', role: 'USER', rejestr: 'WZ67890' },
  nowyManager: { username: 'nowy.manager', password: 'Start123!', role: 'MANAGER' },
} as const;
export type DemoAccount = keyof typeof DEMO;

export interface TestApp {
  app: FastifyInstance;
  preConfigName: string;
  /** A signed POST/PUT (or a plain GET/DELETE) with an optional bearer token, from 127.0.0.1 or the given client address. */
  call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, options?: { body?: unknown; token?: string; headers?: Record<string, string>; sign?: boolean; remoteAddress?: string }): Promise<LightMyRequestResponse>;
  signIn(account: DemoAccount): Promise<string>;
  close(): Promise<void>;
}

/**
 * `rateLimits: 'configured'` keeps the per-address call limits of screens/app.json. Otherwise they
 * are lifted for this app: every inject call comes from the one address 127.0.0.1, and a test file
 * signs in far more often than a person would (the limits have tests of their own).
 */
/**
 * `notifications` (issue 25): the notification worker runs only where a test asks for it
 * (`{ worker: true }`, which tests of delivery do); elsewhere notifications are written but not sent.
 */
/** `logStream` (issue 33): the request log is written there, as `npm start` writes it to standard output. */
/** `database` (issue 33): the app on this database (a restored backup) instead of a fresh seeded one; close() closes it too. */
export async function startTestApp(options: {
  variant?: string; root?: string; rateLimits?: 'configured' | 'lifted'; clock?: () => Date; notifications?: AppOptions['notifications']; logStream?: NodeJS.WritableStream;
  database?: DatabaseHandle;
  /** issue 33: the app's metrics (a METRICS_TOKEN to serve them on GET /metrics). */
  metrics?: AppOptions['metrics'];
  /** issue 35: the webhooks' allowed hosts and a shortened retry schedule. */
  webhooks?: AppOptions['webhooks'];
  /** issue 47: web push (the hosts a local push receiver is allowed on, VAPID keys). */
  push?: AppOptions['push'];
  /**
   * issue 36: 'configured' applies screens/app.json security.secondFactorRequiredWhen (ADMIN must
   * have a second factor). Otherwise it is lifted, as SECOND_FACTOR_OPTIONAL=1 lifts it for the demo
   * and the browser journeys: tests sign the demo administrator in with the password alone, many
   * times a minute, which a one-time code (one per 30 seconds) cannot serve.
   */
  secondFactor?: 'configured' | 'lifted';
} = {}): Promise<TestApp> {
  // Migrated and seeded as `npm start` does (PGlite from a cached snapshot; PostgreSQL in a throwaway schema).
  const database = options.database ?? await openTestDatabase({ seed: true });
  const app = await buildApp({
    db: database.db, root: options.root ?? ROOT, variant: options.variant, version: VERSION, clock: options.clock, liftRateLimits: options.rateLimits !== 'configured',
    notifications: { worker: false, ...options.notifications },
    metrics: options.metrics,
    webhooks: options.webhooks,
    push: options.push,
    secondFactor: { enforce: options.secondFactor === 'configured' },
    ...(options.logStream ? { logger: true, logStream: options.logStream } : {}),
  });
  printUnexpectedErrors(app);
  await app.ready();
  const preConfigName = app.config.bundle.app.name;
  const call: TestApp['call'] = (method, url, opts = {}) => {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    if (opts.token) headers.authorization = `Bearer ${opts.token}`;
    let payload: string | undefined;
    if (opts.body !== undefined) {
      payload = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    if ((method === 'POST' || method === 'PUT') && opts.sign !== false) {
      const nonce = makeNonce();
      headers['x-nonce'] = nonce;
      headers['x-signature'] = signBody(preConfigName, nonce, payload ?? '');
    }
    return app.inject({ method, url, headers, payload, remoteAddress: opts.remoteAddress });
  };

  return {
    app,
    preConfigName,
    call,
    async signIn(account) {
      const res = await call('POST', '/api/user/auth', { body: DEMO[account] });
      if (res.statusCode !== 200) throw new Error(`sign-in of ${account} failed: ${res.statusCode} ${res.body}`);
      return res.json().id_token as string;
    },
    async close() {
      await app.close();
      await database.close();
    },
  };
}

/**
 * A 500 answer's body says nothing (it leaks nothing), and a test app logs nothing: without this a
 * 500 seen only under load (a whole suite on two cores) leaves no cause to read. The error behind
 * each 500 is written to the test's standard error, with its method and route.
 */
function printUnexpectedErrors(app: FastifyInstance): void {
  const errors = new WeakMap<object, unknown>();
  app.addHook('onError', async (request, _reply, error) => {
    errors.set(request, error);
  });
  app.addHook('onResponse', async (request, reply) => {
    if (reply.statusCode === 500 && errors.has(request)) {
      console.error(`test app: ${request.method} ${request.routeOptions.url ?? request.url} answered ${reply.statusCode}:`, errors.get(request));
    }
  });
}
