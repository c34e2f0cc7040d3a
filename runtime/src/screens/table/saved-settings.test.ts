import { describe, expect, it } from 'vitest';
import { columnStateOfView, viewOfColumnState } from './saved-settings';

const state = [
  { colId: 'status', hide: false },
  { colId: 'autNr', hide: false },
  { colId: 'rejestr', hide: true },
  { colId: 'zgloData', hide: false },
];

describe('saved views', () => {
  it('save the visible columns in their order', () => {
    expect(viewOfColumnState(state)).toEqual(['status', 'autNr', 'zgloData']);
  });

  it('apply as: the view’s columns shown in its order, every other column hidden after them', () => {
    expect(columnStateOfView(['rejestr', 'autNr'], state)).toEqual([
      { colId: 'rejestr', hide: false },
      { colId: 'autNr', hide: false },
      { colId: 'status', hide: true },
      { colId: 'zgloData', hide: true },
    ]);
  });

  it('skip a saved column the table no longer has', () => {
    expect(columnStateOfView(['gone', 'autNr'], state).filter((c) => !c.hide)).toEqual([{ colId: 'autNr', hide: false }]);
  });
});
