import type { ErrorSchema } from '@rjsf/utils';

// a module apart from the client-side messages (messages.ts re-exports it): the login page needs this alone (issue 48's budget)
/** A 400 body's `errors: [{ field, message }]` as rjsf `extraErrors`, so each shows on its field. */
export function serverErrorSchema(errors: { field: string; message: string }[]): ErrorSchema {
  const schema: Record<string, any> = {};
  for (const { field, message } of errors) {
    let node = schema;
    for (const part of field.split(/[./]/).filter(Boolean)) node = node[part] ??= {};
    (node.__errors ??= []).push(message);
  }
  return schema as ErrorSchema;
}
