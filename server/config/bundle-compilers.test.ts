import { describe, expect, it } from 'vitest';
import { ROOT } from '../../tests/support/test-app.ts';
import type { Bundle } from './bundle.ts';
import { bundleCompilers, compiledRouteSchemas, referencedSchemas } from './bundle-compilers.ts';
import { loadBundle } from './load-bundle.ts';

// A route's answer and body, as a route declares them against schemas/ (car.schema.json).
const answer = { type: 'object', properties: { car: { $ref: 'car#' } } };
const body = { type: 'object', required: ['car'], properties: { car: { $ref: 'car#' } } };
const car = { pojazdId: 7, rejestr: 'WZ12345', marka: 'Skoda', extra: 'not in the schema' };

/** The bundle as a reload that changed car.schema.json would give it: `marka` is no longer a field. */
function withoutMarka(bundle: Bundle): Bundle {
  const { marka: _gone, ...properties } = bundle.schemas.car.properties ?? {};
  return { ...bundle, schemas: { ...bundle.schemas, car: { ...bundle.schemas.car, properties } } };
}

describe('route schemas compiled once per configuration', () => {
  it('serialises and validates against the bundle in use', () => {
    const bundle = loadBundle({ root: ROOT });
    const { serializerCompiler, validatorCompiler } = bundleCompilers(() => bundle);
    expect(JSON.parse(serializerCompiler({ schema: answer })({ car }))).toEqual({ car: { pojazdId: 7, rejestr: 'WZ12345', marka: 'Skoda' } });
    expect(validatorCompiler({ schema: body })({})).toBe(false);
    expect(validatorCompiler({ schema: body })({ car: { pojazdId: 7, rejestr: 'WZ12345' } })).toBe(true);
  });

  it('compiles nothing again for a second application, or a reload, on the same schemas', () => {
    const first = loadBundle({ root: ROOT });
    bundleCompilers(() => first).serializerCompiler({ schema: answer });
    bundleCompilers(() => first).validatorCompiler({ schema: body });
    const before = compiledRouteSchemas();
    // another application of the process, with the configuration read again: equal schemas, new objects
    const second = loadBundle({ root: ROOT });
    const { serializerCompiler, validatorCompiler } = bundleCompilers(() => second);
    const serialize = serializerCompiler({ schema: structuredClone(answer) });
    validatorCompiler({ schema: structuredClone(body) });
    expect(compiledRouteSchemas()).toBe(before);
    expect(JSON.parse(serialize({ car })).car.marka).toBe('Skoda');
  });

  it('follows a reload that changed a schema, and keeps serving a request that still holds the old bundle', () => {
    const old = loadBundle({ root: ROOT });
    let current = old;
    const serialize = bundleCompilers(() => current).serializerCompiler({ schema: answer });
    expect(JSON.parse(serialize({ car })).car.marka).toBe('Skoda');
    const before = compiledRouteSchemas();
    current = withoutMarka(old);
    expect(JSON.parse(serialize({ car })).car).toEqual({ pojazdId: 7, rejestr: 'WZ12345' });
    expect(compiledRouteSchemas()).toBe(before + 1);
    current = old;
    expect(JSON.parse(serialize({ car })).car.marka).toBe('Skoda');
    expect(compiledRouteSchemas()).toBe(before + 1);
  });

  it('stops at a broken route schema every time, not only the first', () => {
    const bundle = loadBundle({ root: ROOT });
    const { validatorCompiler } = bundleCompilers(() => bundle);
    const broken = { type: 'object', properties: { car: { $ref: 'no-such-schema#' } } };
    expect(() => validatorCompiler({ schema: broken })).toThrow();
    expect(() => validatorCompiler({ schema: structuredClone(broken) })).toThrow();
  });
});

describe('the schemas a route schema refers to', () => {
  const external = {
    a: { $id: 'a', type: 'object', properties: { b: { $ref: 'b#' }, self: { $ref: '#/properties/b' } } },
    b: { $id: 'b', type: 'object', properties: { c: { $ref: 'c#/properties/x' } } },
    c: { $id: 'c', type: 'object', properties: { x: { type: 'string' }, back: { $ref: 'a#' } } },
    unrelated: { $id: 'unrelated', type: 'string' },
  };

  it('follows $ref from schema to schema, through cycles, and leaves the rest out', () => {
    expect(Object.keys(referencedSchemas({ type: 'array', items: [{ $ref: 'a#' }] }, external)).sort()).toEqual(['a', 'b', 'c']);
    expect(Object.keys(referencedSchemas({ properties: { x: { $ref: 'c#/properties/x' } } }, external)).sort()).toEqual(['a', 'b', 'c']);
    expect(referencedSchemas({ type: 'object', properties: { local: { $ref: '#/$defs/x' } } }, external)).toEqual({});
  });
});
