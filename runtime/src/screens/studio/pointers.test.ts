import { describe, expect, it } from 'vitest';
import { getAt, placeOf, pointer, problemsAt, reasonOf, tokensOf, whereInWords, within } from './pointers';

describe('pointers and the problems at a place', () => {
  it('builds, splits and reads pointers with escaped tokens', () => {
    expect(pointer('columns', 3, 'width')).toBe('/columns/3/width');
    expect(pointer('a/b', 'c~d')).toBe('/a~1b/c~0d');
    expect(tokensOf('/a~1b/c~0d')).toEqual(['a/b', 'c~d']);
    expect(getAt({ columns: [{ id: 'x', width: 5 }] }, '/columns/0/width')).toBe(5);
    expect(getAt({ a: 1 }, '/a/b')).toBeUndefined();
  });

  it('splits a problem field into its layer path and pointer', () => {
    expect(placeOf({ field: 'client-variants/t/screens/vehicles-table.json#/columns/0/width' })).toEqual({ layerPath: 'client-variants/t/screens/vehicles-table.json', pointer: '/columns/0/width' });
    expect(placeOf({ field: 'screens/menu.json' })).toEqual({ layerPath: 'screens/menu.json', pointer: '' });
  });

  it('finds the problems of a place, exactly or within it', () => {
    const problems = [
      { field: 'screens/t.json#/columns/1/width', message: 'a' },
      { field: 'screens/t.json#/columns/10', message: 'b' },
      { field: 'screens/u.json#/columns/1/width', message: 'c' },
    ];
    expect(problemsAt(problems, 'screens/t.json', '/columns/1/width').map((p) => p.message)).toEqual(['a']);
    expect(problemsAt(problems, 'screens/t.json', '/columns/1', true).map((p) => p.message)).toEqual(['a']);
    expect(within('/columns/10', '/columns/1')).toBe(false);
  });

  it('says where in words, naming array items by their id', () => {
    const doc = { columns: [{ id: 'rejestr', width: 10 }] };
    expect(whereInWords({ field: 'screens/t.json#/columns/0/width', message: '' }, doc)).toBe('columns › rejestr › width');
    expect(whereInWords({ field: 'x#/a', message: '', where: 'tu' })).toBe('tu');
  });
});

describe('the reason of a problem', () => {
  it('leaves out the place the server put before the message', () => {
    expect(reasonOf({ field: 'x#/a', message: 'columns › rejestr › width: must be >= 30', where: 'columns › rejestr › width' })).toBe('must be >= 30');
    expect(reasonOf({ field: 'x#/a', message: 'plain' })).toBe('plain');
  });
});
