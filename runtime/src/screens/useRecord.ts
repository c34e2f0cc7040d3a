import { useEffect, useState } from 'react';
import { api } from '../api/client';

export type RecordState =
  | { status: 'loading' }
  | { status: 'loaded'; record: Record<string, unknown> }
  | { status: 'failed'; error: unknown };

/** `/car/{id}` with { id: 7 } → `/car/7` (values are URL-encoded). */
export function fillEndpoint(endpoint: string, params: Record<string, unknown> = {}): string {
  return endpoint.replace(/\{(\w+)\}/g, (_, name) => encodeURIComponent(String(params[name] ?? '')));
}

/** Loads one record from a screen's `load.endpoint`; reloads when the endpoint or its params change. */
export function useRecord(endpoint: string, params?: Record<string, unknown>): RecordState {
  const path = fillEndpoint(endpoint, params);
  const [state, setState] = useState<RecordState>({ status: 'loading' });
  useEffect(() => {
    const controller = new AbortController();
    setState({ status: 'loading' });
    api
      .get<Record<string, unknown>>(path, { signal: controller.signal })
      .then((record) => setState({ status: 'loaded', record: record ?? {} }))
      .catch((error) => {
        if (!controller.signal.aborted) setState({ status: 'failed', error });
      });
    return () => controller.abort();
  }, [path]);
  return state;
}
