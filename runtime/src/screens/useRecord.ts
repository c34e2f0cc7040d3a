import { useEffect, useRef, useState } from 'react';
import { api } from '../api/client';

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
 * or when `version` changes (a reload after a change: the record shown stays until the new one arrives).
 */
export function useRecord(endpoint: string, params?: Record<string, unknown>, version = 0): RecordState {
  const path = fillEndpoint(endpoint, params);
  const [state, setState] = useState<RecordState>({ status: 'loading' });
  const shown = useRef<string | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    if (shown.current !== path) setState({ status: 'loading' });
    api
      .get<Record<string, unknown>>(path, { signal: controller.signal })
      .then((record) => {
        shown.current = path;
        setState({ status: 'loaded', record: record ?? {} });
      })
      .catch((error) => {
        if (!controller.signal.aborted) setState({ status: 'failed', error });
      });
    return () => controller.abort();
  }, [path, version]);
  return state;
}
