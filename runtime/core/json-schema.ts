/**
 * A small JSON Schema evaluator for the rules the browser must judge on the first page: the
 * conditions (core/conditions.ts, on the server too) and the login form's request schema
 * (runtime/src/forms/light-form.ts). ajv's compiler (~40 KB gzipped, and `new Function` for every
 * schema) was most of the login page's JavaScript and of its blocking time (issue 33); these rules
 * are small, so walking them is as fast as compiling them.
 *
 * It gives ajv's answers, errors included (keyword, instancePath, params, and ajv's order of the
 * errors with `allErrors`), for the keywords below; json-schema.test.ts compares it with ajv. A
 * standard keyword it does not know is refused when the schema is compiled (so the configuration
 * check names it) rather than ignored; other unknown words (`x-messages`, `description`) are
 * ignored, as ajv's non-strict mode does. `format` is ignored, as by ajv without ajv-formats.
 */

/**
 * A JSON Schema as the configuration holds it (schemas/entities, schemas/api, a meta-schema): the
 * keywords the portal reads by name, typed, and any other keyword (`x-sortBy`, `x-messages`,
 * `maxLength` …) as `unknown`, to be narrowed where it is read. The one shape of a schema for the
 * server and the runtime.
 */
export interface JsonSchemaObject {
  $id?: string;
  $ref?: string;
  title?: string;
  description?: string;
  type?: string | string[];
  format?: string;
  properties?: Record<string, JsonSchemaObject>;
  required?: string[];
  items?: JsonSchemaObject;
  enum?: unknown[];
  [keyword: string]: unknown;
}

export interface SchemaError {
  keyword: string;
  /** JSON pointer of the value ("" the whole data, "/vin" a property). */
  instancePath: string;
  params: Record<string, unknown>;
}

export interface SchemaValidator {
  (data: unknown): boolean;
  /** The errors of the last call (null when it passed), as ajv keeps them. */
  errors: SchemaError[] | null;
}

export class UnsupportedSchemaError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsupportedSchemaError';
  }
}

type Schema = boolean | Record<string, unknown>;
type Obj = Record<string, unknown>;

/** ajv's order of evaluation: the keywords of any value, then by the type of the value (its rule groups). */
const ANY = ['$ref', 'const', 'enum', 'not', 'anyOf', 'oneOf', 'allOf', 'if'];
const GROUPS: { type: 'number' | 'string' | 'array' | 'object'; keywords: string[] }[] = [
  { type: 'number', keywords: ['maximum', 'minimum', 'exclusiveMaximum', 'exclusiveMinimum', 'multipleOf'] },
  { type: 'string', keywords: ['maxLength', 'minLength', 'pattern'] },
  { type: 'array', keywords: ['maxItems', 'minItems', 'items'] },
  { type: 'object', keywords: ['maxProperties', 'minProperties', 'required', 'additionalProperties', 'properties', 'patternProperties'] },
];
const ANNOTATIONS = new Set(['$schema', '$id', '$comment', '$defs', 'definitions', '$anchor', 'title', 'description', 'default', 'examples', 'readOnly', 'writeOnly', 'deprecated', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema', 'type', 'then', 'else']);
const KNOWN = new Set([...ANY, ...GROUPS.flatMap((g) => g.keywords), ...ANNOTATIONS]);
/** Standard keywords (JSON Schema drafts 7 to 2020-12, and ajv's own) this evaluator does not evaluate. */
const UNSUPPORTED = new Set([
  'contains', 'minContains', 'maxContains', 'uniqueItems', 'prefixItems', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties',
  'propertyNames', 'dependencies', 'dependentRequired', 'dependentSchemas', '$dynamicRef', '$dynamicAnchor', '$recursiveRef', '$recursiveAnchor',
  'nullable', 'discriminator', '$data',
]);
const COMPARISON: Record<string, string> = { maximum: '<=', minimum: '>=', exclusiveMaximum: '<', exclusiveMinimum: '>' };

const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function hasType(value: unknown, type: string): boolean {
  switch (type) {
    case 'null':
      return value === null;
    case 'array':
      return Array.isArray(value);
    case 'object':
      return isObject(value);
    case 'integer':
      return typeof value === 'number' && !(value % 1) && !Number.isNaN(value);
    default:
      return typeof value === type;
  }
}

/** Deep equality as ajv's `const` and `enum` use it (fast-deep-equal, for JSON values). */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return Number.isNaN(a) && Number.isNaN(b);
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((x, i) => jsonEqual(x, (b as unknown[])[i]));
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((k) => Object.prototype.hasOwnProperty.call(b, k) && jsonEqual((a as Obj)[k], (b as Obj)[k]));
}

const pointerPart = (key: string | number) => String(key).replace(/~/g, '~0').replace(/\//g, '~1');

/** A schema document: the root being compiled, or one registered by its `$id` (the named conditions). */
interface Doc {
  root: Schema;
}

interface Run {
  all: boolean;
  errors: SchemaError[];
}

export interface CompileOptions {
  /** Schemas a `$ref` may name by their `$id` (`conditions#/$defs/admin`). */
  schemas?: Record<string, Schema>;
  /** Every error, not only the first (the forms' messages); conditions need the answer only. */
  allErrors?: boolean;
}

/**
 * Checks the schema once (every keyword known, every `$ref` found, every pattern a valid regular
 * expression: otherwise an error naming it, as ajv's compile throws) and returns its validator.
 */
export function compileSchema(schema: Schema, options: CompileOptions = {}): SchemaValidator {
  const named = options.schemas ?? {};
  const patterns = new Map<string, RegExp>();
  const regExp = (source: string) => {
    let re = patterns.get(source);
    if (!re) patterns.set(source, (re = new RegExp(source, 'u')));
    return re;
  };

  function resolve(ref: string, doc: Doc): { schema: Schema; doc: Doc } {
    const hash = ref.indexOf('#');
    const id = hash < 0 ? ref : ref.slice(0, hash);
    const pointer = hash < 0 ? '' : ref.slice(hash + 1);
    let target = doc;
    if (id) {
      const root = named[id];
      if (root === undefined) throw new UnsupportedSchemaError(`can't resolve reference ${ref}`);
      target = { root };
    }
    let node: unknown = target.root;
    for (const raw of pointer.split('/').slice(1)) {
      const part = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      node = isObject(node) || Array.isArray(node) ? (node as Obj)[part] : undefined;
    }
    if (typeof node !== 'boolean' && !isObject(node)) throw new UnsupportedSchemaError(`can't resolve reference ${ref}`);
    return { schema: node, doc: target };
  }

  /** The compile-time check: the whole schema, and every schema a $ref reaches. */
  const checked = new Set<unknown>();
  function check(s: Schema, doc: Doc, at: string): void {
    if (typeof s === 'boolean' || checked.has(s)) return;
    if (!isObject(s)) throw new UnsupportedSchemaError(`${at || '/'}: a schema must be an object or a boolean`);
    checked.add(s);
    for (const [key, value] of Object.entries(s)) {
      const here = `${at}/${pointerPart(key)}`;
      if (UNSUPPORTED.has(key)) throw new UnsupportedSchemaError(`${here}: the keyword "${key}" is not supported (runtime/core/json-schema.ts)`);
      if (!KNOWN.has(key)) continue;
      switch (key) {
        case '$ref': {
          if (typeof value !== 'string') throw new UnsupportedSchemaError(`${here}: $ref must be a string`);
          const target = resolve(value, doc);
          check(target.schema, target.doc, value);
          break;
        }
        case 'not': case 'if': case 'then': case 'else': case 'additionalProperties': case 'items':
          if (key === 'items' && Array.isArray(value)) throw new UnsupportedSchemaError(`${here}: items as an array is not supported (runtime/core/json-schema.ts)`);
          check(value as Schema, doc, here);
          break;
        case 'anyOf': case 'oneOf': case 'allOf':
          if (!Array.isArray(value) || value.length === 0) throw new UnsupportedSchemaError(`${here}: must be a non-empty array`);
          value.forEach((sub, i) => check(sub as Schema, doc, `${here}/${i}`));
          break;
        case 'properties': case 'patternProperties': case '$defs': case 'definitions':
          if (!isObject(value)) throw new UnsupportedSchemaError(`${here}: must be an object`);
          for (const [name, sub] of Object.entries(value)) {
            if (key === 'patternProperties') regExp(name);
            check(sub as Schema, doc, `${here}/${pointerPart(name)}`);
          }
          break;
        case 'pattern':
          if (typeof value !== 'string') throw new UnsupportedSchemaError(`${here}: must be a string`);
          regExp(value);
          break;
        case 'required':
          if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) throw new UnsupportedSchemaError(`${here}: must be an array of strings`);
          break;
        case 'enum':
          if (!Array.isArray(value)) throw new UnsupportedSchemaError(`${here}: must be an array`);
          break;
        case 'type': {
          const types = Array.isArray(value) ? value : [value];
          if (types.some((t) => !['null', 'boolean', 'object', 'array', 'number', 'integer', 'string'].includes(t as string))) throw new UnsupportedSchemaError(`${here}: unknown type`);
          break;
        }
        default:
          if (GROUPS.some((g) => g.type !== 'object' && g.keywords.includes(key)) && key !== 'items' && typeof value !== 'number') throw new UnsupportedSchemaError(`${here}: must be a number`);
          if ((key === 'maxProperties' || key === 'minProperties') && typeof value !== 'number') throw new UnsupportedSchemaError(`${here}: must be a number`);
      }
    }
  }

  function validate(s: Schema, data: unknown, path: string, doc: Doc, run: Run): boolean {
    if (s === true) return true;
    if (s === false) {
      run.errors.push({ keyword: 'false schema', instancePath: path, params: {} });
      return false;
    }
    const fail: Fail = (keyword, params) => {
      run.errors.push({ keyword, instancePath: path, params });
      return false;
    };
    let valid = true;
    // a type keyword of several types, or of a type whose group of keywords the schema does not
    // use, is checked first; otherwise within its group (ajv: coerceAndCheckDataType)
    const types = s.type === undefined ? [] : Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    const groupOfType = types.length === 1 ? GROUPS.find((g) => g.type === types[0] && g.keywords.some((k) => s[k] !== undefined)) : undefined;
    if (types.length && !groupOfType && !types.some((t) => hasType(data, t))) {
      valid = fail('type', { type: s.type });
      if (!run.all) return false;
    }
    for (const keyword of ANY) {
      if (s[keyword] === undefined) continue;
      if (!anyKeyword(keyword, s, data, path, doc, run, fail)) {
        valid = false;
        if (!run.all) return false;
      }
    }
    for (const group of GROUPS) {
      if (!group.keywords.some((k) => s[k] !== undefined)) continue;
      if (!hasType(data, group.type)) {
        if (group === groupOfType) {
          valid = fail('type', { type: s.type });
          if (!run.all) return false;
        }
        continue;
      }
      for (const keyword of group.keywords) {
        if (s[keyword] === undefined) continue;
        if (!typedKeyword(keyword, s, data, path, doc, run, fail)) {
          valid = false;
          if (!run.all) return false;
        }
      }
    }
    return valid;
  }

  type Fail = (keyword: string, params: Record<string, unknown>) => false;

  /** A sub-schema whose errors are kept only if the caller wants them (anyOf, oneOf, not, if). */
  function attempt(s: Schema, data: unknown, path: string, doc: Doc, run: Run, keepErrors: boolean): { valid: boolean; errors: SchemaError[] } {
    const inner: Run = { all: keepErrors && run.all, errors: [] };
    return { valid: validate(s, data, path, doc, inner), errors: inner.errors };
  }

  function anyKeyword(keyword: string, s: Obj, data: unknown, path: string, doc: Doc, run: Run, fail: Fail): boolean {
    const value = s[keyword];
    switch (keyword) {
      case '$ref': {
        const target = resolve(value as string, doc);
        return validate(target.schema, data, path, target.doc, run);
      }
      case 'const':
        return jsonEqual(data, value) || fail('const', { allowedValue: value });
      case 'enum':
        return (value as unknown[]).some((v) => jsonEqual(data, v)) || fail('enum', { allowedValues: value });
      case 'not':
        return !attempt(value as Schema, data, path, doc, run, false).valid || fail('not', {});
      case 'anyOf': {
        const errors: SchemaError[] = [];
        for (const sub of value as Schema[]) {
          const result = attempt(sub, data, path, doc, run, true);
          if (result.valid) return true;
          errors.push(...result.errors);
        }
        run.errors.push(...errors);
        return fail('anyOf', {});
      }
      case 'oneOf': {
        const errors: SchemaError[] = [];
        let passing: number | null = null;
        let second: number | null = null;
        (value as Schema[]).forEach((sub, i) => {
          const result = attempt(sub, data, path, doc, run, true);
          if (!result.valid) errors.push(...result.errors);
          else if (passing === null) passing = i;
          else if (second === null) second = i;
        });
        if (passing !== null && second === null) return true;
        run.errors.push(...errors);
        return fail('oneOf', { passingSchemas: second === null ? null : [passing, second] });
      }
      case 'allOf': {
        let valid = true;
        for (const sub of value as Schema[]) {
          if (validate(sub, data, path, doc, run)) continue;
          valid = false;
          if (!run.all) return false;
        }
        return valid;
      }
      case 'if': {
        const clause = attempt(value as Schema, data, path, doc, run, false).valid ? 'then' : 'else';
        if (s[clause] === undefined) return true;
        return validate(s[clause] as Schema, data, path, doc, run) || fail('if', { failingKeyword: clause });
      }
      default:
        return true;
    }
  }

  function typedKeyword(keyword: string, s: Obj, data: unknown, path: string, doc: Doc, run: Run, fail: Fail): boolean {
    const value = s[keyword];
    switch (keyword) {
      case 'maximum': case 'minimum': case 'exclusiveMaximum': case 'exclusiveMinimum': {
        const n = data as number;
        const limit = value as number;
        const ok = keyword === 'maximum' ? n <= limit : keyword === 'minimum' ? n >= limit : keyword === 'exclusiveMaximum' ? n < limit : n > limit;
        return ok || fail(keyword, { comparison: COMPARISON[keyword], limit });
      }
      case 'multipleOf': {
        const ratio = (data as number) / (value as number);
        return ratio === parseInt(String(ratio), 10) || fail('multipleOf', { multipleOf: value });
      }
      case 'maxLength': case 'minLength': {
        // code points, not UTF-16 units (ajv's ucs2length)
        const length = [...(data as string)].length;
        return (keyword === 'maxLength' ? length <= (value as number) : length >= (value as number)) || fail(keyword, { limit: value });
      }
      case 'pattern':
        return regExp(value as string).test(data as string) || fail('pattern', { pattern: value });
      case 'maxItems': case 'minItems': case 'maxProperties': case 'minProperties': {
        const count = Array.isArray(data) ? data.length : Object.keys(data as Obj).length;
        return (keyword.startsWith('max') ? count <= (value as number) : count >= (value as number)) || fail(keyword, { limit: value });
      }
      case 'items': {
        let valid = true;
        for (const [i, item] of (data as unknown[]).entries()) {
          if (validate(value as Schema, item, `${path}/${i}`, doc, run)) continue;
          valid = false;
          if (!run.all) return false;
        }
        return valid;
      }
      case 'required': {
        let valid = true;
        for (const name of value as string[]) {
          if ((data as Obj)[name] !== undefined) continue;
          valid = fail('required', { missingProperty: name });
          if (!run.all) return false;
        }
        return valid;
      }
      case 'properties': {
        let valid = true;
        for (const [name, sub] of Object.entries(value as Record<string, Schema>)) {
          const item = (data as Obj)[name];
          if (item === undefined || validate(sub, item, `${path}/${pointerPart(name)}`, doc, run)) continue;
          valid = false;
          if (!run.all) return false;
        }
        return valid;
      }
      case 'patternProperties': {
        let valid = true;
        for (const [pattern, sub] of Object.entries(value as Record<string, Schema>)) {
          for (const name in data as Obj) {
            if (!regExp(pattern).test(name) || validate(sub, (data as Obj)[name], `${path}/${pointerPart(name)}`, doc, run)) continue;
            valid = false;
            if (!run.all) return false;
          }
        }
        return valid;
      }
      case 'additionalProperties': {
        const declared = isObject(s.properties) ? s.properties : {};
        const patternsOf = isObject(s.patternProperties) ? Object.keys(s.patternProperties) : [];
        let valid = true;
        for (const name in data as Obj) {
          if (Object.prototype.hasOwnProperty.call(declared, name) || patternsOf.some((p) => regExp(p).test(name))) continue;
          const ok = value === false ? fail('additionalProperties', { additionalProperty: name }) : validate(value as Schema, (data as Obj)[name], `${path}/${pointerPart(name)}`, doc, run);
          if (ok) continue;
          valid = false;
          if (!run.all) return false;
        }
        return valid;
      }
      default:
        return true;
    }
  }

  const doc: Doc = { root: schema };
  check(schema, doc, '');
  const validator = ((data: unknown) => {
    const run: Run = { all: options.allErrors === true, errors: [] };
    const valid = validate(schema, data, '', doc, run);
    validator.errors = valid ? null : run.errors;
    return valid;
  }) as SchemaValidator;
  validator.errors = null;
  return validator;
}
