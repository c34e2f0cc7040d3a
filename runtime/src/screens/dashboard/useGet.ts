import { useAtomValue } from 'jotai';
import { startTransition, useEffect, useState } from 'react';
import { api } from '../../api/client';
import { dataRevisionAtom } from '../../state/data';

export interface Loaded<T> {
  /** The last answer; kept while the next one loads (a page, a reload), so the section does not jump. */
  data: T | null;
  loading: boolean;
  error: unknown;
}

/**
 * GET of a section's data (null: nothing to read). Read again when the path changes, when
 * `version` changes (the dashboard's reload after a decision) and when data was saved anywhere
 * (state/data.ts: a reading entered in the odometer dialog).
 */
export function useGet<T>(path: string | null, version = 0): Loaded<T> {
  const revision = useAtomValue(dataRevisionAtom);
  const [state, setState] = useState<Loaded<T>>({ data: null, loading: path !== null, error: null });
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    setState((s) => ({ ...s, loading: true }));
    api
      .get<T>(path, { signal: controller.signal })
      // a transition: drawn in slices, not in one long task (useRecord, issue 47)
      .then((data) => startTransition(() => setState({ data, loading: false, error: null })))
      .catch((error) => {
        if (!controller.signal.aborted) setState((s) => ({ data: s.data, loading: false, error }));
      });
    return () => controller.abort();
  }, [path, version, revision]);
  return state;
}
