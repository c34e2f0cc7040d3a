import { describe, expect, it } from 'vitest';
import { openFieldOf, openValue, recordFilter } from './open-param';

describe('openFieldOf', () => {
  it('is the field the row action opens its dialog with', () => {
    expect(openFieldOf({ kind: 'openDialog', screen: 'vehicle-details', idField: 'pojazdId' } as never)).toBe('pojazdId');
    expect(openFieldOf({ kind: 'openDialog' })).toBe('id');
  });

  it('of a choose, that of its first case (the orders table: autId before sprawaId)', () => {
    const orders = {
      kind: 'choose',
      cases: [
        { when: {}, action: { kind: 'openDialog', idField: 'autId' } },
        { when: {}, action: { kind: 'openDialog', idField: 'sprawaId' } },
      ],
    };
    expect(openFieldOf(orders)).toBe('autId');
  });
});

describe('openValue', () => {
  it('a numeric field takes a number, and nothing when the text is not one', () => {
    expect(openValue('123', { type: 'integer' })).toBe(123);
    expect(openValue('123', { type: ['integer', 'null'] })).toBe(123);
    expect(openValue('12a', { type: 'integer' })).toBeNull();
    expect(openValue('', { type: 'number' })).toBeNull();
  });

  it('any other field (or one the entity does not describe) takes the text', () => {
    expect(openValue('WZ12345', { type: 'string' })).toBe('WZ12345');
    expect(openValue('7', undefined)).toBe('7');
  });
});

describe('recordFilter', () => {
  it('finds the one record with an equals filter of the field\'s kind', () => {
    expect(recordFilter('autId', 123)).toEqual({ autId: { filterType: 'number', type: 'equals', filter: 123 } });
    expect(recordFilter('login', 'jan')).toEqual({ login: { filterType: 'text', type: 'equals', filter: 'jan' } });
  });
});
