import { describe, expect, it } from 'vitest';
import { fileNameOf, pathOf } from './import-api';

describe('the paths of the Import API', () => {
  it('fill the declaration and run placeholders, encoded', () => {
    expect(pathOf('/import/declarations/{name}/mapping', { name: 'mileage-reading' })).toBe('/import/declarations/mileage-reading/mapping');
    expect(pathOf('/import/runs/{id}/errors.xlsx', { id: 'a b/c' })).toBe('/import/runs/a%20b%2Fc/errors.xlsx');
  });
});

describe('the name of the downloaded errors file', () => {
  it('is the UTF-8 name when the server gives one, else the plain one', () => {
    expect(fileNameOf(`attachment; filename="bledy.xlsx"; filename*=UTF-8''b%C5%82%C4%99dy.xlsx`)).toBe('błędy.xlsx');
    expect(fileNameOf('attachment; filename="import-12.xlsx"')).toBe('import-12.xlsx');
    expect(fileNameOf(`attachment; filename="x.xlsx"; filename*=UTF-8''%E0%A4%A.xlsx`)).toBe('x.xlsx');
    expect(fileNameOf(null)).toBe('');
  });
});
