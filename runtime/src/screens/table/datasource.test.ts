import { describe, expect, it } from 'vitest';
import { rowParamsOf } from './datasource';

describe('table requests', () => {
  const grid = { startRow: 30, endRow: 60, sortModel: [{ colId: 'reporterRole', sort: 'asc' as const }, { colId: 'autNr', sort: 'desc' as const }], filterModel: { reporterRole: { filterType: 'set', values: ['USER'] } } };

  it('name the entity field of a column that shows another field than its id', () => {
    const p = rowParamsOf(grid, undefined, { fields: new Map([['reporterRole', 'zgloKto'], ['autNr', 'autNr']]) });
    expect(p.sortModel).toEqual([{ colId: 'zgloKto', sort: 'asc' }, { colId: 'autNr', sort: 'desc' }]);
    expect(p.filterModel).toEqual({ zgloKto: { filterType: 'set', values: ['USER'] } });
    expect(p).not.toHaveProperty('srcId');
  });

  it('add the preset filter to the user’s column filters, and the parent of an embedded table', () => {
    const p = rowParamsOf({ ...grid, filterModel: { umowaNr: { filterType: 'text', type: 'contains', filter: 'UM' } } }, 7, {
      group: 'AUTORY',
      presetFilter: { dataTyp: { filterType: 'set', values: ['current'] } },
    });
    expect(p.filterModel).toEqual({ umowaNr: { filterType: 'text', type: 'contains', filter: 'UM' }, dataTyp: { filterType: 'set', values: ['current'] } });
    expect(p).toMatchObject({ startRow: 30, endRow: 60, srcId: 7, group: 'AUTORY' });
  });
});
