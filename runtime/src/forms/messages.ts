/**
 * Polish validation messages for every @rjsf form (DESIGN.md §2 "Texts are keys"). An ajv error
 * becomes `validation:<keyword>` (with {{limit}}), unless the property's schema names another key
 * in `x-messages[keyword]`. The key choice is runtime/core/validation-messages.ts, the same code
 * the server uses for its 400 bodies, so a field shows the same text whichever side refused it.
 */
import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import { messageKey, fieldOf, type AjvLikeError, type Translate } from '../../core/validation-messages';

export { serverErrorSchema } from './server-errors';

/** Keywords that only say "a sub-schema failed"; the failing keyword inside carries the message. */
const WRAPPER_KEYWORDS = new Set(['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not']);

/** rjsf appends a required property's name to `property`; ajv keeps it in params only. */
function toAjvLike(error: RJSFValidationError): AjvLikeError {
  const path = (error.property ?? '').replace(/^\./, '').split('.').filter(Boolean);
  if (error.name === 'required' && path.length) path.pop();
  return { keyword: error.name ?? '', instancePath: path.map((p) => `/${p}`).join(''), params: error.params ?? {} };
}

export interface TranslateOptions {
  /** Fields not shown right now: their errors are dropped (their values are not sent either). */
  hiddenFields?: ReadonlySet<string>;
}

/**
 * rjsf `transformErrors`: one Polish message per field (the first error wins), in the order ajv
 * reported them. Errors of hidden fields and of wrapper keywords are dropped.
 */
export function translateErrors(
  errors: RJSFValidationError[],
  t: Translate,
  rootSchema: object | undefined,
  options: TranslateOptions = {},
): RJSFValidationError[] {
  const seen = new Set<string>();
  const out: RJSFValidationError[] = [];
  for (const error of errors) {
    if (!error.name || WRAPPER_KEYWORDS.has(error.name)) continue;
    const ajvLike = toAjvLike(error);
    const field = fieldOf(ajvLike);
    if (seen.has(field) || options.hiddenFields?.has(field.split('.')[0])) continue;
    seen.add(field);
    const limit = ajvLike.params.limit ?? ajvLike.params.comparison;
    const message = t(messageKey(ajvLike, rootSchema), { ...ajvLike.params, limit });
    out.push({ ...error, property: field ? `.${field}` : '', message, stack: message });
  }
  return out;
}
