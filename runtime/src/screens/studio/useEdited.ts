import { useCallback, useEffect, useState } from 'react';
import { copyOf } from './edits';

/**
 * A tab's working copy of a document (its effective JSON): changed with `change(draft => …)`,
 * dirty while it differs from what the server gave, and replaced when the server gives another
 * (after a save, a scope change, a rebase).
 */
export function useEdited<T = any>(source: T | null | undefined) {
  const [edited, setEdited] = useState<T | null>(() => (source == null ? null : copyOf(source)));
  useEffect(() => setEdited(source == null ? null : copyOf(source)), [source]);
  const change = useCallback((edit: (draft: T) => void) => {
    setEdited((previous) => {
      if (previous == null) return previous;
      const next = copyOf(previous);
      edit(next);
      return next;
    });
  }, []);
  const reset = useCallback(() => setEdited(source == null ? null : copyOf(source)), [source]);
  const dirty = edited != null && source != null && JSON.stringify(edited) !== JSON.stringify(source);
  return { edited, change, reset, dirty, setEdited };
}
