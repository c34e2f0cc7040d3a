/**
 * Conformance of every answer the API tests receive with the published OpenAPI document (issue 27):
 * the status must be declared for the operation, the media type must be one the answer declares,
 * and a JSON body must validate against the declared schema (ajv, draft 2020-12 as OpenAPI 3.1
 * uses it, over the document's own schemas). An answer without a body must declare none.
 *
 * `watchConformance(app)` wraps the application's `inject`, so every call a test makes through it
 * is checked; tests/support/conformance-setup.ts (a vitest setup file) wraps every application
 * `buildApp` builds in a test and fails the test file in its afterAll, naming for each mismatch
 * the operation, the status, the media type and the JSON pointer. Calls that match no operation
 * (an unknown path answered 404 by the not-found handler, the runtime's files) are not the
 * document's business and are skipped.
 */
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';

const DOCUMENT_ID = 'https://portal.invalid/openapi.json';

interface Operation {
  method: string;
  path: string;
  pattern: RegExp;
  params: number;
  operation: any;
}

interface Checker {
  document: any;
  operations: Operation[];
  ajv: Ajv2020;
  validators: Map<string, ValidateFunction>;
}

const checkers = new WeakMap<object, Checker>();
const mismatches = new Set<string>();
let checked = 0;

const escapePointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');

function checkerFor(app: FastifyInstance): Checker {
  const document = app.swagger() as any;
  let checker = checkers.get(document);
  if (checker) return checker;
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(document.paths ?? {})) {
    const regex = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[^}]+\}/g, '[^/]+');
    for (const [method, operation] of Object.entries(methods)) {
      operations.push({ method: method.toUpperCase(), path, pattern: new RegExp(`^${regex}$`), params: (path.match(/\{/g) ?? []).length, operation });
    }
  }
  // a static segment wins over a parameter, as in Fastify's router
  operations.sort((a, b) => a.params - b.params);
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats(ajv);
  ajv.addFormat('binary', true);
  ajv.addSchema({ ...document, $id: DOCUMENT_ID });
  checker = { document, operations, ajv, validators: new Map() };
  checkers.set(document, checker);
  return checker;
}

/** The document's response object for a status (with $ref followed) and the JSON pointer it lives at. */
function responseFor(checker: Checker, op: Operation, status: number): { response: any; pointer: string } | undefined {
  const responses = op.operation.responses ?? {};
  const key = [String(status), `${String(status)[0]}XX`, 'default'].find((k) => responses[k] !== undefined);
  if (!key) return undefined;
  let response = responses[key];
  let pointer = `/paths/${escapePointer(op.path)}/${op.method.toLowerCase()}/responses/${key}`;
  while (response?.$ref) {
    pointer = response.$ref.slice(1);
    response = pointer.split('/').slice(1).reduce((node: any, part: string) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], checker.document);
  }
  return { response, pointer };
}

function bodyOf(res: LightMyRequestResponse): Buffer {
  const raw = res.rawPayload;
  const encoding = String(res.headers['content-encoding'] ?? '');
  if (encoding === 'br') return brotliDecompressSync(raw);
  if (encoding === 'gzip') return gunzipSync(raw);
  if (encoding === 'deflate') return inflateSync(raw);
  return raw;
}

/**
 * The path as the router sees it: not decoded and not normalised (Fastify's router does neither,
 * so /%61pi/… or //api/… match no route and are the not-found handler's), without the query.
 */
function pathOf(url: string): string {
  const path = /^[a-z]+:\/\//i.test(url) ? url.replace(/^[a-z]+:\/\/[^/]*/i, '') : url;
  return path.split(/[?#]/)[0];
}

/** The operation a call reaches, as the document describes it (undefined: no operation). */
export function operationOf(app: FastifyInstance, method: string, url: string): { operationId: string; path: string; responses: Record<string, any> } | undefined {
  const path = pathOf(url);
  const op = checkerFor(app).operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  return op && { operationId: op.operation.operationId, path: op.path, responses: op.operation.responses ?? {} };
}

/**
 * Checks one answer; returns the mismatches found, also collected for the file's report unless
 * `collect` is false (a test of the checker itself).
 */
export function checkAnswer(app: FastifyInstance, options: InjectOptions, res: LightMyRequestResponse, collect = true): string[] {
  const method = String(options.method ?? 'GET').toUpperCase();
  const url = typeof options.url === 'string' ? options.url : options.url ? String((options.url as { pathname?: string }).pathname ?? '') : String(options.path ?? '/');
  const path = pathOf(url);
  if (method === 'HEAD' || !path.startsWith('/api/')) return [];
  const checker = checkerFor(app);
  const op = checker.operations.find((o) => o.method === method && o.pattern.test(path));
  if (!op) return [];
  checked++;
  const status = res.statusCode;
  const name = `${op.operation.operationId ?? '?'} (${method} ${op.path}) ${status}`;
  const found: string[] = [];
  const media = String(res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const body = bodyOf(res);
  const declared = responseFor(checker, op, status);
  if (!declared) {
    found.push(`${name}: status not declared (declared: ${Object.keys(op.operation.responses ?? {}).join(', ')}); body ${body.toString('utf8').slice(0, 200)}`);
  } else if (!declared.response?.content) {
    if (body.length > 0) found.push(`${name}: declares no body, got ${media || 'no media type'} (${body.length} bytes)`);
  } else {
    const content = declared.response.content as Record<string, any>;
    const key = Object.keys(content).find((k) => k.toLowerCase() === media)
      ?? Object.keys(content).find((k) => k.endsWith('/*') && media.startsWith(k.slice(0, -1)));
    if (!key) {
      found.push(`${name}: media type "${media}" not declared (declared: ${Object.keys(content).join(', ')})`);
    } else if (/^application\/([\w.-]+\+)?json$/.test(key) && content[key].schema) {
      const pointer = `${declared.pointer}/content/${escapePointer(key)}/schema`;
      let validate = checker.validators.get(pointer);
      if (!validate) {
        validate = checker.ajv.compile({ $ref: `${DOCUMENT_ID}#${pointer}` });
        checker.validators.set(pointer, validate);
      }
      let value: unknown;
      try {
        value = body.length ? JSON.parse(body.toString('utf8')) : undefined;
      } catch {
        found.push(`${name} ${media}: the body is not JSON`);
      }
      if (!found.length && !validate(value)) {
        for (const error of (validate.errors ?? []) as ErrorObject[]) {
          found.push(`${name} ${media}: ${error.instancePath || '/'} ${error.message}${error.params ? ` ${JSON.stringify(error.params)}` : ''} (schema ${error.schemaPath})`);
        }
      }
    }
  }
  if (collect) for (const line of found) mismatches.add(line);
  return found;
}

/** Wraps `app.inject` so that every answer of the promise form is checked. */
export function watchConformance<T extends FastifyInstance>(app: T): T {
  const inject = app.inject.bind(app) as any;
  (app as any).inject = (options?: InjectOptions | string, callback?: unknown) => {
    if (options === undefined || callback !== undefined) return inject(options, callback);
    const opts: InjectOptions = typeof options === 'string' ? { url: options } : options;
    return (inject(opts) as Promise<LightMyRequestResponse>).then((res) => {
      checkAnswer(app, opts, res);
      return res;
    });
  };
  return app;
}

/** What the file's answers broke, or undefined when every checked answer conformed. */
export function conformanceReport(): string | undefined {
  if (!mismatches.size) return undefined;
  const lines = [...mismatches];
  mismatches.clear();
  return `${lines.length} answer(s) do not conform to the OpenAPI document (of ${checked} checked):\n` +
    lines.slice(0, 60).map((l) => `  - ${l}`).join('\n') + (lines.length > 60 ? `\n  … and ${lines.length - 60} more` : '');
}

/** How many answers were checked in this file (a test asserts the hook is live). */
export function conformanceChecked(): number {
  return checked;
}
