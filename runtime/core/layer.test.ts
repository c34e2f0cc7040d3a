import { describe, expect, it } from 'vitest';
import { mergeOverlay, type Json } from './merge.ts';
import { diffDocuments, missingTouches, overlayBetween, pathOf, pathWords, pointerOf, touchesOf } from './layer.ts';

const table: Json = {
  type: 'table',
  title: 'car:title',
  columns: [
    { id: 'rejestr', width: 130 },
    { id: 'marka', width: 130 },
    { id: 'model', width: 170 },
    { id: 'vin', width: 190 },
  ],
};

describe('the overlay between two documents', () => {
  const cases: Array<[string, Json]> = [
    ['a changed value', { ...(table as any), title: 'car:other' }],
    ['a hidden column', { ...(table as any), columns: (table as any).columns.map((c: any) => (c.id === 'marka' ? { ...c, hide: true } : c)) }],
    ['a column moved to the front', { ...(table as any), columns: [(table as any).columns[2], ...(table as any).columns.filter((_: any, i: number) => i !== 2)] }],
    ['columns reversed', { ...(table as any), columns: [...(table as any).columns].reverse() }],
    ['a column removed and one added in the middle', { ...(table as any), columns: [{ id: 'rejestr', width: 130 }, { id: 'nowa', width: 99 }, { id: 'model', width: 170 }, { id: 'vin', width: 190 }] }],
    ['every column removed', { ...(table as any), columns: [] }],
    ['a key taken away', { type: 'table', columns: (table as any).columns }],
  ];
  for (const [name, target] of cases) {
    it(`gives the target when merged onto the base: ${name}`, () => {
      const overlay = overlayBetween(table, target);
      expect(overlay).toBeDefined();
      expect(mergeOverlay(table, overlay!)).toEqual(target);
    });
  }

  it('is undefined for the same document, and holds only what changed', () => {
    expect(overlayBetween(table, structuredClone(table))).toBeUndefined();
    const target = { ...(table as any), columns: (table as any).columns.map((c: any) => (c.id === 'marka' ? { ...c, hide: true } : c)) };
    expect(overlayBetween(table, target)).toEqual({ columns: [{ id: 'marka', hide: true }] });
  });

  it('still reaches the values it did not change when the files change under it (layer over files)', () => {
    const overlay = overlayBetween(table, { ...(table as any), columns: (table as any).columns.map((c: any) => (c.id === 'marka' ? { ...c, hide: true } : c)) })!;
    const newFiles = { ...(table as any), columns: [...(table as any).columns.map((c: any) => (c.id === 'rejestr' ? { ...c, width: 150 } : c)), { id: 'mpk', width: 100 }] };
    const merged = mergeOverlay(newFiles, overlay) as any;
    expect(merged.columns.map((c: any) => [c.id, c.width, c.hide ?? false])).toEqual([
      ['rejestr', 150, false], ['marka', 130, true], ['model', 170, false], ['vin', 190, false], ['mpk', 100, false],
    ]);
  });
});

describe('what an overlay touches, and broken entries', () => {
  it('names the keys and ids it changes, removes or places next to', () => {
    const overlay: Json = { title: 'x', columns: [{ id: 'marka', hide: true }, { id: 'vin', $remove: true }, { id: 'nowa', width: 1, $after: 'model' }] };
    expect(touchesOf(table, overlay)).toEqual([
      ['title'],
      ['columns', { id: 'marka' }], // a key the item did not have: the item must still be there
      ['columns', { id: 'vin' }],
      ['columns', { id: 'model' }],
      ['columns'],
    ]);
  });

  it('finds the touched ids and keys the files no longer have', () => {
    const overlay: Json = { columns: [{ id: 'marka', hide: true }, { id: 'model', width: 200 }] };
    const touches = touchesOf(table, overlay);
    const filesNow = { ...(table as any), columns: (table as any).columns.filter((c: any) => c.id !== 'marka') };
    expect(missingTouches(filesNow, touches).map((p) => pathWords(p))).toEqual(['columns › marka']);
    expect(missingTouches(table, touches)).toEqual([]);
    const texts = { fields: { rejestr: 'Nr rejestracyjny' } };
    const textTouches = touchesOf(texts, { fields: { rejestr: 'Rejestracja' } });
    expect(missingTouches({ fields: { numer: 'Nr' } }, textTouches).map((p) => pathWords(p))).toEqual(['fields › rejestr']);
  });
});

describe('paths, pointers and the diff', () => {
  it('turns pointers into paths by id and back', () => {
    expect(pathOf(table, '/columns/1/width')).toEqual(['columns', { id: 'marka' }, 'width']);
    expect(pointerOf(table, ['columns', { id: 'marka' }, 'width'])).toBe('/columns/1/width');
    expect(pathWords(pathOf(table, '/columns/3'))).toBe('columns › vin');
  });

  it('lists each changed value, ids named, and a new order once', () => {
    const after = { ...(table as any), title: 'car:other', columns: [(table as any).columns[1], { ...(table as any).columns[0], width: 99 }, (table as any).columns[2]] };
    expect(diffDocuments(table, after).map((c) => [pathWords(c.path), c.before, c.after])).toEqual([
      ['title', 'car:title', 'car:other'],
      ['columns › rejestr › width', 130, 99],
      ['columns › vin', { id: 'vin', width: 190 }, undefined],
      ['columns › $order', ['rejestr', 'marka', 'model'], ['marka', 'rejestr', 'model']],
    ]);
    // the order's words are the caller's (locales/), not the core's
    const order = diffDocuments(table, after).at(-1)!;
    expect(pathWords(order.path, { order: '(kolejność)' })).toBe('columns › (kolejność)');
  });
});
