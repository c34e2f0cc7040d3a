/**
 * A form, form dialog or wizard as the forms tab shows it: its steps (a wizard's) and fields, each
 * with its place in the screen document (hiddenWhen) and, where the field is sent, its place in
 * the form's request schema (required, maxLength, x-messages).
 *
 * How a field maps to the schema (schemas/meta/wizard.schema.json, form.schema.json):
 * - a form or form dialog: the field's id is a property of the request schema;
 * - a wizard's fields step: a property of `properties.<record>` (`record`, e.g. order), or of the
 *   request itself with `recordIsRequest`;
 * - a wizard's list step: a property of the items of `properties.<list.path>` (a list with its own
 *   `itemSchema` is checked by another schema: its fields' schema places are not edited here).
 * Messages are read as runtime/core/validation-messages.ts reads them: the property's
 * `x-messages.required` names the text shown when the field is left empty.
 */
import { pointer } from './pointers';

export interface FieldPlace {
  /** The field's id. */
  id: string;
  /** The label's i18n key (the field's own, else <namespace>:fields.<id>). */
  labelKey: string;
  /** Pointer of the field in the screen document. */
  screenPointer: string;
  /** Pointer of the object schema holding the property (its `required`), or null when the field is not sent. */
  parentPointer: string | null;
  /** Pointer of the property's schema, or null. */
  propertyPointer: string | null;
}

export interface StepPlace {
  id: string;
  labelKey: string;
  screenPointer: string;
  kind: string;
  fields: FieldPlace[];
}

export interface FormModel {
  /** A wizard's steps; a form's fields form one step without a pointer of its own. */
  steps: StepPlace[];
  isWizard: boolean;
}

const namespaceOf = (key: string | undefined) => (key && key.includes(':') ? key.slice(0, key.indexOf(':')) : undefined);

/** The schema of a property, following the object's `properties` only (the request schemas are written inline). */
function propertyAt(schema: any, parentPointer: string, id: string): boolean {
  const node = objectAt(schema, parentPointer);
  return Boolean(node && typeof node === 'object' && node.properties && typeof node.properties === 'object' && id in node.properties);
}

export function formModel(screen: any, schema: any | null): FormModel {
  const labels: string = screen.labels ?? namespaceOf(screen.title) ?? 'app';
  const field = (f: any, screenPointer: string, parentPointer: string | null): FieldPlace => {
    const sent = parentPointer !== null && schema && !f.formOnly && propertyAt(schema, parentPointer, f.id);
    return {
      id: f.id,
      labelKey: f.label ?? `${labels}:fields.${f.id}`,
      screenPointer,
      parentPointer: sent ? parentPointer : null,
      propertyPointer: sent ? `${parentPointer}${pointer('properties', f.id)}` : null,
    };
  };

  if (screen.type !== 'wizard') {
    const fields = (screen.fields ?? []).map((f: any, i: number) => field(f, pointer('fields', i), ''));
    return { isWizard: false, steps: [{ id: '', labelKey: screen.title, screenPointer: '', kind: 'fields', fields }] };
  }
  const recordPointer = screen.recordIsRequest || !screen.record ? '' : pointer('properties', screen.record);
  const steps: StepPlace[] = (screen.steps ?? []).map((step: any, i: number) => {
    const stepPointer = pointer('steps', i);
    let fields: FieldPlace[] = [];
    if (step.kind === 'fields') fields = (step.fields ?? []).map((f: any, j: number) => field(f, `${stepPointer}${pointer('fields', j)}`, recordPointer));
    if (step.kind === 'list' && step.list) {
      const parent = step.list.itemSchema ? null : `${pointer('properties', ...String(step.list.path).split('.'))}/items`;
      const listLabels = step.list.labels ?? labels;
      fields = (step.list.fields ?? []).map((f: any, j: number) => ({
        ...field(f, `${stepPointer}${pointer('list', 'fields', j)}`, parent),
        labelKey: f.label ?? `${listLabels}:fields.${f.id}`,
      }));
    }
    return { id: step.id, labelKey: step.label, screenPointer: stepPointer, kind: step.kind, fields };
  });
  return { isWizard: true, steps };
}

/** The object at a pointer of a document (created along the way when `create`). */
export function objectAt(doc: any, ptr: string, create = false): any {
  let node = doc;
  for (const token of ptr.split('/').filter(Boolean).map((t) => t.replace(/~1/g, '/').replace(/~0/g, '~'))) {
    if (node[token] === undefined && create) node[token] = {};
    node = node[token];
    if (node === undefined || node === null) return undefined;
  }
  return node;
}

/** Whether the field is in its parent's `required`. */
export function isRequired(schema: any, place: FieldPlace): boolean {
  if (place.parentPointer === null) return false;
  const parent = objectAt(schema, place.parentPointer);
  return Array.isArray(parent?.required) && parent.required.includes(place.id);
}

/** Adds the field to (or takes it from) its parent's `required`, in place. */
export function setRequired(schema: any, place: FieldPlace, required: boolean): void {
  if (place.parentPointer === null) return;
  const parent = objectAt(schema, place.parentPointer);
  if (!parent) return;
  const list: string[] = Array.isArray(parent.required) ? parent.required : [];
  if (required && !list.includes(place.id)) parent.required = [...list, place.id];
  if (!required && list.includes(place.id)) {
    const rest = list.filter((id) => id !== place.id);
    if (rest.length) parent.required = rest;
    else delete parent.required;
  }
}

/** The property's maxLength, when it is a text (a string type, possibly nullable). */
export function isText(property: any): boolean {
  const type = property?.type;
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}

export function setMaxLength(schema: any, place: FieldPlace, maxLength: number | null): void {
  const property = place.propertyPointer ? objectAt(schema, place.propertyPointer) : undefined;
  if (!property) return;
  if (maxLength === null) delete property.maxLength;
  else property.maxLength = maxLength;
}

/** The i18n key of the required-field message the property names, if any. */
export function requiredMessageKey(schema: any, place: FieldPlace): string | undefined {
  const property = place.propertyPointer ? objectAt(schema, place.propertyPointer) : undefined;
  const key = property?.['x-messages']?.required;
  return typeof key === 'string' ? key : undefined;
}

/**
 * Names the message shown when the field is left empty (null: the default again). Empty means
 * more than the `required` keyword: a text with `minLength: 1`, and any keyword the schema already
 * sends to the required-field message (a `pattern` of "\\S"), take the same message.
 */
export function setRequiredMessageKey(schema: any, place: FieldPlace, key: string | null): void {
  const property = place.propertyPointer ? objectAt(schema, place.propertyPointer) : undefined;
  if (!property) return;
  const old = requiredMessageKey(schema, place) ?? 'validation:required';
  const messages: Record<string, string> = { ...(property['x-messages'] ?? {}) };
  const keywords = new Set(['required']);
  if (property.minLength === 1) keywords.add('minLength');
  for (const [keyword, k] of Object.entries(messages)) if (k === old || k === 'validation:required') keywords.add(keyword);
  for (const keyword of keywords) {
    if (key) messages[keyword] = key;
    else if (keyword === 'required' || keyword === 'minLength') delete messages[keyword];
    else messages[keyword] = 'validation:required';
  }
  if (Object.keys(messages).length) property['x-messages'] = messages;
  else delete property['x-messages'];
}

/** The key a new required-field message of a field is written under, in the studio's own namespace. */
export const newMessageKey = (namespace: string, screenId: string, fieldId: string) => `${namespace}:messages.${screenId}.${fieldId}`;

/** Writes a text under a key (`ns:a.b.c` → doc.a.b.c) of a locale document, in place. */
export function setText(localeDoc: Record<string, any>, key: string, text: string): void {
  const path = key.slice(key.indexOf(':') + 1).split('.');
  let node = localeDoc;
  for (const part of path.slice(0, -1)) {
    if (typeof node[part] !== 'object' || node[part] === null) node[part] = {};
    node = node[part];
  }
  node[path[path.length - 1]] = text;
}

/** The text under a key of a locale document, or undefined. */
export function textIn(localeDoc: unknown, key: string): string | undefined {
  let node: any = localeDoc;
  for (const part of key.slice(key.indexOf(':') + 1).split('.')) {
    if (typeof node !== 'object' || node === null) return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}
