import { describe, expect, it } from 'vitest';
import { nextLoadingPhase, type LoadingEvent, type LoadingPhase } from './loading-bar';

const run = (events: LoadingEvent[], from: LoadingPhase = 'hidden') => events.reduce(nextLoadingPhase, from);

describe('loading bar phases', () => {
  it('goes hidden → starting → running → stopping → hidden', () => {
    expect(run(['busy'])).toBe('starting');
    expect(run(['busy', 'started'])).toBe('running');
    expect(run(['busy', 'started', 'idle'])).toBe('stopping');
    expect(run(['busy', 'started', 'idle', 'finished'])).toBe('hidden');
  });

  it('starts again when a request begins while stopping', () => {
    expect(run(['busy', 'started', 'idle', 'busy'])).toBe('starting');
  });

  it('ignores a late timer once it has started again', () => {
    expect(run(['busy', 'started', 'finished'])).toBe('running');
  });
});
