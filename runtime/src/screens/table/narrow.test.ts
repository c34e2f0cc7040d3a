import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../../core/conditions';
import car from '../../../../schemas/entities/car.schema.json';
import conditionsJson from '../../../../screens/conditions.json';
import vehiclesTable from '../../../../screens/vehicles-table.json';
import auditTable from '../../../../screens/audit-table.json';
import auditEntry from '../../../../schemas/entities/audit-entry.schema.json';
import invoicesTable from '../../../../screens/invoices-table.json';
import invoice from '../../../../schemas/entities/invoice.schema.json';
import type { TableScreenDecl } from '../../config/bundle';
import { narrowColumnDef, narrowLines, narrowRowHeight } from './narrow';

const ev = new ConditionEvaluator(conditionsJson);
const t = (key: string) => ({ 'car:fields.aktStanLicz': 'Stan licznika', 'car:fields.dataPrzeg': 'Przegląd', 'car:fields.rejestr': 'Nr rejestracyjny', 'car:fields.markaModel': 'Model' } as Record<string, string>)[key] ?? key;
const screen = vehiclesTable as unknown as TableScreenDecl;
const plain = (s: string) => s.replace(/[\u00a0\u202f]/g, ' ');

describe('a table on a phone shows each row as the lines it declares (issue 49)', () => {
  const lines = narrowLines(screen, car, t, ev, { role: 'MANAGER' });
  it('the vehicle first, then its driver, then the figures that need their names', () => {
    const row = { rejestr: 'WA20001', markaModel: 'Astra', nazwisko: 'Kowalski', imie: 'Jan', mpk: null, aktStanLicz: 125000, dataPrzeg: '2027-05-12' };
    expect(lines(row).map((line) => line.map((p) => (p.label ? `${p.label}: ${plain(p.text)}` : p.text)))).toEqual([
      ['WA20001', 'Astra'],
      ['Kowalski', 'Jan'],
      ['Stan licznika: 125 000 km'],
      ['Przegląd: 12.05.2027'],
    ]);
  });
  it('joins a first name to the last with a space', () => {
    expect(lines({ nazwisko: 'Kowalski', imie: 'Jan' })[1]).toEqual([expect.objectContaining({ text: 'Kowalski', joined: false }), expect.objectContaining({ text: 'Jan', joined: true })]);
  });
  it('is one column across the screen, named by its first line, neither sorted nor filtered there', () => {
    const def = narrowColumnDef(screen, car, t, ev, { role: 'MANAGER' });
    expect(def).toMatchObject({ headerName: 'Nr rejestracyjny · Model', flex: 1, sortable: false, filter: false });
  });
});

describe('Dziennik zmian on a phone: what changed, on which record, and the record a link (issue 49)', () => {
  const lines = narrowLines(auditTable as unknown as TableScreenDecl, auditEntry, (key: string) => key, ev, { role: 'ADMIN' });
  it('shows the record by its name, linked to the path that opens it; a path that leaves the portal is no link', () => {
    const row = { at: '2026-12-03T10:00:00Z', actorLabel: 'admin', action: 'transition', resource: 'order', recordName: 'z 03.12.2026', recordOpen: '/app/order?open=12', fields: 'Status' };
    const [, what] = lines(row);
    expect(what).toHaveLength(3);
    expect(what![2]).toMatchObject({ text: 'z 03.12.2026', href: '/app/order?open=12' });
    expect(what![0]!.href).toBeUndefined();
    for (const recordOpen of [null, 'https://example.com/x', '//example.com/x', 'javascript:alert(1)']) {
      expect(lines({ ...row, recordOpen })[1]![2]!.href, String(recordOpen)).toBeUndefined();
    }
  });
});

describe('invoices on a phone: number and amount, the dates by name, and the download button of the grid (issue 49)', () => {
  const invoicesScreen = invoicesTable as unknown as TableScreenDecl;
  const lines = narrowLines(invoicesScreen, invoice, (key: string) => key, ev, { role: 'MANAGER' });
  const row = { faktId: 7, faktNrCaly: 'FV/2026/12/000001', ogBrutto: 1230.5, faktDataWyst: '2026-12-08', dataZap: null, iloscZal: 2 };
  it('the files column is its button with the row, never its count as text', () => {
    const files = lines(row).flat().find((p) => p.files);
    expect(files).toMatchObject({ text: '', files: { row, value: 2, decl: { type: 'files', link: { idField: 'faktId' } } } });
    expect(lines(row).flat().map((p) => p.text)).not.toContain('2');
  });
  it('an empty date leaves its line out of the text the grid reads aloud and copies; the button is not in it', () => {
    const def = narrowColumnDef(invoicesScreen, invoice, (key: string) => key, ev, { role: 'MANAGER' });
    const text = (def.valueGetter as (p: { data: unknown }) => string)({ data: row });
    expect(text.split('\n')).toEqual([expect.stringMatching(/^FV\/2026\/12\/000001 · 1[\s\u00a0\u202f]?230,50/), 'invoice:fields.faktDataWyst: 08.12.2026']);
  });
  it('a line with a button is a finger high: the row is taller than its lines of text alone', () => {
    expect(narrowRowHeight(invoicesScreen)).toBe(14 + 21 * 3 + 32);
    expect(narrowRowHeight(screen)).toBe(14 + 21 * 4);
  });
});
