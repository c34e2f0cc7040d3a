/**
 * Session gates (screens/app.json `sessionGates`; spec §4 "Login flow"): dialogs a signed-in user
 * must get through, in order, before any page shows: the terms modal (USER and MANAGER), then
 * the forced password change (first login). A gate shows while its condition holds and until its
 * dialog closes itself; the passed gates are kept in the session, so a reload does not ask again.
 * A server refusal with a gate's error code (a new terms version published meanwhile) brings the
 * gate back.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useRef, type ReactNode } from 'react';
import { useConfig } from '../config/ConfigContext';
import type { SessionGateDecl } from '../config/bundle';
import { useConditionContext } from '../config/useConditionContext';
import { ScreenView } from '../screens/ScreenView';
import { sessionAtom, updateSession } from '../state/session';
import { lastErrorCodeAtom } from '../state/ui';

/** The first gate the signed-in user has still to pass, or undefined once every gate is passed. */
export function usePendingGate(): SessionGateDecl | undefined {
  const { bundle, conditions } = useConfig();
  const session = useAtomValue(sessionAtom);
  const ctx = useConditionContext();
  const passed = session?.gatesPassed ?? [];
  return (bundle.app.sessionGates ?? []).find((g) => !passed.includes(g.id) && conditions.matches(g.when, ctx));
}

export function SessionGates({ children }: { children: ReactNode }) {
  const { bundle } = useConfig();
  const session = useAtomValue(sessionAtom);
  const lastError = useAtomValue(lastErrorCodeAtom);
  const gates: SessionGateDecl[] = bundle.app.sessionGates ?? [];
  const handledError = useRef(lastError?.at ?? 0);

  useEffect(() => {
    if (!lastError || lastError.at <= handledError.current) return;
    handledError.current = lastError.at;
    const reopenedGates = gates.filter((g) => g.reopenOnErrorCode === lastError.code);
    const reopened = reopenedGates.map((g) => g.id);
    // the flags that make the gate's condition hold again (the server knows better than the session)
    const sets = Object.assign({}, ...reopenedGates.map((g) => g.reopenSets ?? {}));
    if (reopened.length) {
      updateSession((s) => ({ ...s, user: { ...s.user, ...sets }, gatesPassed: (s.gatesPassed ?? []).filter((id) => !reopened.includes(id)) }));
    }
  }, [lastError, gates]);

  const pending = usePendingGate();
  if (!session || !pending) return <>{children}</>;
  const pass = () => updateSession((s) => ({ ...s, gatesPassed: [...new Set([...(s.gatesPassed ?? []), pending.id])] }));
  // the page waits behind the gate: its calls would only be refused until the gate is passed
  return <ScreenView key={pending.id} screenId={pending.screen} presentation="dialog" onClose={pass} />;
}
