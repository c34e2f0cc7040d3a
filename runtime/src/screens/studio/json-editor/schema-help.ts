/**
 * Completion and hover from the document's JSON Schema (draft 2020-12, references local: see
 * ./bundle-schema): at the cursor, what the schema allows there — the properties an object may
 * still take, the values a place may hold — and, over a property, its description and type.
 * The schema is walked along the cursor's JSON pointer through `$ref`, `allOf`, `anyOf`/`oneOf`
 * (the alternatives the text does not already exclude) and `if`/`then`/`else` (decided on the
 * text typed so far, read from the syntax tree even when it is not valid JSON yet).
 * Pure functions of the editor state: unit-tested without a browser.
 */
import { snippetCompletion, type Completion, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import type { EditorState } from '@codemirror/state';
import type { SyntaxNode } from '@lezer/common';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import { pointerTokens, wholeTree } from './positions';

type Schema = Record<string, any>;
type Translate = (key: string, vars?: Record<string, unknown>) => string;

const NS = 'config-preview:editor';
const VALUE_NODES = new Set(['Object', 'Array', 'String', 'Number', 'True', 'False', 'Null']);
const isSchema = (s: unknown): s is Schema => typeof s === 'object' && s !== null && !Array.isArray(s);

/* ---------- the schema ---------- */

function resolveRef(root: Schema, ref: string): Schema | undefined {
  if (!ref.startsWith('#')) return undefined;
  let node: unknown = root;
  for (const token of pointerTokens(ref)) node = isSchema(node) || Array.isArray(node) ? (node as any)[token] : undefined;
  return isSchema(node) ? node : undefined;
}

const ifValidators = new WeakMap<object, ValidateFunction | null>();
let ajv: Ajv2020 | undefined;

/** Whether `value` meets an `if` schema; undefined when that cannot be told (no value, or an `if` that does not compile alone). */
function meetsIf(condition: unknown, value: unknown): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof condition === 'boolean') return condition;
  if (!isSchema(condition)) return undefined;
  if (!ifValidators.has(condition)) {
    try {
      ajv ??= new Ajv2020({ strict: false, validateFormats: false });
      ifValidators.set(condition, ajv.compile(condition));
    } catch {
      ifValidators.set(condition, null);
    }
  }
  const fn = ifValidators.get(condition);
  return fn ? fn(value) === true : undefined;
}

/** Whether an alternative is already ruled out by a value its `const`/`enum` properties contradict. */
function excluded(root: Schema, alternative: Schema, value: unknown): boolean {
  const s = alternative.$ref ? resolveRef(root, alternative.$ref) ?? alternative : alternative;
  if (!isSchema(value) || !isSchema(s.properties)) return false;
  for (const [name, prop] of Object.entries(s.properties as Record<string, unknown>)) {
    if (!isSchema(prop) || !(name in value)) continue;
    if ('const' in prop && JSON.stringify(prop.const) !== JSON.stringify(value[name])) return true;
    if (Array.isArray(prop.enum) && !prop.enum.some((v: unknown) => JSON.stringify(v) === JSON.stringify(value[name]))) return true;
  }
  return false;
}

/** The schema and every schema that applies with it to `value` (flattened through $ref, allOf, anyOf/oneOf, if/then/else). */
export function expand(root: Schema, schema: unknown, value: unknown, out: Schema[] = [], seen = new Set<object>()): Schema[] {
  if (!isSchema(schema) || seen.has(schema)) return out;
  seen.add(schema);
  out.push(schema);
  if (typeof schema.$ref === 'string') expand(root, resolveRef(root, schema.$ref), value, out, seen);
  for (const part of Array.isArray(schema.allOf) ? schema.allOf : []) expand(root, part, value, out, seen);
  for (const key of ['anyOf', 'oneOf'] as const) {
    const alternatives = Array.isArray(schema[key]) ? (schema[key] as unknown[]).filter(isSchema) : [];
    for (const alternative of alternatives) if (!excluded(root, alternative, value)) expand(root, alternative, value, out, seen);
  }
  if (schema.if !== undefined) {
    const met = meetsIf(schema.if, value);
    if (met !== false && schema.then !== undefined) expand(root, schema.then, value, out, seen);
    if (met !== true && schema.else !== undefined) expand(root, schema.else, value, out, seen);
  }
  return out;
}

/** The schemas of a child (a property name or an array index) of a place described by `schemas`. */
function childSchemas(schemas: Schema[], token: string): Schema[] {
  const out: Schema[] = [];
  for (const s of schemas) {
    if (isSchema(s.properties) && token in s.properties) out.push(s.properties[token]);
    else if (isSchema(s.patternProperties)) {
      for (const [pattern, p] of Object.entries(s.patternProperties)) if (new RegExp(pattern, 'u').test(token)) out.push(p as Schema);
    }
    if (isSchema(s.additionalProperties) && !(isSchema(s.properties) && token in s.properties)) out.push(s.additionalProperties);
    if (/^\d+$/.test(token)) {
      const index = Number(token);
      if (Array.isArray(s.prefixItems) && index < s.prefixItems.length) out.push(s.prefixItems[index]);
      else if (isSchema(s.items)) out.push(s.items);
    }
  }
  return out.filter(isSchema);
}

/** Every schema that applies at a pointer of `document` (the value typed so far). */
export function schemasAt(root: Schema, pointer: string, document: unknown): Schema[] {
  let value: unknown = document;
  let schemas = expand(root, root, value);
  for (const token of pointerTokens(pointer)) {
    value = isSchema(value) || Array.isArray(value) ? (value as any)[token] : undefined;
    schemas = childSchemas(schemas, token).flatMap((s) => expand(root, s, value));
  }
  return schemas;
}

/* ---------- the text ---------- */

/** The value of a syntax node, as far as it is typed (incomplete parts left out). */
export function nodeValue(state: EditorState, node: SyntaxNode): unknown {
  const text = () => state.doc.sliceString(node.from, node.to);
  switch (node.name) {
    case 'Object': {
      const out: Record<string, unknown> = {};
      for (let p = node.firstChild; p; p = p.nextSibling) {
        if (p.name !== 'Property') continue;
        const name = p.getChild('PropertyName');
        const v = valueChild(p);
        if (name) out[stringText(state, name)] = v ? nodeValue(state, v) : undefined;
      }
      return out;
    }
    case 'Array': {
      const out: unknown[] = [];
      for (let c = node.firstChild; c; c = c.nextSibling) if (VALUE_NODES.has(c.name)) out.push(nodeValue(state, c));
      return out;
    }
    case 'String': return stringText(state, node);
    case 'Number': return Number(text());
    case 'True': return true;
    case 'False': return false;
    case 'Null': return null;
    default: return undefined;
  }
}

function stringText(state: EditorState, node: SyntaxNode): string {
  const raw = state.doc.sliceString(node.from, node.to);
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.replace(/^"/, '').replace(/"$/, '');
  }
}

function valueChild(node: SyntaxNode): SyntaxNode | undefined {
  for (let c = node.firstChild; c; c = c.nextSibling) if (VALUE_NODES.has(c.name)) return c;
  return undefined;
}

/** The JSON pointer of a value node. */
export function pointerOfNode(state: EditorState, node: SyntaxNode): string {
  const tokens: string[] = [];
  for (let n: SyntaxNode | null = node; n?.parent; n = n.parent) {
    const parent: SyntaxNode = n.parent;
    if (parent.name === 'Property') {
      const name = parent.getChild('PropertyName');
      if (name) tokens.unshift(stringText(state, name));
    } else if (parent.name === 'Array' && VALUE_NODES.has(n.name)) {
      let index = 0;
      for (let c = parent.firstChild; c && c.from < n.from; c = c.nextSibling) if (VALUE_NODES.has(c.name)) index++;
      tokens.unshift(String(index));
    }
  }
  return tokens.map((t) => `/${t.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('');
}

export interface CursorPlace {
  /** 'key': a property name is being typed; 'value': a value. */
  mode: 'key' | 'value';
  /** The pointer of the object whose key is typed, or of the value typed. */
  pointer: string;
  /** The range the chosen completion replaces. */
  from: number;
  to: number;
  /** Key mode: the property already has its colon and value (only the name is replaced). */
  hasValue: boolean;
  /** Key mode: the names the object already has. */
  taken: string[];
  /** The whole document's value as typed so far. */
  document: unknown;
}

/** What is being typed at `pos`: a key of which object, or the value of which place. */
export function cursorPlace(state: EditorState, pos: number): CursorPlace | null {
  const tree = wholeTree(state);
  const top = valueChild(tree.topNode);
  const document = top ? nodeValue(state, top) : undefined;
  let node: SyntaxNode | null = tree.resolveInner(pos, -1);
  let from = pos;
  let to = pos;
  const word = node && (node.name === 'String' || node.name === 'PropertyName' || node.type.isError) && node.from < pos;
  if (word && node) {
    from = node.from;
    to = Math.max(pos, node.to);
    const text = state.doc.sliceString(node.from, node.to);
    // an error node may swallow more than the word being typed: keep to the word
    const end = text.search(/[\s,:{}[\]]/);
    if (node.type.isError && end > 0) to = Math.max(pos, node.from + end);
  }
  if (node?.name === 'PropertyName') {
    const property = node.parent!;
    const object = property.parent!;
    const taken = Object.keys((nodeValue(state, object) as object) ?? {}).filter((k) => k !== stringText(state, node!));
    return { mode: 'key', pointer: pointerOfNode(state, object), from, to, hasValue: !!property.getChild(':'), taken, document };
  }
  if (node && node.name === 'String' && node.from < pos) return { mode: 'value', pointer: pointerOfNode(state, node), from, to, hasValue: false, taken: [], document };
  // the container: the innermost object or array around the cursor (or the property whose value it is)
  while (node && !['Object', 'Array', 'Property'].includes(node.name)) node = node.parent;
  if (!node) return null;
  let before = from - 1;
  while (before >= 0 && /\s/.test(state.doc.sliceString(before, before + 1))) before--;
  const prev = before >= 0 ? state.doc.sliceString(before, before + 1) : '';
  if (node.name === 'Property') {
    if (prev !== ':') node = node.parent!;
    else {
      const name = node.getChild('PropertyName');
      const object = node.parent!;
      return { mode: 'value', pointer: `${pointerOfNode(state, object)}/${(name ? stringText(state, name) : '').replace(/~/g, '~0').replace(/\//g, '~1')}`, from, to, hasValue: false, taken: [], document };
    }
  }
  if (node.name === 'Array') {
    let index = 0;
    for (let c = node.firstChild; c && c.to <= from; c = c.nextSibling) if (VALUE_NODES.has(c.name)) index++;
    return { mode: 'value', pointer: `${pointerOfNode(state, node)}/${index}`, from, to, hasValue: false, taken: [], document };
  }
  if (prev === ':') {
    // `"name": |` inside an object whose property the parser closed early
    let property: SyntaxNode | null = null;
    for (let c = node.firstChild; c && c.from < from; c = c.nextSibling) if (c.name === 'Property') property = c;
    const name = property?.getChild('PropertyName');
    if (name) return { mode: 'value', pointer: `${pointerOfNode(state, node)}/${stringText(state, name)}`, from, to, hasValue: false, taken: [], document };
  }
  const taken = Object.keys((nodeValue(state, node) as object) ?? {});
  return { mode: 'key', pointer: pointerOfNode(state, node), from, to, hasValue: false, taken, document };
}

/* ---------- completion and hover ---------- */

function typesOf(schemas: Schema[]): string[] {
  const types = new Set<string>();
  for (const s of schemas) {
    if (typeof s.type === 'string') types.add(s.type);
    if (Array.isArray(s.type)) s.type.forEach((t: string) => types.add(t));
    if ('const' in s) types.add(s.const === null ? 'null' : Array.isArray(s.const) ? 'array' : typeof s.const);
    if (isSchema(s.properties)) types.add('object');
  }
  return [...types];
}

const description = (schemas: Schema[]) => schemas.map((s) => s.description).find((d): d is string => typeof d === 'string');

/** What a value may be, as JSON texts: its const and enum values, its defaults and examples, booleans and null by type, `{}`/`[]`. */
export function valueChoices(schemas: Schema[]): string[] {
  const out = new Set<string>();
  for (const s of schemas) {
    if ('const' in s) out.add(JSON.stringify(s.const));
    if (Array.isArray(s.enum)) s.enum.forEach((v: unknown) => out.add(JSON.stringify(v)));
    if ('default' in s) out.add(JSON.stringify(s.default));
    if (Array.isArray(s.examples)) s.examples.forEach((v: unknown) => out.add(JSON.stringify(v)));
  }
  const types = typesOf(schemas);
  if (types.includes('boolean')) ['true', 'false'].forEach((v) => out.add(v));
  if (types.includes('null')) out.add('null');
  if (types.includes('object') && !out.size) out.add('{}');
  if (types.includes('array') && !out.size) out.add('[]');
  return [...out];
}

/** The text inserted after a chosen property name: a value to start from, the cursor where typing goes on. */
function valueTemplate(schemas: Schema[]): string {
  const choices = valueChoices(schemas);
  const consts = schemas.filter((s) => 'const' in s);
  if (consts.length) return JSON.stringify(consts[0].const);
  const types = typesOf(schemas);
  if (types.length === 1 && types[0] === 'object') return '{${}}';
  if (types.length === 1 && types[0] === 'array') return '[${}]';
  if (types.length === 1 && types[0] === 'string' && !choices.length) return '"${}"';
  return '${}';
}

const typeLabel = (schemas: Schema[], t: Translate) => typesOf(schemas).map((name) => t(`${NS}.types.${name}`, { defaultValue: name })).join(t(`${NS}.or`));

/** The completions at the cursor. */
export function completionsAt(state: EditorState, pos: number, root: Schema | undefined, t: Translate): { from: number; to: number; options: Completion[] } | null {
  if (!root) return null;
  const place = cursorPlace(state, pos);
  if (!place) return null;
  const schemas = schemasAt(root, place.pointer, place.document);
  if (place.mode === 'value') {
    const options = valueChoices(schemas).map((label) => ({ label, type: 'constant' }));
    return options.length ? { from: place.from, to: place.to, options } : null;
  }
  const properties = new Map<string, Schema[]>();
  for (const s of schemas) {
    for (const [name, p] of Object.entries(isSchema(s.properties) ? s.properties : {})) {
      if (name === '$schema' || place.taken.includes(name) || !isSchema(p)) continue;
      properties.set(name, [...(properties.get(name) ?? []), p]);
    }
  }
  const required = new Set(schemas.flatMap((s) => (Array.isArray(s.required) ? s.required : [])));
  const options = [...properties].map(([name, own]) => {
    const expanded = own.flatMap((p) => expand(root, p, undefined));
    const info = description(expanded);
    const base = { label: JSON.stringify(name), displayLabel: name, detail: typeLabel(expanded, t), type: 'property', boost: required.has(name) ? 1 : 0, ...(info ? { info } : {}) };
    return place.hasValue ? base : snippetCompletion(`${JSON.stringify(name)}: ${valueTemplate(expanded)}`, base);
  });
  return options.length ? { from: place.from, to: place.to, options } : null;
}

/** A completion source for CodeMirror, reading the schema given by `schemaOf`. */
export function schemaCompletionSource(schemaOf: (state: EditorState) => Schema | undefined, t: Translate) {
  return (context: CompletionContext): CompletionResult | null => {
    const found = completionsAt(context.state, context.pos, schemaOf(context.state), t);
    if (!found) return null;
    // typing goes on filtering the same list while the word lasts
    return { ...found, validFor: /^"?[^"\s,:{}[\]]*"?$/ };
  };
}

/** What the hover over `pos` says: the description of the property or value there, its type and allowed values. */
export function hoverAt(state: EditorState, pos: number, root: Schema | undefined, t: Translate): { text: string; details: string; from: number; to: number } | null {
  if (!root) return null;
  const node = wholeTree(state).resolveInner(pos, 1);
  let target: SyntaxNode | undefined;
  if (node.name === 'PropertyName') target = valueChild(node.parent!) ?? undefined;
  else if (VALUE_NODES.has(node.name) && node.name !== 'Object' && node.name !== 'Array') target = node;
  if (!target) return null;
  const pointer = pointerOfNode(state, target);
  const top = valueChild(wholeTree(state).topNode);
  const schemas = schemasAt(root, pointer, top ? nodeValue(state, top) : undefined);
  if (!schemas.length) return null;
  const lines: string[] = [];
  const types = typeLabel(schemas, t);
  if (types) lines.push(t(`${NS}.hover.type`, { type: types }));
  const allowed = schemas.flatMap((s) => ('const' in s ? [s.const] : Array.isArray(s.enum) ? s.enum : []));
  if (allowed.length) lines.push(t(`${NS}.hover.values`, { values: [...new Set(allowed.map((v) => JSON.stringify(v)))].join(', ') }));
  const pattern = schemas.find((s) => typeof s.pattern === 'string')?.pattern;
  if (pattern) lines.push(t(`${NS}.hover.pattern`, { pattern }));
  const format = schemas.find((s) => typeof s.format === 'string')?.format;
  if (format) lines.push(t(`${NS}.hover.format`, { format }));
  return { text: description(schemas) ?? '', details: lines.join('\n'), from: node.from, to: node.to };
}
