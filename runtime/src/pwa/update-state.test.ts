import { describe, expect, it } from 'vitest';
import { onRefreshPressed } from './update-state';

describe('a newer version of the portal and a half-filled form', () => {
  it('refreshes at once when no form holds anything typed', () => {
    expect(onRefreshPressed(false)).toBe('now');
  });

  it('waits for the form when one does: what was typed is never swapped away', () => {
    expect(onRefreshPressed(true)).toBe('afterForm');
  });
});
