import { useAtomValue } from 'jotai';
import { startTransition, useEffect, useRef, useState } from 'react';
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
 * Loads one record from a screen's `load.endpoint` (null: nothing to load, the caller has its
 * record); reloads when the endpoint or its params change, when `version` changes (the screen's
 * own reload after a change) and when data was saved anywhere (state/data.ts). A record read
 * again stays on screen until the new one arrives, so dialogs opened over it stay open.
 */
export function useRecord(endpoint: string | null, params?: Record<string, unknown>, version = 0): RecordState {
  const path = endpoint === null ? null : fillEndpoint(endpoint, params);
  const revision = useAtomValue(dataRevisionAtom);
  const [state, setState] = useState<RecordState>({ status: 'loading' });
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (path === null) return;
    const controller = new AbortController();
    if (shown.current !== path) setState({ status: 'loading' });
    api
      .get<Record<string, unknown>>(path, { signal: controller.signal })
      .then((record) => {
        shown.current = path;
        // a transition: React draws the record's screen in slices of a few milliseconds (a default
        // update draws in one piece: the driver's panels were one 0.3 s task of a throttled phone, issue 47)
        startTransition(() => setState({ status: 'loaded', record: record ?? {} }));
      })
      .catch((error) => {
        if (!controller.signal.aborted) setState({ status: 'failed', error });
      });
    return () => controller.abort();
  }, [path, version, revision]);
  return state;
}
