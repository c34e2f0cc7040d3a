import { describe, expect, it } from 'vitest';
import { nextActive, searchPath, shouldSearch, toOptions, type AutocompleteSource } from './autocomplete';

const clients: AutocompleteSource = { endpoint: '/auto-complete/clients', query: 'searchText', valueField: 'klient', labelField: 'klientNazwa' };

describe('the autocomplete input', () => {
  it('searches only after more than 2 characters (spec §5), spaces not counted', () => {
    expect(shouldSearch('KL', clients)).toBe(false);
    expect(shouldSearch('  KL ', clients)).toBe(false);
    expect(shouldSearch('KL0', clients)).toBe(true);
    expect(shouldSearch('', { minLength: 0 })).toBe(true);
  });

  it('asks the source endpoint with the typed text as its query parameter', () => {
    expect(searchPath(clients, ' trans bud ')).toBe('/auto-complete/clients?searchText=trans+bud');
    expect(searchPath({ endpoint: '/x', valueField: 'id' }, 'a&b')).toBe('/x?searchText=a%26b');
  });

  it('makes options of the answer, showing the value with its label, skipping items without a value', () => {
    expect(toOptions([{ klient: 'KL001', klientNazwa: 'Transbud' }, { klient: 'KL002', klientNazwa: null }, { klientNazwa: 'x' }], clients)).toEqual([
      { value: 'KL001', label: 'KL001 — Transbud' },
      { value: 'KL002', label: 'KL002' },
    ]);
    expect(toOptions({ error: 1 }, clients)).toEqual([]);
  });

  it('moves the highlight with the arrow keys, wrapping at both ends', () => {
    expect(nextActive(-1, 'ArrowDown', 3)).toBe(0);
    expect(nextActive(2, 'ArrowDown', 3)).toBe(0);
    expect(nextActive(0, 'ArrowUp', 3)).toBe(2);
    expect(nextActive(1, 'End', 3)).toBe(2);
    expect(nextActive(1, 'a', 3)).toBe(1);
    expect(nextActive(1, 'ArrowDown', 0)).toBe(-1);
  });
});
