/**
 * Turns ajv errors into the spec's Polish messages (§5), the same way on the server (400 bodies)
 * and in the browser (form fields). The message key is `validation:<keyword>` unless the
 * property's schema names another in `x-messages: { <keyword>: "ns:key" }`.
 */
export interface AjvLikeError {
  keyword: string;
  instancePath: string;
  params: Record<string, any>;
}

export type Translate = (key: string, vars?: Record<string, unknown>) => string;

export interface FieldMessage {
  field: string;
  message: string;
}

/** The property path of an error: "/a/b" → "a.b"; a missing required property names itself. */
export function fieldOf(error: AjvLikeError): string {
  const base = error.instancePath.replace(/^\//, '').split('/').filter(Boolean);
  if (error.keyword === 'required') base.push(error.params.missingProperty);
  if (error.keyword === 'additionalProperties') base.push(error.params.additionalProperty);
  return base.join('.');
}

function propertySchema(root: any, field: string): any {
  let node = root;
  for (const part of field.split('.').filter(Boolean)) {
    node = node?.properties?.[part] ?? node?.items;
    if (!node) return undefined;
  }
  return node;
}

/** Keywords whose message is the generic "required" one: an empty string counts as missing. */
const REQUIRED_LIKE = new Set(['required']);

/**
 * The pattern every request text carries (schemas/api): no NUL character, which no text column
 * can store. Its message says what is wrong rather than "bad format".
 */
export const NO_NUL_PATTERN = '^[^\\u0000]*$';

export function messageKey(error: AjvLikeError, rootSchema?: object): string {
  const field = fieldOf(error);
  if (error.keyword === 'pattern' && error.params.pattern === NO_NUL_PATTERN) return 'validation:noNul';
  const own = propertySchema(rootSchema, field)?.['x-messages']?.[error.keyword];
  if (typeof own === 'string') return own;
  if (REQUIRED_LIKE.has(error.keyword)) return 'validation:required';
  // minLength 1 is how schemas say "not empty": show the required message, as the spec does
  if (error.keyword === 'minLength' && error.params.limit === 1) return 'validation:required';
  if (error.keyword === 'format') return error.params.format === 'email' ? 'validation:email' : 'validation:format';
  return `validation:${error.keyword}`;
}

/** One message per field (the first error wins), in the order the errors came. */
export function fieldMessages(errors: AjvLikeError[], t: Translate, rootSchema?: object): FieldMessage[] {
  const seen = new Map<string, string>();
  for (const error of errors) {
    if (error.keyword === 'if' || error.keyword === 'allOf' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const field = fieldOf(error);
    if (seen.has(field)) continue;
    const limit = error.params.limit ?? error.params.comparison;
    seen.set(field, t(messageKey(error, rootSchema), { ...error.params, limit }));
  }
  return [...seen].map(([field, message]) => ({ field, message }));
}
