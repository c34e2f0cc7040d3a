/**
 * Polish validation messages for every @rjsf form (DESIGN.md §2 "Texts are keys"). An ajv error
 * becomes `validation:<keyword>` (with {{limit}}), unless the property's schema names another key
 * in `x-messages[keyword]`. The key choice is runtime/core/validation-messages.ts, the same code
 * the server uses for its 400 bodies, so a field shows the same text whichever side refused it.
 */
import type { ErrorSchema, RJSFValidationError } from '@rjsf/utils';
import { messageKey, fieldOf, type AjvLikeError, type Translate } from '../../core/validation-messages';
import { patternText } from '../../core/date-text';
import { formatSettings } from '../format-settings';

export { serverErrorSchema } from './server-errors';

/** Keywords that only say "a sub-schema failed"; the failing keyword inside carries the message. */
const WRAPPER_KEYWORDS = new Set(['if', 'then', 'else', 'allOf', 'anyOf', 'oneOf', 'not']);

/** rjsf appends a required property's name to `property`; ajv keeps it in params only. */
function toAjvLike(error: RJSFValidationError): AjvLikeError {
  const path = (error.property ?? '').replace(/^\./, '').split('.').filter(Boolean);
  if (error.name === 'required' && path.length) path.pop();
  return { keyword: error.name ?? '', instancePath: path.map((p) => `/${p}`).join(''), params: error.params ?? {} };
}

/**
 * A form's message key: a date or date-time the form could not read (its input keeps the text as
 * typed) says the pattern expected in the reader's language — "oczekiwany format DD.MM.RRRR",
 * "expected format DD/MM/YYYY" — rather than "Niepoprawny format". The server's own 400 for an
 * API's date keeps the generic message: a request's dates are ISO, not the reader's pattern.
 */
function formKey(error: AjvLikeError, rootSchema: object | undefined): string {
  const key = messageKey(error, rootSchema);
  if (key !== 'validation:format') return key;
  return error.params.format === 'date' ? 'validation:date' : error.params.format === 'date-time' ? 'validation:dateTime' : key;
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
    const key = formKey(ajvLike, rootSchema);
    const pattern = key === 'validation:date' || key === 'validation:dateTime' ? { pattern: patternText(formatSettings().datePattern, t, key !== 'validation:date') } : {};
    const message = t(key, { ...ajvLike.params, limit, ...pattern });
    out.push({ ...error, property: field ? `.${field}` : '', message, stack: message });
  }
  return out;
}
