import { describe, expect, it } from 'vitest';
import { parseUrlFilter, urlWithFilter } from '../../routing/filter-param';
import { CHOICE_FILTER } from './columns';
import { gridOnlyFilter, splitUrlFilter } from './url-filter';

const columns = [
  { colId: 'status', field: 'status', filter: CHOICE_FILTER },
  { colId: 'nr', field: 'autNr', filter: 'agTextColumnFilter' },
  { colId: 'zgloData', field: 'zgloData', filter: 'agDateColumnFilter' },
  { colId: 'firma', field: 'firma', filter: false },
];

describe('a table\'s filter from its address', () => {
  it('puts an entry on the column showing its field with a filter of its kind, the rest beside the grid', () => {
    const model = {
      status: { filterType: 'set', values: [1] },
      autNr: { filterType: 'text', type: 'contains', filter: 'A' },
      pricingConfirmed: { filterType: 'set', values: ['false'] },
      zgloData: { filterType: 'text', type: 'contains', filter: '2026' },
      firma: { filterType: 'text', type: 'contains', filter: 'X' },
    };
    const split = splitUrlFilter(model, columns);
    expect(split).toEqual({
      grid: { status: model.status, nr: model.autNr },
      extra: { pricingConfirmed: model.pricingConfirmed, zgloData: model.zgloData, firma: model.firma },
    });
    // dropping the extra entries keeps the address's own by field
    expect(gridOnlyFilter(split, columns)).toEqual({ status: model.status, autNr: model.autNr });
  });

  it('applies a reminder tile\'s link from end to end, and nothing from a bad one', () => {
    const href = urlWithFilter('/app/order', { status: { filterType: 'set', values: [1] } });
    const model = parseUrlFilter(new URL(href, 'http://x').searchParams.get('filter'))!;
    expect(splitUrlFilter(model, columns)).toEqual({ grid: { status: { filterType: 'set', values: [1] } }, extra: {} });
    expect(parseUrlFilter(new URL('/app/order?filter=%7Bstatus', 'http://x').searchParams.get('filter'))).toBeNull();
  });
});
