/**
 * The overlays every page may show (toasts, the statement modal), each a chunk of its own loaded
 * with the first toast or statement, and drawn from then on (issue 33: the login page carries
 * neither; a signed-in start-up loads them ahead, shell/signed-in.ts).
 */
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { statementAtom, toastsAtom } from '../state/ui';
import { lazyPart } from './lazy-part';

const LazyToasts = lazyPart<{ breakpoint: number }>(() => import('./Toasts').then((m) => ({ default: m.Toasts })));
const LazyStatementModal = lazyPart<object>(() => import('./StatementModal').then((m) => ({ default: m.GlobalStatementModal })));

/** True from the first time `shown` is true on. */
function useOnceShown(shown: boolean): boolean {
  const [once, setOnce] = useState(shown);
  if (shown && !once) setOnce(true);
  return once || shown;
}

export function Toasts({ breakpoint }: { breakpoint: number }) {
  const any = useAtomValue(toastsAtom).length > 0;
  return useOnceShown(any) ? <LazyToasts breakpoint={breakpoint} /> : null;
}

export function GlobalStatementModal() {
  const any = useAtomValue(statementAtom) !== null;
  return useOnceShown(any) ? <LazyStatementModal /> : null;
}
