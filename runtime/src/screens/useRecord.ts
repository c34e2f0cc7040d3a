import { useAtomValue } from 'jotai';
import { useEffect, useState } from 'react';
import { api } from '../api/client';
import { dataRevisionAtom } from '../state/data';

export type RecordState =
  | { status: 'loading' }
  | { status: 'loaded'; record: Record<string, unknown> }
  | { status: 'failed'; error: unknown };

/** `/car/{id}` with { id: 7 } → `/car/7` (values are URL-encoded). */
export function fillEndpoint(endpoint: string, params: Record<string, unknown> = {}): string {
  return endpoint.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(params[name] ?? '')));
}

/**
 * Loads one record from a screen's `load.endpoint`; reloads when the endpoint or its params change,
 * and quietly (the record stays on screen meanwhile) when data was saved (state/data.ts).
 */
export function useRecord(endpoint: string | null, params?: Record<string, unknown>): RecordState {
  const path = endpoint === null ? null : fillEndpoint(endpoint, params);
  const revision = useAtomValue(dataRevisionAtom);
  const [state, setState] = useState<RecordState>({ status: 'loading' });
  const [loadedPath, setLoadedPath] = useState<string | null>(null);
  useEffect(() => {
    if (path === null) return; // nothing to load (the caller has its record)
    const controller = new AbortController();
    // the same record read again after a save stays on screen (dialogs opened over it stay open)
    if (loadedPath !== path) setState({ status: 'loading' });
    api
      .get<Record<string, unknown>>(path, { signal: controller.signal })
      .then((record) => {
        setState({ status: 'loaded', record: record ?? {} });
        setLoadedPath(path);
      })
      .catch((error) => {
        if (!controller.signal.aborted) setState({ status: 'failed', error });
      });
    return () => controller.abort();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [path, revision]);
  return state;
}
