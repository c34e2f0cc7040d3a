import { describe, expect, it } from 'vitest';
import { toolbarOutcome } from './TableActions';

describe('a table toolbar button', () => {
  it('runs without a row when it needs none (add)', () => {
    expect(toolbarOutcome({}, { id: 1 })).toEqual({ run: null });
  });

  it('runs on the selected row when it needs one, and says so when none is selected (copy)', () => {
    expect(toolbarOutcome({ needsRow: 'user:errors.copyNeedsRow' }, { id: 1 })).toEqual({ run: { id: 1 } });
    expect(toolbarOutcome({ needsRow: 'user:errors.copyNeedsRow' }, null)).toEqual({ warn: 'user:errors.copyNeedsRow' });
  });
});
