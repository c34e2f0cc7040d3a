import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { bundleSchema, resolveSchemaId, type JsonSchemaObject } from './bundle-schema';

const root = join(import.meta.dirname, '../../../../..');
const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));
const metaDir = join(root, 'schemas/meta');
const metaSchemas: JsonSchemaObject[] = readdirSync(metaDir).filter((f) => f.endsWith('.json')).map((f) => readJson(join(metaDir, f)));

/** Every `$ref` of a schema. */
function refsOf(node: unknown, out: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((n) => refsOf(n, out));
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string') out.push(v);
      else refsOf(v, out);
    }
  }
  return out;
}

/** The verdict of the checks' own way: every meta-schema added by its $id (server/config/load-bundle.ts). */
function checksAjv() {
  const ajv = new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  for (const s of metaSchemas) ajv.addSchema(s);
  return ajv;
}

const screensDir = join(root, 'screens');
const screenFiles = readdirSync(screensDir).filter((f) => f.endsWith('.json'));

describe('bundleSchema', () => {
  it('resolves an $id against the one it is written under', () => {
    expect(resolveSchemaId('meta/table', 'common')).toBe('meta/common');
    expect(resolveSchemaId('meta/table', '../entities/car')).toBe('entities/car');
    expect(resolveSchemaId('', 'meta/table')).toBe('meta/table');
    expect(resolveSchemaId('meta/table', 'https://example.org/x.json')).toBe('https://example.org/x.json');
  });

  it('leaves a meta-schema with local references only, every one of them pointing at something', () => {
    for (const id of ['meta/table', 'meta/wizard', 'meta/screen', 'meta/menu', 'meta/form-dialog']) {
      const bundled = bundleSchema(id, metaSchemas);
      const refs = refsOf(bundled);
      expect(refs.length).toBeGreaterThan(0);
      for (const ref of refs) {
        expect(ref.startsWith('#'), `${id}: ${ref}`).toBe(true);
        // the pointer names a place of the bundled schema
        let node: any = bundled;
        for (const token of ref.slice(1).split('/').filter(Boolean)) node = node?.[token.replace(/~1/g, '/').replace(/~0/g, '~')];
        expect(node, `${id}: ${ref}`).toBeTypeOf('object');
      }
      expect(JSON.stringify(bundled)).not.toContain('"$id"');
    }
  });

  it('judges every screen file as the checks do (valid ones and broken ones)', () => {
    const ajv = checksAjv();
    const validate = new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(bundleSchema('screen', metaSchemas));
    let compared = 0;
    for (const file of screenFiles) {
      const doc = readJson(join(screensDir, file));
      const broken = { ...doc, unknownProperty: 1 };
      for (const value of [doc, broken]) {
        expect(validate(value), file).toBe(ajv.validate('meta/screen', value));
        compared++;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });

  it('reports the same places as the checks for a broken table', () => {
    const table = readJson(join(screensDir, screenFiles.find((f) => readJson(join(screensDir, f)).type === 'table')!));
    const broken = { ...table, columns: [{ ...table.columns[0], width: 'wide' }, ...table.columns.slice(1)], extra: true };
    const validate = new Ajv2020({ allErrors: true, strict: false, validateFormats: false }).compile(bundleSchema('meta/table', metaSchemas));
    const ajv = checksAjv();
    const places = (errors: { instancePath: string; keyword: string }[] | null | undefined) =>
      [...new Set((errors ?? []).map((e) => `${e.instancePath} ${e.keyword}`))].sort();
    expect(validate(broken)).toBe(false);
    ajv.validate('meta/table', broken);
    expect(places(validate.errors)).toEqual(places(ajv.errors));
    expect(places(validate.errors)).toContain('/columns/0/width type');
  });

  it('accepts a schema already bundled and keeps its own $defs', () => {
    const own = { $id: 'x', type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } };
    const bundled = bundleSchema('x', [own]);
    expect(bundled).toEqual({ type: 'object', properties: { a: { $ref: '#/$defs/a' } }, $defs: { a: { type: 'string' } } });
    expect(bundleSchema('x', { anyKey: own })).toEqual(bundled);
  });

  it('names a schema it is not given', () => {
    expect(() => bundleSchema('meta/table', metaSchemas.filter((s) => s.$id !== 'meta/common'))).toThrow(/common.*not given/);
    expect(() => bundleSchema('meta/nothing', metaSchemas)).toThrow(/no schema/);
  });
});
