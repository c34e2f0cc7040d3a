/**
 * The strength estimator (zxcvbn-ts with Polish dictionaries, some hundreds of kB) loads only
 * when a form with a new-password field opens; until then the meter waits and the server's check
 * still applies.
 */
import { useEffect, useState } from 'react';
import type { ScoreFn } from './password-checks';

let loading: Promise<ScoreFn> | null = null;
const loadScore = () => (loading ??= import('../../core/password-strength').then((m) => m.passwordScore));

export function usePasswordScore(enabled: boolean): ScoreFn | null {
  const [score, setScore] = useState<ScoreFn | null>(null);
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    loadScore().then((fn) => live && setScore(() => fn), () => undefined);
    return () => {
      live = false;
    };
  }, [enabled]);
  return score;
}
