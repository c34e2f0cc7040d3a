import { describe, expect, it } from 'vitest';
import { mergeOverlay, MergeError } from './merge';

describe('mergeOverlay', () => {
  it('merges objects deeply and lets scalars and null replace', () => {
    expect(mergeOverlay({ a: { b: 1, c: 2 }, d: 'x' }, { a: { c: 3 }, d: null })).toEqual({ a: { b: 1, c: 3 }, d: null });
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
