/**
 * The pure half of the light form (LightForm.tsx): the form of the login page, drawn without the
 * form library so that the first page a user sees loads quickly (issue 11: no form library on the
 * login page). It reads the same screen `fields` and request schema as every @rjsf form and gives
 * the same Polish messages (runtime/core/validation-messages.ts, shared with the server's 400s).
 *
 * Validation is the small evaluator of the conditions (core/json-schema.ts), which gives ajv's
 * errors in ajv's order for the keywords a request schema uses: ajv's compiler was ~40 KB of the
 * login page's JavaScript (issue 33). The @rjsf forms after sign-in keep ajv.
 */
import { compileSchema, type SchemaValidator } from '../../core/json-schema';
import { fieldMessages, type Translate } from '../../core/validation-messages';

type Data = Record<string, unknown>;
export interface ObjectSchema {
  type?: unknown;
  properties?: Record<string, Record<string, unknown>>;
  required?: string[];
  [key: string]: unknown;
}

const compiled = new WeakMap<object, SchemaValidator>();

/** The schema's validator, compiled once per schema object. */
export function validatorFor(schema: ObjectSchema): SchemaValidator {
  let validate = compiled.get(schema);
  if (!validate) {
    // allErrors: every field gets its message at once, as on the @rjsf forms
    validate = compileSchema(schema, { allErrors: true });
    compiled.set(schema, validate);
  }
  return validate;
}

/** The form's first data: each property's schema `default` (the login choice starts on USER). */
export function initialData(schema: ObjectSchema): Data {
  const data: Data = {};
  for (const [id, property] of Object.entries(schema.properties ?? {})) if (property.default !== undefined) data[id] = property.default;
  return data;
}

/** An emptied input removes its value, so that "required" says it is missing (as @rjsf does). */
export function withValue(data: Data, field: string, value: unknown): Data {
  const next = { ...data };
  if (value === '' || value === undefined) delete next[field];
  else next[field] = value;
  return next;
}

/**
 * One Polish message per visible field for the data as it would be sent (hidden fields are not
 * sent, so neither their values nor their messages count). Keys are top-level field ids.
 */
export function formMessages(schema: ObjectSchema, data: Data, hidden: ReadonlySet<string>, t: Translate): Record<string, string> {
  const sent = Object.fromEntries(Object.entries(data).filter(([k]) => !hidden.has(k)));
  const validate = validatorFor(schema);
  if (validate(sent)) return {};
  const out: Record<string, string> = {};
  for (const { field, message } of fieldMessages(validate.errors ?? [], t, schema)) {
    const id = field.split('.')[0];
    if (!id || hidden.has(id) || id in out) continue;
    out[id] = message;
  }
  return out;
}

/**
 * The fields required for the data as it stands: the schema's `required` and those its
 * conditions require (the plate once the choice is a driver), found by asking the validator
 * whether the data without the field misses it. Their labels carry the asterisk.
 */
export function requiredFields(schema: ObjectSchema, data: Data, fieldIds: string[]): Set<string> {
  const validate = validatorFor(schema);
  const out = new Set<string>();
  for (const id of fieldIds) {
    const { [id]: _value, ...without } = data;
    validate(without);
    if ((validate.errors ?? []).some((e) => e.keyword === 'required' && e.params.missingProperty === id && e.instancePath === '')) out.add(id);
  }
  return out;
}

/** The choices of a radio or select field: the screen's options, else the schema's enum. */
export function choicesOf(
  field: { options?: { value: unknown; label: string }[] },
  property: Record<string, unknown> | undefined,
  t: Translate,
): { value: unknown; label: string }[] {
  if (field.options) return field.options.map((o) => ({ value: o.value, label: t(o.label) }));
  const values = Array.isArray(property?.enum) ? (property.enum as unknown[]) : [];
  return values.map((value) => ({ value, label: String(value) }));
}
