import { describe, expect, it } from 'vitest';
import { mergeOverlay, MergeError, overlayPointer } from './merge';

describe('mergeOverlay', () => {
  it('merges objects deeply, lets scalars replace and null take a key away', () => {
    expect(mergeOverlay({ a: { b: 1, c: 2 }, d: 'x' }, { a: { c: 3 }, d: null })).toEqual({ a: { b: 1, c: 3 } });
  });

  it('merges id-keyed array items by id and keeps their order', () => {
    const base = { columns: [{ id: 'a', w: 1 }, { id: 'b', w: 2 }] };
    expect(mergeOverlay(base, { columns: [{ id: 'b', hide: true }] })).toEqual({
      columns: [{ id: 'a', w: 1 }, { id: 'b', w: 2, hide: true }],
    });
  });

  it('refuses to remove an id the base list does not have (a misspelt id)', () => {
    expect(() => mergeOverlay([{ id: 'a' }, { id: 'b' }], [{ id: 'c', $remove: true }])).toThrow(/"\$remove" of id "c"/);
  });

  it('removes an item marked $remove', () => {
    expect(mergeOverlay([{ id: 'a' }, { id: 'b' }], [{ id: 'a', $remove: true }])).toEqual([{ id: 'b' }]);
  });

  it('places new items before or after a named id, or appends them', () => {
    const base = [{ id: 'a' }, { id: 'c' }];
    expect(mergeOverlay(base, [{ id: 'b', $before: 'c' }, { id: 'z' }, { id: 'y', $after: 'a' }])).toEqual([
      { id: 'a' }, { id: 'y' }, { id: 'b' }, { id: 'c' }, { id: 'z' },
    ]);
  });

  it('moves an existing item when it names an anchor', () => {
    expect(mergeOverlay([{ id: 'a' }, { id: 'b' }, { id: 'c' }], [{ id: 'c', $before: 'a', x: 1 }])).toEqual([
      { id: 'c', x: 1 }, { id: 'a' }, { id: 'b' },
    ]);
  });

  it('replaces arrays without ids', () => {
    expect(mergeOverlay({ roles: ['A', 'B'] }, { roles: ['C'] })).toEqual({ roles: ['C'] });
  });

  it('refuses an unknown anchor and an item without id on an id-keyed list', () => {
    expect(() => mergeOverlay([{ id: 'a' }], [{ id: 'b', $after: 'nope' }])).toThrow(MergeError);
    expect(() => mergeOverlay([{ id: 'a' }], [{ label: 'x' }])).toThrow(MergeError);
  });

  it('does not mutate its inputs', () => {
    const base = { list: [{ id: 'a', v: 1 }] };
    const overlay = { list: [{ id: 'a', v: 2 }] };
    mergeOverlay(base, overlay);
    expect(base.list[0].v).toBe(1);
    expect(overlay.list[0].v).toBe(2);
  });

  it('drops directives from items the base did not have', () => {
    expect(mergeOverlay({}, { menu: [{ id: 'x', $after: 'y' }] })).toEqual({ menu: [{ id: 'x' }] });
  });
});

describe('where an overlay’s mistake is', () => {
  const pointerOf = (fn: () => unknown) => {
    try {
      fn();
    } catch (e) {
      return (e as MergeError).pointer;
    }
    return 'no error';
  };

  it('names the overlay item of a $remove of a missing id, an unknown anchor and an item without id', () => {
    const base = { groups: [{ id: 'g', items: [{ id: 'a' }, { id: 'b' }] }] };
    expect(pointerOf(() => mergeOverlay(base, { groups: [{ id: 'g', items: [{ id: 'a', label: 'x' }, { id: 'z', $remove: true }] }] }))).toBe('/groups/0/items/1');
    expect(pointerOf(() => mergeOverlay(base, { groups: [{ id: 'g', items: [{ id: 'c', $after: 'nope' }] }] }))).toBe('/groups/0/items/0/$after');
    expect(pointerOf(() => mergeOverlay(base, { groups: [{ id: 'g', items: [{ id: 'a' }, { label: 'no id' }] }] }))).toBe('/groups/0/items/1');
  });
});

describe('overlayPointer: where a merged value came from in the overlay', () => {
  const base = { columns: [{ id: 'a', width: 1 }, { id: 'b', width: 2 }, { id: 'c', width: 3 }], config: { x: 1, list: ['p', 'q'] } };
  const overlay = { columns: [{ id: 'c', width: 30 }], config: { list: ['r', 's', 't'] } };
  const merged = mergeOverlay(base, overlay);

  it('finds id-keyed items by id, not by position', () => {
    expect(overlayPointer(overlay, merged, '/columns/2/width')).toBe('/columns/0/width');
  });

  it('answers undefined for what the base gave', () => {
    expect(overlayPointer(overlay, merged, '/columns/0/width')).toBeUndefined();
    expect(overlayPointer(overlay, merged, '/config/x')).toBeUndefined();
    expect(overlayPointer(overlay, merged, '')).toBeUndefined();
  });

  it('follows a replaced list by position', () => {
    expect(overlayPointer(overlay, merged, '/config/list/2')).toBe('/config/list/2');
  });
});
