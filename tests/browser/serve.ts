/**
 * A server the browser tests talk to (one per Playwright worker, playwright.config.ts): the real
 * `server/main.ts` on a database of its own — a fresh PGlite folder filled from the seeded snapshot
 * the API tests share (server/seed/testing.ts), or, with DATABASE_URL, a fresh schema (E2E_SCHEMA,
 * default "e2e") that the server migrates and seeds — so runs never see old data, workers never
 * see each other's, and two checkouts can run their journeys side by side on one PostgreSQL.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dropSchema } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { seededPGliteDataDir } from '../../server/seed/testing.ts';

// The load-shedding limit (2 s of event-loop lag, then 503 "przeciążony") measures the machine here,
// not the portal: CI runs two browsers and two servers (PGlite in their event loops) on two cores,
// and a page answered 503 in the middle of a journey failed it (seen on CI: a navigation, a search
// after a publish). 10 s still catches a server that stalls; shedding itself has API tests
// (tests/api/bounded-waiting.test.ts).
// the webhooks journey's receiver listens on 127.0.0.1, which only WEBHOOK_ALLOW_HOSTS lets a webhook reach (issue 35)
// SECOND_FACTOR_OPTIONAL: the journeys sign the demo administrator in with the password many times a
// minute; the two-factor journey enrols on its own (docs/decisions.md, issue 36)
const env: NodeJS.ProcessEnv = { MAX_EVENT_LOOP_DELAY_MS: '10000', WEBHOOK_ALLOW_HOSTS: '127.0.0.1', PUSH_ALLOW_HOSTS: '127.0.0.1', SECOND_FACTOR_OPTIONAL: '1', ...process.env, LOG: 'off' };
if (process.env.DATABASE_URL) {
  const schema = process.env.E2E_SCHEMA || 'e2e';
  // the portal's schema and its job queue's: a new run never meets the last one's data or jobs
  await dropSchema({ databaseUrl: process.env.DATABASE_URL, schema });
  await dropSchema({ databaseUrl: process.env.DATABASE_URL, schema: jobQueueSchema(schema) });
  env.DATABASE_SCHEMA = schema;
} else {
  env.DATA_DIR = mkdtempSync(join(tmpdir(), 'portal-e2e-'));
  await seededPGliteDataDir(env.DATA_DIR);
}
const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], { env, stdio: 'inherit' });
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => process.exit(code ?? 0));
