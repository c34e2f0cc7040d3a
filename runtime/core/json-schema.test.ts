import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv from 'ajv';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { compileSchema, jsonEqual, UnsupportedSchemaError } from './json-schema';

const root = fileURLToPath(new URL('../..', import.meta.url));
type Obj = Record<string, any>;

function jsonFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => (statSync(join(dir, f)).isDirectory() ? jsonFiles(join(dir, f)) : f.endsWith('.json') ? [join(dir, f)] : []));
}
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

/** A seeded generator (mulberry32): the same cases every run, so a difference is reproducible. */
function random(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Values a schema is likely to tell apart: its consts and enums, strings at its length limits, the
 * wrong types, and objects built from the properties it (or any schema inside it) names.
 */
function sample(schema: unknown, rnd: () => number, resolve: (ref: string) => unknown, depth = 0): unknown {
  const hints: unknown[] = [null, '', 'x', 'ABC123', 'a/b~c', '\u0000', 0, 1, -1, 2.5, true, false, [], ['x'], {}];
  const properties = new Map<string, unknown[]>();
  const types = new Set<string>();
  const seen = new Set<unknown>();
  const gather = (s: unknown) => {
    if (typeof s !== 'object' || s === null || seen.has(s) || Array.isArray(s)) return;
    seen.add(s);
    const o = s as Obj;
    for (const type of [o.type ?? []].flat()) types.add(type);
    if ('const' in o) hints.push(o.const, o.const, o.const);
    if (Array.isArray(o.enum)) hints.push(...o.enum, ...o.enum);
    for (const k of ['maxLength', 'minLength']) if (typeof o[k] === 'number') hints.push('Ą'.repeat(o[k]), 'b'.repeat(o[k] + 1), 'c'.repeat(Math.max(0, o[k] - 1)));
    for (const k of ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum']) if (typeof o[k] === 'number') hints.push(o[k], o[k] + 1, o[k] - 1);
    if (typeof o.$ref === 'string') gather(resolve(o.$ref));
    for (const k of ['not', 'if', 'then', 'else', 'items', 'additionalProperties']) gather(o[k]);
    for (const k of ['allOf', 'anyOf', 'oneOf']) if (Array.isArray(o[k])) o[k].forEach(gather);
    for (const [name, sub] of Object.entries<unknown>(o.properties ?? {})) properties.set(name, [...(properties.get(name) ?? []), sub]);
    for (const name of o.required ?? []) if (!properties.has(name)) properties.set(name, []);
  };
  gather(schema);
  if (properties.size && depth < 4 && rnd() < 0.8) {
    const out: Obj = {};
    for (const [name, subs] of properties) {
      if (rnd() < 0.1) continue;
      const sub = subs.length ? subs[Math.floor(rnd() * subs.length)] : {};
      out[name] = sample({ allOf: subs.length ? subs : [sub] }, rnd, resolve, depth + 1);
    }
    if (rnd() < 0.1) out.extra = 'x';
    return out;
  }
  // mostly a value of a declared type, so that valid data comes up too
  const typed = hints.filter((h) => [...types].some((t) => (t === 'null' ? h === null : t === 'array' ? Array.isArray(h) : t === 'object' ? typeof h === 'object' && h !== null && !Array.isArray(h) : t === 'integer' ? Number.isInteger(h) : typeof h === t)));
  const pool = typed.length && rnd() < 0.7 ? typed : hints;
  return pool[Math.floor(rnd() * pool.length)];
}

const errorsOf = (errors: readonly { keyword: string; instancePath: string; params: unknown }[] | null | undefined) =>
  (errors ?? []).map(({ keyword, instancePath, params }) => ({ keyword, instancePath, params }));

describe('the small JSON Schema evaluator gives ajv’s answers', () => {
  // the request schemas of the API (the login page's among them), with every schema a $ref may name
  const files = jsonFiles(join(root, 'schemas')).filter((f) => !f.includes(`${join('schemas', 'meta')}`));
  const byId: Record<string, Obj> = Object.fromEntries(files.map(readJson).filter((s) => typeof s.$id === 'string').map((s) => [s.$id, s]));

  it('on the login request: the same errors, in the same order, for many kinds of data', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    const schema = byId['auth-request'];
    const theirs = ajv.compile(schema);
    const ours = compileSchema(schema, { allErrors: true });
    const rnd = random(33);
    const resolve = () => ({});
    let failing = 0;
    // signing-ins of each kind, each with some of its fields changed to what a sample gives
    const bases: Obj[] = [
      { role: 'USER', username: 'kierowca', password: 'Kierowca123!', rejestr: 'WZ12345' },
      { role: 'MANAGER', username: 'manager', password: 'Manager123!' },
      { role: 'ADVISOR', username: 'doradca', password: 'Doradca123!', rejestr: 'WZ12345', vin: '000123' },
      { role: 'MANAGER', username: 'manager', password: 'x', rejestr: null, vin: null },
    ];
    for (let i = 0; i < 3000; i++) {
      const data: Obj = { ...bases[i % bases.length] };
      const changes = Math.floor(rnd() * 3);
      for (let c = 0; c < changes; c++) {
        const field = ['role', 'username', 'password', 'rejestr', 'vin', 'other'][Math.floor(rnd() * 6)];
        if (rnd() < 0.2) delete data[field];
        else data[field] = sample(schema.properties[field] ?? {}, rnd, resolve);
      }
      const valid = theirs(data);
      expect({ data, valid: ours(data), errors: errorsOf(ours.errors) }).toEqual({ data, valid, errors: errorsOf(theirs.errors) });
      if (!valid) failing++;
    }
    // the cases tried both sides of the schema
    expect(failing).toBeGreaterThan(300);
    expect(failing).toBeLessThan(2900);
  });

  it('on every request and entity schema it accepts, and it accepts the login request', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    for (const s of Object.values(byId)) ajv.addSchema(s);
    const accepted: string[] = [];
    for (const [id, schema] of Object.entries(byId)) {
      let ours;
      try {
        ours = compileSchema(schema, { allErrors: true, schemas: byId });
      } catch (e) {
        if (e instanceof UnsupportedSchemaError) continue;
        throw e;
      }
      accepted.push(id);
      const theirs = ajv.getSchema(id)!;
      const rnd = random(id.length * 7919);
      const resolve = (ref: string) => ajv.getSchema(ref.startsWith('#') ? `${id}${ref}` : ref)?.schema ?? {};
      for (let i = 0; i < 300; i++) {
        const data = sample(schema, rnd, resolve);
        const valid = theirs(data);
        expect({ id, data, valid: ours(data), errors: errorsOf(ours.errors) }).toEqual({ id, data, valid, errors: errorsOf(theirs.errors) });
      }
    }
    expect(accepted).toContain('auth-request');
    expect(accepted.length).toBeGreaterThan(Object.keys(byId).length / 2);
  });

  it('on every condition of the configuration and of each client variant', () => {
    const CONDITION_KEYS = new Set(['visibleWhen', 'hiddenWhen', 'disabledWhen', 'when', 'allowedWhen', 'okWhen', 'termsRequiredWhen']);
    const conditions: unknown[] = [];
    const named: Obj[] = [];
    const walk = (node: unknown) => {
      if (typeof node !== 'object' || node === null) return;
      for (const [k, v] of Object.entries(node)) (CONDITION_KEYS.has(k) ? conditions.push(v) : walk(v));
    };
    for (const file of [...jsonFiles(join(root, 'screens')), ...jsonFiles(join(root, 'client-variants'))]) {
      const json = readJson(file);
      if (json.type === 'conditions') {
        named.push(json);
        conditions.push(...Object.values(json.$defs as Obj));
      }
      walk(json);
    }
    expect(conditions.length).toBeGreaterThan(50);
    let agreed = { true: 0, false: 0 };
    for (const file of named) {
      const $defs = file.$defs;
      const ajv = new Ajv({ strict: false, allErrors: false, logger: false });
      ajv.addSchema({ $id: 'conditions', $defs });
      const resolve = (ref: string) => ajv.getSchema(ref)?.schema ?? {};
      const rnd = random(Object.keys($defs).length);
      for (const condition of conditions) {
        // a variant's own conditions name its own $defs; another file's conditions may miss them
        const theirs = (() => {
          try {
            return ajv.compile(typeof condition === 'boolean' ? condition : { ...(condition as Obj) });
          } catch {
            return null;
          }
        })();
        if (!theirs) {
          expect(() => compileSchema(condition as Obj, { schemas: { conditions: { $defs } } })).toThrow(/can't resolve reference/);
          continue;
        }
        const ours = compileSchema(condition as Obj, { schemas: { conditions: { $defs } } });
        for (let i = 0; i < 60; i++) {
          const context = sample({ allOf: [condition, { properties: { role: { enum: ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] }, variant: { enum: ['default', 'p', 't'] } } }] }, rnd, resolve);
          const answer = theirs(context);
          expect({ condition, context, answer: ours(context) }).toEqual({ condition, context, answer });
          agreed = { ...agreed, [String(answer)]: agreed[String(answer) as 'true' | 'false'] + 1 };
        }
      }
    }
    // both answers came up often
    expect(agreed.true).toBeGreaterThan(500);
    expect(agreed.false).toBeGreaterThan(500);
  });
});

describe('the small JSON Schema evaluator refuses what it cannot judge', () => {
  it('names a standard keyword it does not evaluate, where it is', () => {
    expect(() => compileSchema({ properties: { roles: { contains: { const: 'ADMIN' } } } })).toThrow(/\/properties\/roles\/contains: the keyword "contains" is not supported/);
    expect(() => compileSchema({ items: [{ type: 'string' }] })).toThrow(/items as an array/);
  });

  it('names a reference it cannot resolve and a pattern that is no regular expression', () => {
    expect(() => compileSchema({ $ref: 'conditions#/$defs/missing' }, { schemas: { conditions: { $defs: {} } } })).toThrow(/can't resolve reference conditions#\/\$defs\/missing/);
    expect(() => compileSchema({ pattern: '(' })).toThrow(SyntaxError);
  });

  it('ignores the words that are no keywords, as ajv does when not strict', () => {
    const validate = compileSchema({ type: 'string', 'x-messages': { pattern: 'validation:login' }, description: 'x', format: 'email' });
    expect(validate('not an e-mail')).toBe(true);
  });

  it('compares values as JSON does', () => {
    expect(jsonEqual({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true);
    expect(jsonEqual({ a: 1 }, { a: 1, b: undefined })).toBe(false);
    expect(jsonEqual([1], { 0: 1 })).toBe(false);
  });
});
