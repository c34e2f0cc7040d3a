import { useEffect, useState } from 'react';
import { FINISHED, type ImportApi, type ImportRun } from './import-api';

/**
 * A run read again every `pollMs` until it has finished (succeeded, failed, cancelled): the
 * server's queue runs it, so its progress and result arrive by asking. A failed read is kept as
 * the error and the polling stops (the user sees why and may start again).
 */
export function usePolledRun(client: ImportApi, id: number | null, pollMs: number) {
  const [run, setRun] = useState<ImportRun | null>(null);
  const [error, setError] = useState<unknown>(null);
  useEffect(() => {
    setRun(null);
    setError(null);
    if (!id) return;
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const read = () =>
      client
        .run(id, controller.signal)
        .then((r) => {
          setRun(r);
          if (!FINISHED.has(r.state)) timer = setTimeout(read, pollMs);
        })
        .catch((e) => {
          if (!controller.signal.aborted) setError(e);
        });
    void read();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [client, id, pollMs]);
  return { run, error, finished: run !== null && FINISHED.has(run.state) };
}
