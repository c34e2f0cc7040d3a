/**
 * The check of one row: its cells read by the fields' types (convert.ts), then the entity schema's
 * rules for those fields (types, lengths, formats, ranges) with ajv and the forms' Polish messages
 * (runtime/core/validation-messages.ts), so an import says what the form would say.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { JsonSchemaObject } from '../../runtime/core/json-schema.ts';
import { fieldMessages, type Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle } from '../config/bundle.ts';
import { convertCell, EMPTY } from './convert.ts';
import { resolveFields, type ImportDecl, type ResolvedField } from '../config/import-declaration.ts';
import type { Cell } from './read-file.ts';

export interface RowError {
  column: string | null;
  message: string;
}

export interface CheckedRow {
  /** Values of the written fields: a blank "keep" cell is absent, a blank "clear" cell null. */
  data: Record<string, unknown>;
  errors: RowError[];
}

/**
 * What a row is checked against, as plain data: it crosses to the run's row thread
 * (rows-worker.ts), which compiles it there (compiledChecks).
 */
export interface CheckPlan {
  fields: ResolvedField[];
  schema: JsonSchemaObject;
}

export interface Compiled extends CheckPlan {
  validate: ValidateFunction;
}

const plans = new WeakMap<Bundle, Map<string, CheckPlan>>();

/** The fields of a declaration with their entity schema's rules (kept per bundle: a reload makes new ones). */
export function checkPlanFor(bundle: Bundle, decl: ImportDecl): CheckPlan {
  let byName = plans.get(bundle);
  if (!byName) plans.set(bundle, (byName = new Map()));
  let plan = byName.get(decl.import);
  if (!plan) {
    const fields = resolveFields(decl, bundle.schemas);
    const properties: Record<string, JsonSchemaObject> = {};
    for (const f of fields) if (f.property) properties[f.id] = withoutMomentFormat(stripMeta(f.property), f.type);
    const schema = { type: 'object', properties, required: fields.filter((f) => f.required && !f.reference).map((f) => f.id) };
    plan = { fields, schema };
    byName.set(decl.import, plan);
  }
  return plan;
}

export function compiledChecks(plan: CheckPlan): Compiled {
  const ajv = new Ajv2020({ strict: false, allErrors: true, coerceTypes: false });
  addFormats(ajv);
  return { ...plan, validate: ajv.compile(plan.schema) };
}

/** A moment is read and checked by its converter (a local "YYYY-MM-DD HH:MM:SS", no zone): the schema's RFC 3339 format would refuse it. */
function withoutMomentFormat(schema: JsonSchemaObject, type: string): JsonSchemaObject {
  if (type !== 'datetime' || schema.format !== 'date-time') return schema;
  const { format: _format, ...rest } = schema;
  return rest;
}

function stripMeta(schema: JsonSchemaObject): JsonSchemaObject {
  return Object.fromEntries(Object.entries(schema).filter(([k]) => !k.startsWith('x-') || k === 'x-messages' || k === '$comment'));
}

/**
 * Checks one row. `columnOf` maps each field to the file's heading (undefined: the field has no
 * column in this file). Reference fields are read (`$ref:<reference>:<field>`) and looked up later,
 * in the database, set-based.
 */
export function checkRow(c: Compiled, cells: Cell[], columnIndex: Map<string, number>, columnOf: Map<string, string>, t: Translate): CheckedRow {
  const data: Record<string, unknown> = {};
  const errors: RowError[] = [];
  const badFields = new Set<string>();
  for (const field of c.fields) {
    const index = columnIndex.get(field.id);
    if (index === undefined) continue;
    const converted = convertCell(cells[index] ?? null, field.type, field.upper);
    if ('error' in converted) {
      errors.push({ column: columnOf.get(field.id) ?? field.id, message: t(converted.error) });
      badFields.add(field.id);
      continue;
    }
    if (field.reference) {
      if (converted.value !== EMPTY) data[`$ref:${field.reference}:${field.id}`] = converted.value;
      continue;
    }
    if (converted.value === EMPTY) {
      if (field.required) continue; // the schema's "required" names it
      if (field.blank !== 'keep') data[field.id] = null;
      continue;
    }
    data[field.id] = converted.value;
  }
  const plain = Object.fromEntries(Object.entries(data).filter(([k]) => !k.startsWith('$ref:')));
  if (!c.validate(plain)) {
    for (const m of fieldMessages(c.validate.errors ?? [], t, c.schema)) {
      if (badFields.has(m.field)) continue;
      errors.push({ column: columnOf.get(m.field) ?? m.field, message: m.message });
    }
  }
  return { data, errors };
}
