/**
 * The field messages of a form after a refused attempt: the server's (a 400's `errors`) and the
 * form's own checks. Once an attempt failed the form validates as the user types, so a message
 * goes away as soon as its field is valid; a server message goes away when its field changes.
 */
import type { ErrorSchema } from '@rjsf/utils';
import { useCallback, useState } from 'react';

type Data = Record<string, unknown>;

/** The server's messages without those of the fields whose value changed since. */
export function withoutChangedFields(errors: ErrorSchema | undefined, before: Data, after: Data): ErrorSchema | undefined {
  if (!errors) return errors;
  const kept = Object.fromEntries(Object.entries(errors).filter(([field]) => field === '__errors' || Object.is(before[field], after[field])));
  return Object.keys(kept).length ? (kept as ErrorSchema) : undefined;
}

export function useFieldErrors() {
  const [extraErrors, setExtraErrors] = useState<ErrorSchema | undefined>();
  const [live, setLive] = useState(false);
  /** Call on every change of the form data. */
  const changed = useCallback((before: Data, after: Data) => setExtraErrors((e) => withoutChangedFields(e, before, after)), []);
  /** A refused attempt (the form's checks or the server's 400): from now on validate while typing. */
  const failed = useCallback((errors?: ErrorSchema) => {
    if (errors) setExtraErrors(errors);
    setLive(true);
  }, []);
  const clear = useCallback(() => setExtraErrors(undefined), []);
  return { extraErrors, liveValidate: live ? ('onChange' as const) : undefined, changed, failed, clear };
}
