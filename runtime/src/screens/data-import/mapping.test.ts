import { describe, expect, it } from 'vitest';
import { duplicateFields, initialMapping, sampleOf, unmappedRequired } from './mapping';

const fields = [
  { name: 'nrRej', label: 'Numer rejestracyjny', required: true },
  { name: 'vin', label: 'VIN', required: true },
  { name: 'marka', label: 'Marka', required: false },
];

describe('the mapping a file starts with', () => {
  it('takes the remembered field of a known column, the suggestion for a new one, and drops fields the declaration lacks', () => {
    const preview = { columns: ['Rej.', 'Nr nadwozia', 'Producent', 'Uwagi'], suggested: { 'Rej.': 'nrRej', 'Nr nadwozia': null, Producent: 'marka', Uwagi: 'gone' } };
    expect(initialMapping(preview, { 'Nr nadwozia': 'vin', Producent: null }, fields)).toEqual({ 'Rej.': 'nrRej', 'Nr nadwozia': 'vin', Producent: null, Uwagi: null });
  });

  it('uses the suggestion alone when nothing was remembered', () => {
    expect(initialMapping({ columns: ['VIN'], suggested: { VIN: 'vin' } }, null, fields)).toEqual({ VIN: 'vin' });
  });
});

describe('what stops the user going on', () => {
  it('names the required fields that no column fills', () => {
    expect(unmappedRequired({ A: 'nrRej', B: 'marka', C: null }, fields).map((f) => f.name)).toEqual(['vin']);
    expect(unmappedRequired({ A: 'nrRej', B: 'vin' }, fields)).toEqual([]);
  });

  it('names a field given to two columns, with both columns', () => {
    expect(duplicateFields({ A: 'vin', B: 'marka', C: 'vin', D: null })).toEqual([{ field: 'vin', columns: ['A', 'C'] }]);
    expect(duplicateFields({ A: 'vin', B: null, C: null })).toEqual([]);
  });
});

describe('the sample values of a column', () => {
  it('are distinct, non-empty and few', () => {
    const preview = { columns: ['a', 'b'], sample: [['1', 'x'], ['1', ''], ['2', 'y'], ['3', 'z'], ['4', 'w']] };
    expect(sampleOf(preview, 'a')).toEqual(['1', '2', '3']);
    expect(sampleOf(preview, 'b', 2)).toEqual(['x', 'y']);
  });
});
