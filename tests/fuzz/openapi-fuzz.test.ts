/**
 * The fuzz: every operation of the app's OpenAPI document, as every role and without a token,
 * with inputs made from its schemas plus malformed ones (tests/support/fuzz.ts). Bad input must be
 * a 4xx: any 5xx fails, naming the operation, the caller and the input.
 *
 * `npm test` runs a small fixed budget (seed FUZZ_SEED, default 20261123); `npm run fuzz` a large
 * one (FUZZ_RUNS inputs per operation) and prints requests and 5xx per operation.
 */
import { appendFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { startTestSmtp, useTestSmtp, type TestSmtp } from '../support/smtp.ts';
import { DEMO, startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';
import { NASTY_NUMBERS, NASTY_STRINGS, formatFindings, type FuzzInput, operationsOf, runFuzz, type Caller, type GenContext, type Operation } from '../support/fuzz.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 2);
const SEED = Number(process.env.FUZZ_SEED ?? 20261123);
const REPORT = process.env.FUZZ_REPORT === '1' || process.env.FUZZ_RUNS !== undefined;

/** Signed-in callers: one per role (the admin signs in choosing MANAGER, as the login form does). */
const ROLE_ACCOUNTS: Record<string, DemoAccount> = { ADMIN: 'admin', MANAGER: 'manager', USER: 'kierowca', ADVISOR: 'doradca' };

/** Operations whose valid input reaches outside the process: only inputs the schema refuses are sent. */
const OUTSIDE = new Set(['POST /api/settings/email/test']);

/** Slow operations (they re-read the whole configuration) get a tenth of the budget, at least one input. */
const SLOW = new Set(['GET /api/settings/restart-application']);

/** ag-grid filter models, right and wrong, for the free-form `filterModel` objects. */
function filterShapes(): fc.Arbitrary<unknown> {
  const scalar = fc.oneof(fc.constantFrom(...NASTY_STRINGS.filter((s) => s.length < 100)), fc.constantFrom(...NASTY_NUMBERS), fc.boolean(), fc.constant(null), fc.string({ maxLength: 8 }), fc.integer());
  const type = fc.constantFrom('contains', 'notContains', 'equals', 'notEqual', 'startsWith', 'endsWith', 'blank', 'notBlank', 'greaterThan', 'lessThan', 'inRange', 'today', 'x');
  const condition = fc.record(
    {
      filterType: fc.constantFrom('text', 'number', 'date', 'set', 'boolean', 'x'),
      type,
      filter: scalar,
      filterTo: scalar,
      dateFrom: fc.oneof(scalar, fc.constantFrom('2024-01-01', '2024-01-01 00:00:00', '2024-13-45', '0001-01-01', '275760-09-13', '2024-01-01T10:00:00')),
      dateTo: fc.oneof(scalar, fc.constantFrom('2024-12-31', '9999-12-31 23:59:59', '10000-01-01')),
      values: fc.array(scalar, { maxLength: 4 }),
    },
    { requiredKeys: ['filterType'] },
  );
  const combined = fc.record({ filterType: fc.constantFrom('text', 'number', 'date'), operator: fc.constantFrom('AND', 'OR', 'XOR'), conditions: fc.array(condition, { maxLength: 3 }) });
  return fc.oneof({ weight: 4, arbitrary: condition }, { weight: 1, arbitrary: combined }, { weight: 1, arbitrary: scalar });
}

/**
 * Most generated table requests would stop at the first check (endRow ≤ startRow, an unknown
 * filter column): half of them get a window that fits and a third lose their filter, so that
 * the rest of the input reaches the query.
 */
function reachHandlers(_op: Operation, input: FuzzInput, n: number): FuzzInput {
  const body = input.body as Record<string, any> | undefined;
  const params = body && typeof body === 'object' && !Array.isArray(body) ? (body.rowParams && typeof body.rowParams === 'object' ? body.rowParams : body) : undefined;
  if (!params || !('endRow' in params)) return input;
  if (n < 50) {
    params.startRow = n % 3 === 0 ? 0 : n * 3;
    params.endRow = params.startRow + 1 + (n % 40);
  }
  if (n % 3 === 0) delete params.filterModel;
  if (n % 2 === 0) delete params.sortModel;
  if (n % 4 === 0) {
    delete params.srcId;
    delete params.group;
  }
  if (n % 4 !== 3) delete params.cursor;
  return input;
}

describe('the API fuzz: no input makes any operation answer 5xx', () => {
  let t: TestApp;
  let smtp: TestSmtp;
  let operations: Operation[];
  let ctx: GenContext;
  let demoRows: Record<string, unknown>[];
  let validates: (schemaRef: unknown, value: unknown) => boolean;

  beforeAll(async () => {
    t = await startTestApp({ logStream: process.env.FUZZ_LOG ? (await import('node:fs')).createWriteStream(process.env.FUZZ_LOG) : undefined });
    // mail goes to a sink inside the test, so a reset request is answered as in production (not 503 "mail not configured")
    smtp = await startTestSmtp();
    await useTestSmtp(t.app.db, smtp);
    const doc = (await t.call('GET', '/api/docs/json')).json();
    operations = operationsOf(doc);
    const components = doc.components?.schemas ?? {};
    const entityProps = new Set<string>();
    for (const schema of Object.values<any>(t.app.config.bundle.schemas)) for (const p of Object.keys(schema.properties ?? {})) entityProps.add(p);
    ctx = { components, keyPool: [...entityProps].sort(), freeForm: filterShapes(), refine: reachHandlers };
    // the demo accounts as seeded, to put back when an operation changed one (an admin setting a password)
    demoRows = await t.app.db.selectFrom('app_user').selectAll().where('login', 'in', Object.values(DEMO).map((a) => a.username)).execute();
    const ajv = new Ajv2020({ strict: false, allErrors: false });
    addFormats(ajv);
    for (const { $schema: _s, ...schema } of Object.values(t.app.config.bundle.schemas)) ajv.addSchema(schema);
    validates = (schema, value) => ajv.validate(schema as object, value) as boolean;
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it(`answers every operation, as every role and anonymously, below 500 (${RUNS} inputs per operation, seed ${SEED})`, async () => {
    const callers: Caller[] = [
      ...Object.entries(ROLE_ACCOUNTS).map(([name, account]) => ({
        name,
        signIn: async () => {
          const token = await t.signIn(account);
          // a user who still has terms to accept could reach only the terms calls
          await t.call('POST', '/api/terms/accept-current', { token });
          return token;
        },
      })),
      { name: 'anonymous' },
    ];
    const started = Date.now();
    const { findings, reports } = await runFuzz({
      operations,
      callers,
      ctx,
      seed: SEED,
      runs: (op) => (SLOW.has(op.key) ? Math.max(1, Math.floor(RUNS / 10)) : RUNS),
      send: async (_op, url, body, token) => {
        const headers: Record<string, string> = {};
        if (token) headers.authorization = `Bearer ${token}`;
        const payload = body === undefined ? undefined : JSON.stringify(body);
        if (payload !== undefined) headers['content-type'] = 'application/json';
        if (_op.method === 'POST' || _op.method === 'PUT') {
          const nonce = makeNonce();
          headers['x-nonce'] = nonce;
          headers['x-signature'] = signBody(t.preConfigName, nonce, payload ?? '');
        }
        const res = await t.app.inject({ method: _op.method, url, headers, payload });
        return { statusCode: res.statusCode, body: res.body };
      },
      skip: (op, input) => {
        if (!OUTSIDE.has(op.key)) return false;
        const schema = op.body as { $ref?: string } | null;
        return schema === null || validates(schema.$ref ? { $ref: schema.$ref.replace(/^#\/components\/schemas\//, '') } : schema, input.body);
      },
      onOperation: process.env.FUZZ_TRACE ? (r, ms) => appendFileSync(process.env.FUZZ_TRACE!, `${ms} ms ${r.operation} ${JSON.stringify(r.byStatus)}\n`) : undefined,
      repair: async () => {
        for (const row of demoRows) await t.app.db.updateTable('app_user').set(row).where('id', '=', row.id as number).execute();
      },
    });
    if (REPORT) {
      const lines = reports.map((r) => `${String(r.requests).padStart(6)} ${String(r.fiveXx).padStart(4)}  ${r.operation}  ${JSON.stringify(r.byStatus)}`);
      const total = reports.reduce((n, r) => n + r.requests, 0);
      console.log(`requests  5xx  operation  statuses\n${lines.join('\n')}\n${total} requests, ${findings.length} 5xx, ${operations.length} operations, ${((Date.now() - started) / 1000).toFixed(1)} s`);
    }
    expect(operations.length).toBeGreaterThan(30);
    expect(findings, formatFindings(findings)).toEqual([]);
  }, 0);
});
