import { useAtomValue } from 'jotai';
import { useEffect, useReducer } from 'react';
import { pendingRequestsAtom } from '../state/ui';
import { LOADING_BAR_FINISH_MS, nextLoadingPhase } from './loading-bar';

/** Thin bar at the top of the window while requests are pending (decorative: the spinner speaks). */
export function LoadingBar() {
  const pending = useAtomValue(pendingRequestsAtom);
  const [phase, dispatch] = useReducer(nextLoadingPhase, 'hidden');

  useEffect(() => dispatch(pending > 0 ? 'busy' : 'idle'), [pending]);

  useEffect(() => {
    if (phase === 'starting') {
      // one frame at width 0 first, so the growth to "running" is animated
      const frame = requestAnimationFrame(() => dispatch('started'));
      return () => cancelAnimationFrame(frame);
    }
    if (phase === 'stopping') {
      const timer = setTimeout(() => dispatch('finished'), LOADING_BAR_FINISH_MS);
      return () => clearTimeout(timer);
    }
    return undefined;
  }, [phase]);

  return <div className={`loading-bar loading-bar--${phase}`} aria-hidden="true" data-phase={phase} />;
}
