/**
 * The JSON editor's findings, as CodeMirror lint diagnostics with Polish messages:
 * - the text is not JSON (where the parser stopped);
 * - the value breaks the meta-schema, checked while typing with ajv's draft 2020-12 class, the
 *   validator `npm run check` and the server's checks use (so both say the same);
 * - the server's problems (`{ pointer, message }`), marked at the place their pointer names.
 * Pure functions of the editor state: unit-tested without a browser.
 */
import type { Diagnostic } from '@codemirror/lint';
import type { EditorState } from '@codemirror/state';
import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { markRange, placeOfPointer, wholeTree } from './positions';

export type Translate = (key: string, vars?: Record<string, unknown>) => string;

export interface ServerProblem {
  pointer: string;
  message: string;
}

const NS = 'config-preview:editor';
const MAX_DIAGNOSTICS = 100;

const compiled = new WeakMap<object, ValidateFunction | null>();

/** The schema's validator (compiled once per schema object), or null when the schema does not compile. */
export function schemaValidator(schema: object | undefined): ValidateFunction | null {
  if (!schema) return null;
  if (compiled.has(schema)) return compiled.get(schema)!;
  let fn: ValidateFunction | null = null;
  try {
    const ajv = new Ajv2020({ allErrors: true, strict: false });
    // the meta-schemas' one format; the server's checks (ajv-formats) judge the exact rule
    ajv.addFormat('email', /^[^\s@]+@[^\s@]+\.[^\s@]+$/);
    fn = ajv.compile(schema);
  } catch {
    fn = null;
  }
  compiled.set(schema, fn);
  return fn;
}

/** Where the text stops being JSON, or nothing when it parses. */
export function syntaxDiagnostics(state: EditorState, t: Translate): Diagnostic[] {
  const text = state.doc.toString();
  try {
    JSON.parse(text);
    return [];
  } catch {
    let pos = -1;
    wholeTree(state).iterate({
      enter: (node) => {
        if (pos >= 0) return false;
        if (node.type.isError) pos = node.from;
        return undefined;
      },
    });
    if (pos < 0) pos = text.trim() === '' ? 0 : state.doc.length;
    const to = Math.min(state.doc.length, pos + 1);
    return [{ from: pos, to: Math.max(pos, to), severity: 'error', source: t(`${NS}.sourceSyntax`), message: t(`${NS}.syntax`) }];
  }
}

const escape = (token: string) => token.replace(/~/g, '~0').replace(/\//g, '~1');
const show = (value: unknown) => JSON.stringify(value);

function typeNames(type: unknown, t: Translate): string {
  const list = Array.isArray(type) ? type : String(type).split(',');
  return list.map((name) => t(`${NS}.types.${name}`, { defaultValue: name })).join(t(`${NS}.or`));
}

/** The message of one ajv error, and whether it concerns a property's name rather than its value. */
export function schemaMessage(error: ErrorObject, t: Translate): { pointer: string; message: string; onKey: boolean } {
  const p = error.params as Record<string, any>;
  const at = error.instancePath;
  const text = (key: string, vars: Record<string, unknown> = {}) => t(`${NS}.errors.${key}`, vars);
  switch (error.keyword) {
    case 'required':
      return { pointer: at, message: text('required', { property: p.missingProperty }), onKey: false };
    case 'additionalProperties':
      return { pointer: `${at}/${escape(String(p.additionalProperty))}`, message: text('additionalProperties', { property: p.additionalProperty }), onKey: true };
    case 'unevaluatedProperties':
      return { pointer: `${at}/${escape(String(p.unevaluatedProperty))}`, message: text('additionalProperties', { property: p.unevaluatedProperty }), onKey: true };
    case 'propertyNames':
      return { pointer: `${at}/${escape(String(p.propertyName))}`, message: text('propertyNames', { property: p.propertyName }), onKey: true };
    case 'false schema':
      return { pointer: at, message: text('false'), onKey: true };
    case 'type':
      return { pointer: at, message: text('type', { type: typeNames(p.type, t) }), onKey: false };
    case 'const':
      return { pointer: at, message: text('const', { value: show(p.allowedValue) }), onKey: false };
    case 'enum':
      return { pointer: at, message: text('enum', { values: (p.allowedValues as unknown[]).map(show).join(', ') }), onKey: false };
    case 'dependentRequired':
    case 'dependencies':
      return { pointer: at, message: text('dependentRequired', { property: p.property, missing: p.missingProperty }), onKey: false };
    case 'minLength': case 'maxLength': case 'minimum': case 'maximum': case 'exclusiveMinimum': case 'exclusiveMaximum':
    case 'minItems': case 'maxItems': case 'minProperties': case 'maxProperties': case 'multipleOf':
      return { pointer: at, message: text(error.keyword, { limit: p.limit ?? p.multipleOf }), onKey: false };
    case 'pattern':
      return { pointer: at, message: text('pattern', { pattern: p.pattern }), onKey: false };
    case 'format':
      return { pointer: at, message: text('format', { format: p.format }), onKey: false };
    case 'uniqueItems':
      return { pointer: at, message: text('uniqueItems', { i: Math.min(p.i, p.j), j: Math.max(p.i, p.j) }), onKey: false };
    case 'oneOf': case 'anyOf': case 'not':
      return { pointer: at, message: text(error.keyword), onKey: false };
    default:
      return { pointer: at, message: text('other', { message: error.message ?? error.keyword }), onKey: false };
  }
}

/**
 * The errors worth showing: not the `if` that only says a `then` failed, and not a `oneOf`/`anyOf`
 * summary when its branches' own errors say more (as the server's checks choose).
 */
function usefulErrors(errors: ErrorObject[]): ErrorObject[] {
  const withoutIf = errors.filter((e) => e.keyword !== 'if');
  const specific = withoutIf.filter((e) => e.keyword !== 'oneOf' && e.keyword !== 'anyOf');
  return specific.length ? specific : withoutIf;
}

/** Where the (parsable) text breaks the schema. */
export function schemaDiagnostics(state: EditorState, validate: ValidateFunction | null, t: Translate): Diagnostic[] {
  if (!validate) return [];
  let data: unknown;
  try {
    data = JSON.parse(state.doc.toString());
  } catch {
    return []; // the syntax finding says it all
  }
  if (validate(data)) return [];
  const seen = new Set<string>();
  const out: Diagnostic[] = [];
  for (const error of usefulErrors(validate.errors ?? [])) {
    const { pointer, message, onKey } = schemaMessage(error, t);
    const place = placeOfPointer(state, pointer);
    const range = place ? markRange(state, place, onKey) : { from: 0, to: 0 };
    const key = `${range.from}:${range.to}:${message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push({ ...range, severity: 'error', source: t(`${NS}.sourceSchema`), message });
    if (out.length >= MAX_DIAGNOSTICS) break;
  }
  return out;
}

/** The server's problems, each at its pointer's place (or the nearest place found, naming the pointer). */
export function problemDiagnostics(state: EditorState, problems: readonly ServerProblem[] | undefined, t: Translate): Diagnostic[] {
  if (!problems?.length) return [];
  return problems.map(({ pointer, message }) => {
    const place = placeOfPointer(state, pointer);
    const range = place ? markRange(state, place) : { from: 0, to: 0 };
    const exact = place?.exact ?? false;
    return {
      ...range,
      severity: 'error' as const,
      source: t(`${NS}.sourceServer`),
      message: exact ? message : t(`${NS}.problemAt`, { message, pointer: pointer || '/' }),
    };
  });
}
