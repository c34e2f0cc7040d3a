/**
 * A `call` action run from a table (a toolbar button, a row action): the Tak/Nie question, the
 * request, the toast of the server's message, and the table read again after a success
 * (actions/call-action.ts through useCallEffects). Loaded only when a table runs a call, so the
 * table's own chunk carries neither the call code nor its confirmation (tools/size-budget.ts).
 */
import { useEffect, useRef } from 'react';
import { runAction, type ActionDeclLike } from '../../actions/run-action';
import { useCallEffects } from '../../actions/useCallEffects';

type Row = Record<string, unknown> | null;

export default function TableCall({ action, row, onDone }: { action: ActionDeclLike; row: Row; onDone: (changed: boolean) => void }) {
  const changed = useRef(false);
  const { call, confirmation } = useCallEffects({
    // a table has no dialog to reload or close: "tables" reads its rows again
    reload: (what) => (changed.current ||= what.includes('tables')),
    close: () => undefined,
  });
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return; // StrictMode runs effects twice; the call runs once
    started.current = true;
    const done = runAction(action, row, { navigate: () => undefined, openDialog: () => undefined, call });
    void Promise.resolve(done).finally(() => onDone(changed.current));
    // runs once: a new call is a new TableCall
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return confirmation;
}
