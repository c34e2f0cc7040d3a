import { describe, expect, it } from 'vitest';
import { CursorMemory, roundEstimate, rowParamsOf } from './datasource';

describe('table requests', () => {
  const grid = { startRow: 30, endRow: 60, sortModel: [{ colId: 'reporterRole', sort: 'asc' as const }, { colId: 'autNr', sort: 'desc' as const }], filterModel: { reporterRole: { filterType: 'set', values: ['USER'] } } };

  it('name the entity field of a column that shows another field than its id', () => {
    const p = rowParamsOf(grid, undefined, { fields: new Map([['reporterRole', 'zgloKto'], ['autNr', 'autNr']]) });
    expect(p.sortModel).toEqual([{ colId: 'zgloKto', sort: 'asc' }, { colId: 'autNr', sort: 'desc' }]);
    expect(p.filterModel).toEqual({ zgloKto: { filterType: 'set', values: ['USER'] } });
    expect(p).not.toHaveProperty('srcId');
  });

  it('send a column\'s filter on the field its filter declares, its sort on the field it shows', () => {
    const p = rowParamsOf(
      { startRow: 0, endRow: 30, sortModel: [{ colId: 'actorLabel', sort: 'asc' as const }], filterModel: { actorLabel: { filterType: 'set', values: ['user:7'] } } },
      undefined,
      { fields: new Map([['actorLabel', 'actorLabel']]), filterFields: new Map([['actorLabel', 'actor']]) },
    );
    expect(p.filterModel).toEqual({ actor: { filterType: 'set', values: ['user:7'] } });
    expect(p.sortModel).toEqual([{ colId: 'actorLabel', sort: 'asc' }]);
  });

  it('add the preset filter to the user’s column filters, and the parent of an embedded table', () => {
    const p = rowParamsOf({ ...grid, filterModel: { umowaNr: { filterType: 'text', type: 'contains', filter: 'UM' } } }, 7, {
      group: 'AUTORY',
      presetFilter: { dataTyp: { filterType: 'set', values: ['current'] } },
    });
    expect(p.filterModel).toEqual({ umowaNr: { filterType: 'text', type: 'contains', filter: 'UM' }, dataTyp: { filterType: 'set', values: ['current'] } });
    expect(p).toMatchObject({ startRow: 30, endRow: 60, srcId: 7, group: 'AUTORY' });
  });

  it('on a phone, whose one column has neither, send the wide table\'s filter and sort carried for it, by their fields', () => {
    const carried = { filterModel: grid.filterModel, sortModel: grid.sortModel };
    const p = rowParamsOf({ startRow: 0, endRow: 30, sortModel: [], filterModel: {} }, undefined, { fields: new Map([['reporterRole', 'zgloKto']]), carried });
    expect(p.filterModel).toEqual({ zgloKto: { filterType: 'set', values: ['USER'] } });
    expect(p.sortModel).toEqual([{ colId: 'zgloKto', sort: 'asc' }, { colId: 'autNr', sort: 'desc' }]);
    // the grid's own models, when it has them, are the user's latest
    const own = rowParamsOf({ startRow: 0, endRow: 30, sortModel: [{ colId: 'autNr', sort: 'asc' as const }], filterModel: { autNr: { filterType: 'text', type: 'contains', filter: '7' } } }, undefined, { carried });
    expect(own.filterModel).toEqual({ autNr: { filterType: 'text', type: 'contains', filter: '7' } });
    expect(own.sortModel).toEqual([{ colId: 'autNr', sort: 'asc' }]);
  });
});

describe('cursor memory', () => {
  it('sends the cursor of the block that ends where the requested one starts, else the latest of the query', () => {
    const m = new CursorMemory();
    expect(m.forBlock('q', 0)).toBeUndefined();
    m.remember('q', 30, 'c30');
    m.remember('q', 60, 'c60');
    expect(m.forBlock('q', 30)).toBe('c30');
    expect(m.forBlock('q', 60)).toBe('c60');
    expect(m.forBlock('q', 900)).toBe('c60');
  });

  it('forgets the cursors when the query changes or starts again, and ignores answers of an old query', () => {
    const m = new CursorMemory();
    m.forBlock('q', 0);
    m.remember('q', 30, 'c30');
    expect(m.forBlock('other', 30)).toBeUndefined();
    m.remember('q', 60, 'late answer of the old query');
    expect(m.forBlock('other', 60)).toBeUndefined();
    m.remember('other', 30, 'o30');
    expect(m.forBlock('other', 0)).toBeUndefined();
    expect(m.forBlock('other', 30)).toBeUndefined();
  });
});

describe('estimated counts', () => {
  it('read as estimates: two significant digits', () => {
    expect(roundEstimate(1_003_412)).toBe(1_000_000);
    expect(roundEstimate(333_367)).toBe(330_000);
    expect(roundEstimate(48_765)).toBe(49_000);
    expect(roundEstimate(87)).toBe(87);
  });
});
