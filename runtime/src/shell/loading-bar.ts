/**
 * The top loading bar's states (spec §4): hidden → starting → running → stopping → hidden, where
 * stopping lasts 200 ms after the pending request count has returned to 0 (spec §9).
 */
export type LoadingPhase = 'hidden' | 'starting' | 'running' | 'stopping';
export type LoadingEvent = 'busy' | 'idle' | 'started' | 'finished';

export const LOADING_BAR_FINISH_MS = 200;

export function nextLoadingPhase(phase: LoadingPhase, event: LoadingEvent): LoadingPhase {
  switch (event) {
    case 'busy':
      return phase === 'hidden' || phase === 'stopping' ? 'starting' : phase;
    case 'started':
      return phase === 'starting' ? 'running' : phase;
    case 'idle':
      return phase === 'starting' || phase === 'running' ? 'stopping' : phase;
    case 'finished':
      return phase === 'stopping' ? 'hidden' : phase;
  }
}
