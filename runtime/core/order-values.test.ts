import { describe, expect, it } from 'vitest';
import { orderTotals, positionNet } from './order-values.ts';

describe('net value of a position: (price − price × discount%) × quantity, 2 decimals', () => {
  it('applies the discount to the price and multiplies by the quantity', () => {
    expect(positionNet({ cena: 180, rabatProc: 10, ilosc: 1.5 })).toBe(243);
    expect(positionNet({ cena: 210, rabatProc: 15, ilosc: 1 })).toBe(178.5);
  });

  it('rounds half up to the cent', () => {
    expect(positionNet({ cena: 0.05, rabatProc: 50, ilosc: 1 })).toBe(0.03); // 0.025
    expect(positionNet({ cena: 0.01, rabatProc: 50, ilosc: 1 })).toBe(0.01); // 0.005
    expect(positionNet({ cena: 10.01, rabatProc: 33, ilosc: 1 })).toBe(6.71); // 6.7067
    expect(positionNet({ cena: 19.99, rabatProc: 0, ilosc: 0.33 })).toBe(6.6); // 6.5967
  });

  it('is exact where binary fractions are not (0.1 × 3, 1.15 × 100)', () => {
    expect(positionNet({ cena: 0.1, rabatProc: 0, ilosc: 3 })).toBe(0.3);
    expect(positionNet({ cena: 1.15, rabatProc: 0, ilosc: 100 })).toBe(115);
    expect(positionNet({ cena: 4.35, rabatProc: 0, ilosc: 100 })).toBe(435);
  });

  it('is exact at the limits: the money maximum, 100% discount, zero quantity', () => {
    expect(positionNet({ cena: 1_000_000, rabatProc: 0, ilosc: 9999.99 })).toBe(9_999_990_000);
    expect(positionNet({ cena: 1_000_000, rabatProc: 100, ilosc: 5 })).toBe(0);
    expect(positionNet({ cena: 99.99, rabatProc: 1, ilosc: 0 })).toBe(0);
  });

  it('takes the spec defaults for missing amounts as zero (price 0, discount 0)', () => {
    expect(positionNet({ ilosc: 1 })).toBe(0);
    expect(positionNet({ cena: 12.5, ilosc: 2 })).toBe(25);
  });
});

describe('totals of an estimate', () => {
  it('sums all positions into total and the V ones into totalAuthorized', () => {
    const positions = [
      { cena: 180, rabatProc: 10, ilosc: 1.5, autOk: 'V' },
      { cena: 210, rabatProc: 15, ilosc: 1, autOk: 'V' },
      { cena: 390, rabatProc: 15, ilosc: 1, autOk: 'X' },
      { cena: 0.1, rabatProc: 0, ilosc: 1, autOk: '?' },
    ];
    expect(orderTotals(positions)).toEqual({ total: 753.1, totalAuthorized: 421.5 });
  });

  it('adds cents without drift (0.1 + 0.2)', () => {
    expect(orderTotals([{ cena: 0.1, ilosc: 1, autOk: 'V' }, { cena: 0.2, ilosc: 1, autOk: 'V' }])).toEqual({ total: 0.3, totalAuthorized: 0.3 });
  });

  it('uses the stored net when the amounts behind it are not known', () => {
    expect(orderTotals([{ ogNetto: 12.34, autOk: 'V' }, { ogNetto: 1, autOk: 'X' }])).toEqual({ total: 13.34, totalAuthorized: 12.34 });
  });

  it('is zero for an order without positions', () => {
    expect(orderTotals([])).toEqual({ total: 0, totalAuthorized: 0 });
  });
});

describe('default tyre action by season', () => {
  it('is the change to winter tyres from September to March and to summer tyres from April to August', async () => {
    const { defaultTyreAction } = await import('./order-values.ts');
    const byMonth = Array.from({ length: 12 }, (_, i) => defaultTyreAction(i + 1));
    expect(byMonth).toEqual([
      'Wymiana na zimowe', 'Wymiana na zimowe', 'Wymiana na zimowe',
      'Wymiana na letnie', 'Wymiana na letnie', 'Wymiana na letnie', 'Wymiana na letnie', 'Wymiana na letnie',
      'Wymiana na zimowe', 'Wymiana na zimowe', 'Wymiana na zimowe', 'Wymiana na zimowe',
    ]);
  });
});
