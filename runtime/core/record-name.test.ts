import { describe, expect, it } from 'vitest';
import { recordNameFields, recordNameOf } from './record-name';

const order = {
  properties: { autId: { type: 'integer' }, autNr: { type: ['string', 'null'] }, zgloData: { type: ['string', 'null'], format: 'date-time' } },
  'x-recordName': [{ fields: ['autNr'] }, { fields: [{ id: 'zgloData', format: 'date' }], text: 'order:recordName.unnumbered' }],
};
const employee = { properties: { imie: { type: 'string' }, nazwisko: { type: 'string' }, dataJednOd: { type: 'string', format: 'date' } }, 'x-recordName': [{ fields: ['imie', 'nazwisko'] }, { fields: ['nazwisko'] }] };
const texts: Record<string, string> = { 'order:recordName.unnumbered': 'z {{zgloData}}' };
const t = (key: string, vars?: Record<string, unknown>) => (texts[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, name) => String(vars?.[name] ?? ''));

describe('a record as users know it', () => {
  it('names an order by its number, and one without a number by the day it was reported on the portal\'s clock', () => {
    expect(recordNameOf(order, { autId: 12, autNr: 'AUT/2026/0000012', zgloData: '2026-12-03T10:00:00Z' }, t, 'Europe/Warsaw', 'DD.MM.YYYY')).toBe('AUT/2026/0000012');
    expect(recordNameOf(order, { autId: 12, autNr: null, zgloData: '2026-12-02T23:30:00Z' }, t, 'Europe/Warsaw', 'DD.MM.YYYY')).toBe('z 03.12.2026');
    expect(recordNameOf(order, { autId: 12, autNr: '  ', zgloData: new Date('2026-12-03T10:00:00Z') }, t, 'Europe/Warsaw', 'DD.MM.YYYY')).toBe('z 03.12.2026');
  });

  it('joins the fields of a way without a text, and falls to the next way when one is empty', () => {
    expect(recordNameOf(employee, { imie: 'Jan', nazwisko: 'Kowalski' }, t, 'UTC', 'DD.MM.YYYY')).toBe('Jan Kowalski');
    expect(recordNameOf(employee, { imie: null, nazwisko: 'Kowalski' }, t, 'UTC', 'DD.MM.YYYY')).toBe('Kowalski');
  });

  it('names nothing when no way fits or none is declared', () => {
    expect(recordNameOf(order, { autId: 12, autNr: null, zgloData: null }, t, 'UTC', 'DD.MM.YYYY')).toBeNull();
    expect(recordNameOf({ properties: {} }, { id: 1 }, t, 'UTC', 'DD.MM.YYYY')).toBeNull();
    expect(recordNameOf(order, null, t, 'UTC', 'DD.MM.YYYY')).toBeNull();
  });

  it('lists the fields a query must read to name a record', () => {
    expect(recordNameFields(order)).toEqual(['autNr', 'zgloData']);
    expect(recordNameFields(employee)).toEqual(['imie', 'nazwisko']);
  });
});
