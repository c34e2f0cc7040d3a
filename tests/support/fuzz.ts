/**
 * A small schema-driven fuzzer for the API: reads the app's own OpenAPI document, and for every
 * operation builds requests (path parameters, query string, JSON body) from the operation's JSON
 * Schemas with fast-check, mixed with malformed variants (wrong types, missing and extra fields,
 * 1 MB strings, NUL, unicode, huge/negative/fractional numbers, SQL- and path-looking text). Each
 * request is signed as the runtime signs it, so it reaches validation and the handler, and is
 * sent as each of the given callers. Any 5xx is a finding: operation, caller and input.
 *
 * Deterministic: the same seed and budget give the same requests (fast-check's sample with a seed).
 */
import fc from 'fast-check';

type Schema = Record<string, any> | boolean;

export interface Operation {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** The OpenAPI path, e.g. /api/note/{id}. */
  path: string;
  key: string;
  pathParams: Record<string, Schema>;
  query: { properties: Record<string, Schema>; required: string[] } | null;
  body: Schema | null;
}

export interface FuzzInput {
  params: Record<string, unknown>;
  query: Record<string, unknown> | null;
  /** `undefined`: no body at all. */
  body: unknown;
}

export interface Finding {
  operation: string;
  caller: string;
  status: number;
  input: FuzzInput;
  response: string;
}

export interface OperationReport {
  operation: string;
  requests: number;
  byStatus: Record<number, number>;
  fiveXx: number;
}

// ---------------------------------------------------------------------------------------------
// The OpenAPI document → operations

export function operationsOf(doc: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries<any>(doc.paths ?? {})) {
    for (const [m, op] of Object.entries<any>(methods)) {
      const method = m.toUpperCase();
      if (!['GET', 'POST', 'PUT', 'DELETE'].includes(method)) continue;
      const pathParams: Record<string, Schema> = {};
      const queryProps: Record<string, Schema> = {};
      const queryRequired: string[] = [];
      let hasQuery = false;
      for (const p of op.parameters ?? []) {
        if (p.in === 'path') pathParams[p.name] = p.schema ?? { type: 'string' };
        if (p.in === 'query') {
          hasQuery = true;
          queryProps[p.name] = p.schema ?? { type: 'string' };
          if (p.required) queryRequired.push(p.name);
        }
      }
      // a path parameter the document does not describe is still a parameter
      for (const name of path.match(/\{([^}]+)\}/g) ?? []) {
        const n = name.slice(1, -1);
        pathParams[n] ??= { type: 'string' };
      }
      const body = op.requestBody?.content?.['application/json']?.schema ?? null;
      ops.push({
        method: method as Operation['method'],
        path,
        key: `${method} ${path}`,
        pathParams,
        query: hasQuery ? { properties: queryProps, required: queryRequired } : null,
        body,
      });
    }
  }
  return ops.sort((a, b) => a.key.localeCompare(b.key));
}

// ---------------------------------------------------------------------------------------------
// Nasty values

const MB = 1024 * 1024;
/** The pattern of every request text in schemas/api: no NUL. */
const NO_NUL = '^[^\\u0000]*$';
export const NASTY_STRINGS: string[] = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '%00',
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  "' OR '1'='1",
  "'; DROP TABLE app_user; --",
  '" OR ""="',
  '\\',
  '%',
  '_',
  '${jndi:ldap://x}',
  '<script>alert(1)</script>',
  'Zażółć gęślą jaźń',
  '😀🚗',
  '\u202E\uFEFF\u200B',
  '\uD800', // a lone surrogate
  'null',
  'true',
  '-1',
  '0',
  '1e308',
  '99999999999',
  '9'.repeat(40),
  'NaN',
  '2024-02-30',
  '0000-00-00',
  '99999-12-31',
  '2024-01-01T25:61:61Z',
  '{"a":1}',
  '[]',
  'x'.repeat(10_000),
];
const HUGE_STRING = 'x'.repeat(MB);

export const NASTY_NUMBERS: number[] = [
  0, -1, 1, -0, 0.5, -0.5, 1e-9, 32767, 32768, -32769, 65536, 2147483647, 2147483648, -2147483649, 99999999999,
  9007199254740991, 9007199254740993, -9007199254740993, 1e21, 1e308, -1e308, Number.MAX_VALUE, Number.MIN_VALUE,
];

const nastyString = fc.constantFrom(...NASTY_STRINGS);
const nastyNumber = fc.constantFrom(...NASTY_NUMBERS);
const anyScalar = fc.oneof(nastyString, nastyNumber, fc.boolean(), fc.constant(null), fc.string(), fc.integer());
const anyJson: fc.Arbitrary<unknown> = fc.letrec<{ v: unknown }>((tie) => ({
  v: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    anyScalar,
    fc.array(tie('v'), { maxLength: 4 }),
    fc.dictionary(fc.oneof(fc.string({ maxLength: 8 }), nastyString.filter((s) => s.length < 100)), tie('v'), { maxKeys: 4 }),
  ),
})).v;

// ---------------------------------------------------------------------------------------------
// Schema → arbitrary

export interface GenContext {
  /** components.schemas of the document (for $ref). */
  components: Record<string, any>;
  /** Names worth using as keys of a free-form object (a filter model's columns …). */
  keyPool: string[];
  /** Values worth trying where a free-form value goes (column values, ag-grid filter shapes …). */
  freeForm?: fc.Arbitrary<unknown>;
  /** Makes a generated input more often one the handler gets to (`n`: a random 0…99 to decide with). */
  refine?: (op: Operation, input: FuzzInput, n: number) => FuzzInput;
}

function deref(schema: Schema, ctx: GenContext, seen = 0): Schema {
  if (typeof schema !== 'object' || !schema.$ref || seen > 20) return schema;
  const ref: string = schema.$ref;
  const [doc, pointer = ''] = ref.split('#');
  const name = doc ? doc.replace(/^.*\//, '') : '';
  let target: any = name ? ctx.components[name] : undefined;
  if (!target && ref.startsWith('#/components/schemas/')) target = ctx.components[ref.slice('#/components/schemas/'.length)];
  if (!target) return {};
  if (doc && pointer) {
    for (const part of pointer.split('/').filter(Boolean)) target = target?.[decodeURIComponent(part)];
  }
  const { $ref: _r, ...rest } = schema;
  return deref({ ...(target ?? {}), ...rest }, ctx, seen + 1);
}

/** Values that (mostly) satisfy the schema, with nasty values of the same type mixed in. */
export function valid(schemaIn: Schema, ctx: GenContext, depth = 0, nasty = true): fc.Arbitrary<unknown> {
  const schema = deref(schemaIn, ctx);
  if (schema === true || schema === false || !schema || Object.keys(schema).length === 0) return ctx.freeForm ?? anyJson;
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  for (const k of ['oneOf', 'anyOf'] as const) {
    if (Array.isArray(schema[k]) && schema[k].length) return fc.oneof(...schema[k].map((s: Schema) => valid(s, ctx, depth + 1, nasty)));
  }
  if (Array.isArray(schema.allOf) && !schema.type && !schema.properties) {
    return valid(Object.assign({}, ...schema.allOf.map((s: Schema) => deref(s, ctx))), ctx, depth + 1, nasty);
  }
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : schema.properties ? ['object'] : [];
  if (types.length === 0) return ctx.freeForm ?? anyJson;
  return fc.oneof(...types.map((t) => ofType(t, schema, ctx, depth, nasty)));
}

function ofType(type: string, s: Record<string, any>, ctx: GenContext, depth: number, nasty: boolean): fc.Arbitrary<unknown> {
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer': {
      const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : -(2 ** 31));
      const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum - 1 : 2 ** 31);
      const inRange = fc.integer({ min: Math.max(min, Number.MIN_SAFE_INTEGER), max: Math.min(max, Number.MAX_SAFE_INTEGER) });
      const small = fc.integer({ min: Math.max(min, 0), max: Math.max(Math.min(max, 50), Math.max(min, 0)) });
      if (!nasty) return fc.oneof({ weight: 3, arbitrary: small }, { weight: 1, arbitrary: inRange });
      return fc.oneof({ weight: 3, arbitrary: small }, { weight: 2, arbitrary: inRange }, { weight: 1, arbitrary: nastyNumber.filter(Number.isInteger) });
    }
    case 'number':
      const double = fc.double({ noNaN: true, noDefaultInfinity: true, min: s.minimum, max: s.maximum });
      return nasty ? fc.oneof(double, nastyNumber) : double;
    case 'string': {
      const minLength = s.minLength ?? 0;
      const maxLength = Math.min(s.maxLength ?? 40, 200);
      let plain: fc.Arbitrary<string>;
      const chars = fc.oneof(fc.constantFrom(...'abcXYZ019 ąęłż_-.%'.split('')), fc.integer({ min: nasty ? 0 : 1, max: 0xffff }).map((c) => String.fromCharCode(c)));
      // a pattern that only forbids NUL (every request text has it) says nothing about the shape
      if (typeof s.pattern === 'string' && s.pattern !== NO_NUL) {
        try {
          const re = new RegExp(s.pattern, 'u');
          // cut to the length limits, then keep what still matches. A filter that rarely passes spins
          // for ever (a ticket of at least 20 characters from `[A-Za-z0-9_-]+`, whose matches are
          // mostly short): the generator's size is raised until a sample mostly passes, and a
          // pattern no size serves gets plain strings of the lengths (the server answers 400).
          const fits = (v: string) => v.length >= minLength && re.test(v);
          const sized = (['small', 'medium', 'large', 'xlarge', 'max'] as const)
            .map((size) => fc.stringMatching(re, { size }).map((v) => v.slice(0, s.maxLength ?? v.length)))
            .find((candidate) => fc.sample(candidate, { numRuns: 20, seed: 1 }).filter(fits).length >= 10);
          plain = sized ? sized.filter(fits) : fc.string({ minLength, maxLength });
        } catch {
          plain = fc.string({ minLength, maxLength });
        }
      } else if (s.format === 'email') plain = fc.emailAddress().filter((v) => v.length <= (s.maxLength ?? 320));
      else if (s.format === 'date') plain = fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10));
      else if (s.format === 'date-time') plain = fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
      else plain = fc.string({ minLength, maxLength: Math.max(maxLength, minLength), unit: chars });
      if (!nasty) return plain;
      // nasty strings within the length limits (chosen up front: a filter that never passes would search forever)
      const fitting = NASTY_STRINGS.filter((v) => v.length >= minLength && v.length <= (s.maxLength ?? Infinity));
      return fc.oneof({ weight: 6, arbitrary: plain }, { weight: 1, arbitrary: fitting.length ? fc.constantFrom(...fitting) : plain }, { weight: 1, arbitrary: nastyString });
    }
    case 'array': {
      const items = s.items ? valid(s.items, ctx, depth + 1, nasty) : anyJson;
      return fc.array(items, { minLength: s.minItems ?? 0, maxLength: Math.min(s.maxItems ?? 5, depth > 2 ? 2 : 5) });
    }
    case 'object': {
      const props: Record<string, Schema> = s.properties ?? {};
      const required: string[] = s.required ?? [];
      const names = Object.keys(props);
      if (names.length === 0) {
        // free form: keys from the pool (column names …), values anything or shaped by the caller
        const value = ctx.freeForm ?? anyJson;
        const key = ctx.keyPool.length ? fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...ctx.keyPool) }, { weight: 1, arbitrary: fc.string({ maxLength: 10 }) }) : fc.string({ maxLength: 10 });
        return fc.dictionary(key, value, { maxKeys: depth > 2 ? 1 : 3 });
      }
      const model: Record<string, fc.Arbitrary<unknown>> = {};
      for (const n of names) model[n] = valid(props[n], ctx, depth + 1, nasty);
      return fc.record(model, { requiredKeys: required.filter((r) => names.includes(r)) });
    }
    default:
      return anyJson;
  }
}

/** Values that break the schema somewhere: a wrong type, a missing required field, an extra one, a huge one. */
export function malformed(schemaIn: Schema, ctx: GenContext): fc.Arbitrary<unknown> {
  const schema = deref(schemaIn, ctx);
  const wrongTop = fc.oneof(anyScalar, fc.constant([]), fc.constant({}), fc.constant(HUGE_STRING), fc.constant([HUGE_STRING]));
  if (typeof schema !== 'object' || !schema.properties) return wrongTop;
  const props = Object.keys(schema.properties);
  const required: string[] = schema.required ?? [];
  const base = valid(schema, ctx) as fc.Arbitrary<Record<string, unknown>>;
  const field = fc.constantFrom(...props);
  const badValue = fc.oneof(anyScalar, anyJson, fc.constant(HUGE_STRING), fc.constant({ [HUGE_STRING.slice(0, 1000)]: 1 }), fc.constant(Array.from({ length: 5000 }, () => 1)));
  return fc.oneof(
    { weight: 1, arbitrary: wrongTop },
    { weight: 6, arbitrary: fc.tuple(base, field, badValue).map(([o, f, v]) => ({ ...(isObject(o) ? o : {}), [f]: v })) },
    { weight: 2, arbitrary: fc.tuple(base, fc.constantFrom(...(required.length ? required : props))).map(([o, f]) => { const c = { ...(isObject(o) ? o : {}) }; delete c[f]; return c; }) },
    { weight: 1, arbitrary: fc.tuple(base, fc.string({ maxLength: 12 }), anyScalar).map(([o, k, v]) => ({ ...(isObject(o) ? o : {}), [k || 'extra']: v })) },
  );
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Inputs for one operation: about two thirds shaped by the schemas, one third malformed. */
export function inputsOf(op: Operation, ctx: GenContext): fc.Arbitrary<FuzzInput> {
  const paramNames = Object.keys(op.pathParams);
  const paramValid = fc.record(Object.fromEntries(paramNames.map((n) => [n, valid(op.pathParams[n], ctx)])));
  const paramBad = fc.record(Object.fromEntries(paramNames.map((n) => [n, fc.oneof(nastyString, nastyNumber.map(String), fc.string())])));
  const querySchema = op.query ? { type: 'object', properties: op.query.properties, required: op.query.required } : null;
  const query = querySchema
    ? fc.oneof({ weight: 3, arbitrary: valid(querySchema, ctx) }, { weight: 1, arbitrary: malformed(querySchema, ctx) })
    : fc.oneof({ weight: 5, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), nastyString, { maxKeys: 2 }) });
  const body = op.body
    ? fc.oneof({ weight: 3, arbitrary: valid(op.body, ctx, 0, false) }, { weight: 2, arbitrary: valid(op.body, ctx) }, { weight: 2, arbitrary: malformed(op.body, ctx) })
    : op.method === 'POST' || op.method === 'PUT'
      ? fc.oneof(fc.constant(undefined), anyJson)
      : fc.constant(undefined);
  const input = fc.record({
    params: fc.oneof({ weight: 3, arbitrary: paramValid }, { weight: 1, arbitrary: paramBad }),
    query: query as fc.Arbitrary<Record<string, unknown> | null>,
    body,
  });
  const refine = ctx.refine;
  return refine ? fc.tuple(input, fc.nat(99)).map(([i, n]) => refine(op, i, n)) : input;
}

/** The URL of an input: path parameters and query values percent-encoded (arrays as repeated keys). */
export function urlOf(op: Operation, input: FuzzInput): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_m, n) => encodeURIComponent(wellFormed(stringOf(input.params[n]))));
  if (!input.query || !isObject(input.query)) return path;
  const qs = new URLSearchParams();
  for (const [k, v] of Object.entries(input.query)) {
    if (v === undefined) continue;
    for (const item of Array.isArray(v) ? v : [v]) qs.append(k, stringOf(item));
  }
  const text = qs.toString();
  return text ? `${path}?${text}` : path;
}

/** Lone surrogates as U+FFFD: a URL cannot carry them. */
const wellFormed = (s: string) => s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

function stringOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined) return '';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

/** A printable input: huge strings shortened so a failure report stays readable. */
export function describeInput(input: FuzzInput): string {
  return JSON.stringify(input, (_k, v) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 40)}…(${v.length} chars)` : v));
}

// ---------------------------------------------------------------------------------------------
// Running

export interface Caller {
  name: string;
  /** A fresh token for this caller (sign-in); absent for the anonymous caller. */
  signIn?: () => Promise<string>;
}

export interface RunOptions {
  operations: Operation[];
  callers: Caller[];
  ctx: GenContext;
  seed: number;
  /** Inputs per operation; each is sent as every caller. */
  runs: number | ((op: Operation) => number);
  send: (op: Operation, url: string, body: unknown, token: string | undefined) => Promise<{ statusCode: number; body: string }>;
  /** Inputs not to send (e.g. a valid mail-test body would make the server connect to a fuzzed host). */
  skip?: (op: Operation, input: FuzzInput) => boolean;
  /** Told after each operation (progress of a long run). */
  onOperation?: (report: OperationReport, ms: number) => void;
  /** Called when a caller's token stopped working (an operation signed it out, changed its password …). */
  repair?: () => Promise<void>;
}

export async function runFuzz(options: RunOptions): Promise<{ findings: Finding[]; reports: OperationReport[] }> {
  const tokens = new Map<string, string | undefined>();
  const tokenOf = async (caller: Caller, fresh = false) => {
    if (!caller.signIn) return undefined;
    if (fresh || !tokens.has(caller.name)) {
      let token: string;
      try {
        token = await caller.signIn();
      } catch {
        await options.repair?.();
        token = await caller.signIn();
      }
      tokens.set(caller.name, token);
    }
    return tokens.get(caller.name);
  };
  const findings: Finding[] = [];
  const reports: OperationReport[] = [];
  for (const [i, op] of options.operations.entries()) {
    const report: OperationReport = { operation: op.key, requests: 0, byStatus: {}, fiveXx: 0 };
    const started = Date.now();
    if (process.env.FUZZ_TRACE) console.error(`fuzz: ${op.key}`);
    const inputs = fc.sample(inputsOf(op, options.ctx), { seed: options.seed + i, numRuns: typeof options.runs === 'number' ? options.runs : options.runs(op) });
    for (const input of inputs) {
      if (options.skip?.(op, input)) continue;
      const url = urlOf(op, input);
      for (const caller of options.callers) {
        let token = await tokenOf(caller);
        let res = await options.send(op, url, input.body, token);
        if (res.statusCode === 401 && caller.signIn) {
          // the previous request may have ended this session (sign-out, a password change): sign in again and retry
          token = await tokenOf(caller, true);
          res = await options.send(op, url, input.body, token);
        }
        report.requests++;
        report.byStatus[res.statusCode] = (report.byStatus[res.statusCode] ?? 0) + 1;
        if (res.statusCode >= 500) {
          report.fiveXx++;
          findings.push({ operation: op.key, caller: caller.name, status: res.statusCode, input, response: res.body.slice(0, 500) });
        }
        // sign-out ends the session the next request would use
        if (op.path.endsWith('/logout') && res.statusCode < 300) tokens.delete(caller.name);
      }
    }
    reports.push(report);
    options.onOperation?.(report, Date.now() - started);
  }
  return { findings, reports };
}

export function formatFindings(findings: Finding[], max = 20): string {
  return findings
    .slice(0, max)
    .map((f) => `${f.status} ${f.operation} as ${f.caller}\n  input: ${describeInput(f.input)}\n  response: ${f.response}`)
    .join('\n');
}
