/** Pure helpers of the form templates (templates.tsx), tested without a DOM. */

/** The schema's maxLength as the input's maxlength, so a user cannot type past it. */
export function maxLengthOf(schema: { maxLength?: unknown } | undefined): number | undefined {
  const max = schema?.maxLength;
  return typeof max === 'number' && Number.isInteger(max) && max > 0 ? max : undefined;
}

/** The distinct messages of a field, in order (one line per message). */
export function distinctMessages(errors: readonly unknown[] | undefined): string[] {
  return [...new Set((errors ?? []).filter((e): e is string => typeof e === 'string' && e !== ''))];
}
