import { describe, expect, it } from 'vitest';
import { computedValue } from './computed';

describe('values a form computes as the user types', () => {
  it('shows a position\'s net as the server will store it', () => {
    expect(computedValue('positionNet', { cena: 45.5, ilosc: 2, rabatProc: 10 })).toBe(81.9);
    expect(computedValue('positionNet', { cena: 52.9, ilosc: 4.5, rabatProc: 10 })).toBe(214.25);
  });

  it('counts what is not typed yet as nothing, and knows no other names', () => {
    expect(computedValue('positionNet', { cena: 10 })).toBe(0);
    expect(computedValue('toString', {})).toBeUndefined();
  });
});
