import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

const spec = JSON.parse(readFileSync(join(ROOT, 'tools/spec-endpoints.json'), 'utf8')) as {
  endpoints: { method: string; path: string; implemented: boolean; section7?: false }[];
};
/** The calls spec §7 names (the list also holds GET /api/health of issue 2, marked section7: false). */
const SECTION_7_CALLS = 128;

describe('the OpenAPI document against the spec and schemas/', () => {
  let t: TestApp;
  let paths: Record<string, Record<string, any>>;

  beforeAll(async () => {
    t = await startTestApp();
    const res = await t.call('GET', '/api/docs/json');
    paths = res.json().paths;
  }, 60_000);
  afterAll(async () => t?.close());

  const has = (method: string, path: string) => Boolean(paths[path]?.[method.toLowerCase()]);

  it('lists every call of spec §7 that the server implements', () => {
    const missing = spec.endpoints.filter((e) => e.implemented && !has(e.method, e.path));
    expect(missing).toEqual([]);
  });

  it('holds all 128 calls of spec §7, each once', () => {
    const calls = spec.endpoints.filter((e) => e.section7 !== false);
    expect(new Set(calls.map((e) => `${e.method} ${e.path}`)).size).toBe(calls.length);
    expect(calls).toHaveLength(SECTION_7_CALLS);
    expect(calls.filter((e) => has(e.method, e.path))).toHaveLength(SECTION_7_CALLS);
  });

  it('keeps tools/spec-endpoints.json honest: nothing served is still marked as not implemented', () => {
    const stale = spec.endpoints.filter((e) => !e.implemented && has(e.method, e.path));
    expect(stale).toEqual([]);
  });

  it('takes every request body from schemas/', () => {
    const bundleIds = new Set(Object.keys(t.app.config.bundle.schemas));
    const bodies: string[] = [];
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const content = op.requestBody?.content?.['application/json']?.schema;
        if (!content) continue;
        const ref: string | undefined = content.$ref;
        const id = ref?.replace(/^#\/components\/schemas\//, '');
        if (!id || !bundleIds.has(id)) bodies.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(bodies).toEqual([]);
  });

  it('describes a successful answer of every operation (a 2xx response schema, or the 3xx of a browser step), so no route answers unchecked data', () => {
    const undescribed: string[] = [];
    for (const [path, methods] of Object.entries(paths)) {
      for (const [method, op] of Object.entries(methods)) {
        const responses = Object.keys(op.responses ?? {});
        // single sign-on's browser steps (issue 36) succeed with a redirect, which carries no data
        if (!responses.some((status) => /^[23]\d\d$/.test(status))) undescribed.push(`${method.toUpperCase()} ${path}`);
      }
    }
    expect(undescribed).toEqual([]);
  });

  it('answers each list and single row of a table resource with its entity schema', () => {
    const entityOf = (resource: string) => t.app.config.bundle.resources[resource].entity;
    for (const [name, resource] of Object.entries(t.app.config.bundle.resources)) {
      const list = paths[`/api/${name}/table`]?.post?.responses?.['200']?.content?.['application/json']?.schema;
      expect(list?.items?.$ref, `POST /api/${name}/table`).toBe(`#/components/schemas/${entityOf(name)}`);
      if (resource.byId) {
        const row = paths[`/api/${name}/{id}`]?.get?.responses?.['200']?.content?.['application/json']?.schema;
        expect(row?.$ref, `GET /api/${name}/{id}`).toBe(`#/components/schemas/${entityOf(name)}`);
      }
    }
  });

  it('serves the documentation UI', async () => {
    const res = await t.call('GET', '/api/docs');
    expect(res.statusCode).toBe(200);
  });
});
