/**
 * Import declarations (schemas/imports/*.json, meta-schema schemas/meta/import.schema.json): their
 * shape, the checks the configuration load adds to the meta-schema's (every field names a property
 * of the entity, every reference is declared), and what a declaration says about one field once the
 * entity schema is consulted (its type, its property schema for the row check, its label).
 */
import type { JsonSchemaObject } from '../../runtime/core/json-schema.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import { moreProblems } from './import-more-problems.ts';

export type FieldType = 'text' | 'integer' | 'decimal' | 'date' | 'datetime' | 'boolean';

export interface ImportFieldDecl {
  id: string;
  type?: FieldType;
  label?: string;
  required?: boolean;
  blank?: 'keep' | 'clear';
  aliases?: string[];
  reference?: string;
  upper?: boolean;
  /** For a reference field: the referenced table's column, when it is not the field's id. */
  column?: string;
  /** The cell feeds the child rows of this name (children.ts), not a column of the table. */
  child?: string;
}

export interface ReferenceDecl {
  table: string;
  id: string;
  into: string;
  client?: string;
  required?: boolean;
  message?: string;
  /** When no field of this reference is given: the column of another reference's record (a transaction's vehicle: its card's). */
  from?: { reference: string; column: string; client?: string };
}

export interface ImportDecl {
  import: string;
  label?: string;
  entity: string;
  labels?: string;
  /** A screen whose sections group the fields (for labels that would be ambiguous). */
  sections?: string;
  /** Computed at load from `sections`: the section label key of each field in one (not declared). */
  groups?: Record<string, string>;
  table: string;
  id?: string;
  key: string[];
  client?: string;
  clientVia?: { reference: string };
  insertOnly?: boolean;
  rules?: ('readingNotFuture' | 'readingNotBelowLast')[];
  after?: ('vehicleOdometer' | 'fuelAnomalies' | FollowUp)[];
  checks?: FieldCheck[];
  tree?: { reference: string; level: string; maxLevel?: number; message?: string };
  children?: Record<string, ChildrenDecl>;
  files?: FilesDecl;
  references?: Record<string, ReferenceDecl>;
  fields: ImportFieldDecl[];
  /** `confirmShare`: above this share of the clients' active rows, deactivating asks for the number typed (issue 49). */
  missing?: { deactivate?: { set: Record<string, string | number | boolean | null>; confirmShare?: number } };
  /** The audit trail resource the written records belong to (issue 45, trail.ts); default: the import's name. */
  trail?: { resource: string };
}

export type FollowUp = 'vehicleDriver' | 'vehicleContract' | 'vehicleFuelCard' | 'employeeLevels';

/** A check between two fields of a row, or over the rows of one record (checks.ts). */
export interface FieldCheck {
  field: string;
  atLeast?: string;
  oneOpenPer?: string;
  message: string;
}

/** Child rows a row carries (children.ts): a contract's positions. */
export interface ChildrenDecl {
  table: string;
  parent: string;
  match: string[];
  rows: { set: Record<string, string | number | boolean>; columns: Record<string, string>; defaults?: Record<string, string | number | boolean> }[];
}

/** An import of files instead of rows (files.ts): an invoice's PDFs, by its number. */
export interface FilesDecl {
  parent: { table: string; id: string; number: string; client?: string };
  into: { parent: string; kind: string; name: string; mime?: string; content: string };
  mime?: string;
  magic?: string;
  nameOf?: Record<string, string>;
  kinds: { kind: string; pattern: string }[];
}

type Schemas = Record<string, JsonSchemaObject>;

/** Problems the meta-schema cannot see: fields and keys that the entity does not have, references not declared. */
export function importProblems(decl: ImportDecl, schemas: Schemas): { pointer: string; reason: string }[] {
  const problems: { pointer: string; reason: string }[] = [];
  const entity = schemas[decl.entity];
  if (!entity) return [{ pointer: '/entity', reason: `no entity schema "${decl.entity}"` }];
  const refs = decl.references ?? {};
  if (decl.files) return moreProblems(decl);
  decl.fields.forEach((field, i) => {
    if (field.reference) {
      if (!refs[field.reference]) problems.push({ pointer: `/fields/${i}/reference`, reason: `no reference "${field.reference}" in /references` });
    } else if (!entity.properties?.[field.id]) {
      problems.push({ pointer: `/fields/${i}/id`, reason: `"${field.id}" is not a property of entity ${decl.entity}` });
    }
  });
  const written = new Set([...decl.fields.filter((f) => !f.reference).map((f) => f.id), ...Object.values(refs).map((r) => r.into)]);
  decl.key.forEach((k, i) => {
    if (!written.has(k)) problems.push({ pointer: `/key/${i}`, reason: `key column "${k}" is neither a field nor a reference's target` });
  });
  for (const [name, ref] of Object.entries(refs)) {
    if (!decl.fields.some((f) => f.reference === name)) problems.push({ pointer: `/references/${name}`, reason: 'no field finds this reference' });
    if (ref.into === decl.client && ref.client) problems.push({ pointer: `/references/${name}/client`, reason: 'the client reference is itself the client' });
  }
  for (const [name, ref] of Object.entries(refs)) {
    if (ref.from && !refs[ref.from.reference]) problems.push({ pointer: `/references/${name}/from/reference`, reason: `no reference "${ref.from.reference}" in /references` });
  }
  if (decl.clientVia && !refs[decl.clientVia.reference]?.client) problems.push({ pointer: '/clientVia/reference', reason: 'must name a reference with a client column' });
  problems.push(...moreProblems(decl));
  return problems;
}

/** One field as the engine uses it: its declaration, its type and the entity's property schema. */
export interface ResolvedField extends ImportFieldDecl {
  type: FieldType;
  /** The entity's schema of the property (types, lengths, formats: the forms' checks); none for a reference field. */
  property?: JsonSchemaObject;
}

function typeOf(property: JsonSchemaObject | undefined): FieldType {
  const types = ([] as unknown[]).concat(property?.type ?? 'string');
  if (types.includes('integer')) return 'integer';
  if (types.includes('number')) return 'decimal';
  if (types.includes('boolean')) return 'boolean';
  if (property?.format === 'date') return 'date';
  if (property?.format === 'date-time') return 'datetime';
  return 'text';
}

export function resolveFields(decl: ImportDecl, schemas: Schemas): ResolvedField[] {
  const entity = schemas[decl.entity];
  return decl.fields.map((field) => {
    const property = field.reference ? undefined : entity?.properties?.[field.id];
    return { ...field, type: field.type ?? typeOf(property), property };
  });
}

/** The field's own label: its declared one, else the forms' `<labels>:fields.<id>`. */
function ownLabel(decl: ImportDecl, field: ImportFieldDecl, t: Translate): string {
  return t(field.label ?? `${decl.labels ?? decl.entity}:fields.${field.id}`);
}

/**
 * How the portal names a field: its own label, prefixed with its section's ("OC – Polisa") when
 * another field of the import has the same label (the insurance blocks' "Polisa", "Data do").
 */
export function fieldLabel(decl: ImportDecl, field: ImportFieldDecl, t: Translate): string {
  const own = ownLabel(decl, field, t);
  const group = decl.groups?.[field.id];
  if (!group || !decl.fields.some((f) => f.id !== field.id && ownLabel(decl, f, t) === own)) return own;
  return `${t(group)} – ${own}`;
}

/** The section label key of every field that a section of the screen shows (`sections` of a details screen, at any depth). */
export function sectionGroups(screen: unknown): Record<string, string> {
  const groups: Record<string, string> = {};
  const walk = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(walk);
    if (!node || typeof node !== 'object') return;
    const o = node as Record<string, unknown>;
    if (typeof o.label === 'string' && Array.isArray(o.fields)) {
      for (const f of o.fields) {
        const id = typeof f === 'string' ? f : (f as { id?: unknown })?.id;
        if (typeof id === 'string' && !groups[id]) groups[id] = o.label;
      }
    }
    Object.values(o).forEach(walk);
  };
  walk(screen);
  return groups;
}

/** Fields of one import that the mapping would name alike: each such label with the fields' pointers. */
export function ambiguousLabels(decl: ImportDecl, t: Translate): { pointer: string; reason: string }[] {
  const byLabel = new Map<string, number[]>();
  decl.fields.forEach((f, i) => {
    const label = fieldLabel(decl, f, t);
    byLabel.set(label, [...(byLabel.get(label) ?? []), i]);
  });
  return [...byLabel].filter(([, at]) => at.length > 1).map(([label, at]) => ({
    pointer: `/fields/${at[1]}`,
    reason: `fields ${at.map((i) => decl.fields[i].id).join(', ')} are all named "${label}" in the mapping: give one a label, or name a screen whose sections group them in /sections`,
  }));
}

/** The columns the import writes (fields that are not references, and each reference's target). */
export function writtenColumns(decl: ImportDecl): string[] {
  const columns = decl.fields.filter((f) => !f.reference && !f.child).map((f) => f.id);
  for (const ref of Object.values(decl.references ?? {})) if (!columns.includes(ref.into)) columns.push(ref.into);
  // a tree's level is computed (tree.ts), not read
  if (decl.tree && !columns.includes(decl.tree.level)) columns.push(decl.tree.level);
  return columns;
}

/** Normalised heading for matching a file's column with a field or alias: case, spaces and accents do not matter. */
export function headingKey(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ł/g, 'l').replace(/Ł/g, 'L').toLowerCase().replace(/[^a-z0-9]+/g, '');
}

/** The field each column of a file most likely means (its id, label or an alias), or null. */
export function suggestMapping(decl: ImportDecl, columns: string[], t: Translate): Record<string, string | null> {
  const byKey = new Map<string, string>();
  for (const field of decl.fields) {
    for (const name of [field.id, fieldLabel(decl, field, t), ...(field.aliases ?? [])]) {
      const key = headingKey(name);
      if (key && !byKey.has(key)) byKey.set(key, field.id);
    }
  }
  const used = new Set<string>();
  const out: Record<string, string | null> = {};
  for (const column of columns) {
    const field = byKey.get(headingKey(column));
    out[column] = field && !used.has(field) ? field : null;
    if (field) used.add(field);
  }
  return out;
}
