import { describe, expect, it } from 'vitest';
import { hiddenColumnsOf } from './hidden-columns';

describe('columns a configuration list hides', () => {
  const config = { hiddenColumns: { 'assignments-table': ['licznikWy', 'palWy'], 'order-position': ['rabatProc'] } };
  it('names the columns of one table or list, and no other', () => {
    expect([...hiddenColumnsOf(config, 'assignments-table')]).toEqual(['licznikWy', 'palWy']);
    expect([...hiddenColumnsOf(config, 'order-position')]).toEqual(['rabatProc']);
    expect(hiddenColumnsOf(config, 'vehicles-table').size).toBe(0);
  });
  it('hides nothing without the list, and ignores names inherited from Object', () => {
    expect(hiddenColumnsOf({}, 'assignments-table').size).toBe(0);
    expect(hiddenColumnsOf(undefined, 'assignments-table').size).toBe(0);
    expect(hiddenColumnsOf(config, 'constructor').size).toBe(0);
  });
});
