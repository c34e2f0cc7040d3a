/**
 * Session gates (screens/app.json `sessionGates`; spec §4 "Login flow"): dialogs a signed-in user
 * must get through, in order, before any page shows: the terms modal (USER and MANAGER), then
 * the forced password change (first login). A gate shows while its condition holds and until its
 * dialog closes itself; the passed gates are kept in the session, so a reload does not ask again.
 * A server refusal with a gate's error code (a new terms version published meanwhile) brings the
 * gate back.
 */
import { useAtomValue } from 'jotai';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useConfig } from '../config/ConfigContext';
import type { SessionGateDecl } from '../config/bundle';
import { useConditionContext } from '../config/useConditionContext';
import { ScreenView } from '../screens/ScreenView';
import type { GateCheck } from '../screens/types';
import { sessionAtom, updateSession } from '../state/session';
import { lastErrorCodeAtom } from '../state/ui';

const gateChecks = import.meta.glob<GateCheck>('../screens/*/gate.ts', { eager: true, import: 'passedAtOnce' });
/** A screen type's check that its gate has nothing to show (`<type>/gate.ts`), if it has one. */
const gateCheckOf = (type: string | undefined) => (type ? gateChecks[`../screens/${type}/gate.ts`] : undefined);

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
  const pass = (id: string) => updateSession((s) => ({ ...s, gatesPassed: [...new Set([...(s.gatesPassed ?? []), id])] }));
  // a gate whose screen can tell it has nothing to show is asked that first, without its code; the
  // dialog is drawn once the answer is "something to show" (or the check failed)
  const [shown, setShown] = useState<string | null>(null);
  const pendingId = pending?.id;
  useEffect(() => {
    if (!pending) return;
    const screen = bundle.screens[pending.screen] as { type?: string } | undefined;
    const check = gateCheckOf(screen?.type);
    if (!check) return setShown(pending.id);
    let live = true;
    check(screen).then(
      (passed) => live && (passed ? pass(pending.id) : setShown(pending.id)),
      () => live && setShown(pending.id),
    );
    return () => {
      live = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per gate that becomes pending
  }, [pendingId, bundle]);
  if (!session || !pending) return <>{children}</>;
  // the page waits behind the gate: its calls would only be refused until the gate is passed;
  // while it is being checked nothing is drawn, as its dialog drew nothing while it checked
  if (shown !== pending.id) return null;
  return <ScreenView key={pending.id} screenId={pending.screen} presentation="dialog" onClose={() => pass(pending.id)} />;
}
