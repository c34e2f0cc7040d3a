import { describe, expect, it } from 'vitest';
import { fillTemplate, nextActive, searchPath, searchRequest, shouldSearch, toOptions, type AutocompleteSource } from './autocomplete';

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

  it('lists employees by name and number, and puts the chosen one\'s name in the input', () => {
    const employees: AutocompleteSource = { endpoint: '/employees', valueField: 'pracId', optionLabel: '{nazwisko} {imie} ({nrPrac})', inputText: '{imie} {nazwisko}' };
    expect(toOptions([{ pracId: 3, nazwisko: 'Nowicki', imie: 'Paweł', nrPrac: '000002' }, { pracId: 4, nazwisko: 'Zając', imie: 'Ewa', nrPrac: null }], employees)).toEqual([
      { value: '3', label: 'Nowicki Paweł (000002)', text: 'Paweł Nowicki' },
      { value: '4', label: 'Zając Ewa', text: 'Ewa Zając' },
    ]);
  });

  it('narrows a search by the form\'s data (the employees of the vehicle\'s client), leaving out an empty parameter', () => {
    const employees: AutocompleteSource = { endpoint: '/employees', valueField: 'pracId', params: { pojazdId: '{pojazdId}' } };
    expect(searchPath(employees, 'Now', { pojazdId: 12 })).toBe('/employees?searchText=Now&pojazdId=12');
    expect(searchPath(employees, 'Now', {})).toBe('/employees?searchText=Now');
    expect(fillTemplate('{rejestr} {marka}', { rejestr: 'WZ12345', marka: null })).toBe('WZ12345');
  });

  it('searches a table resource (the organisational units) by one column, the text contained', () => {
    const units: AutocompleteSource = { endpoint: '/unit/table', valueField: 'jednId', tableFilter: 'nazwa' };
    expect(searchRequest(units, ' Dział ')).toEqual({
      path: '/unit/table',
      body: { startRow: 0, endRow: 20, filterModel: { nazwa: { filterType: 'text', type: 'contains', filter: 'Dział' } } },
    });
    expect(searchRequest(clients, 'tra')).toEqual({ path: '/auto-complete/clients?searchText=tra' });
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
