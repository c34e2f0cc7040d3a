/**
 * One bench part run alone (audit.ts, fleet-costs.ts): its own seed in its own schema of the
 * PostgreSQL at DATABASE_URL, the server in this process, the demo administrator and fleet manager
 * signed in; the part measures and returns its markdown lines, which are printed with the load
 * average at both ends. In the full run (index.ts) the parts use the bench's server and data.
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Kysely } from 'kysely';
import { buildApp } from '../../server/app.ts';
import { DEFAULT_POOL_LIMITS, openDatabase } from '../../server/db/connect.ts';
import type { DB } from '../../server/db/types.generated.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import { prepareData, type BenchSize } from './data.ts';
import { apiClient, type Api } from './http.ts';

export interface Signed { api: Api; db: Kysely<DB>; admin: string; manager: string; log: (m: string) => void }

export async function runStandalone(schema: string, size: BenchSize, part: (signed: Signed) => Promise<string[]>): Promise<void> {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const log = (m: string) => console.log(m);
  const load = () => os.loadavg().map((l) => l.toFixed(1)).join(' / ');
  log(`load average at the start ${load()}`);
  await prepareData(databaseUrl, schema, size, log);
  const database = await openDatabase({ databaseUrl, schema, limits: DEFAULT_POOL_LIMITS });
  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  // the bench signs the demo administrator in with his password alone, as a development server does (SECOND_FACTOR_OPTIONAL)
  const app = await buildApp({ db: database.db, root, version, logger: false, secondFactor: { enforce: false } });
  try {
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address();
    if (!address || typeof address === 'string') throw new Error('the server did not report its port');
    const api = apiClient(`http://127.0.0.1:${address.port}`, app.config.bundle.app.name);
    const signIn = (a: { login: string; password: string }) => api.signIn({ username: a.login, password: a.password, role: 'MANAGER' });
    const admin = await signIn(DEMO_ACCOUNTS.admin);
    const manager = await signIn(DEMO_ACCOUNTS.manager);
    await api.post('/terms/accept-current', {}, manager);
    const lines = await part({ api, db: database.db, admin, manager, log });
    log(`load average at the end ${load()}`);
    log(lines.join('\n'));
  } finally {
    await app.close();
    await database.close();
  }
}
