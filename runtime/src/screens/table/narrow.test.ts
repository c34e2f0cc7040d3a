import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../../core/conditions';
import car from '../../../../schemas/entities/car.schema.json';
import conditionsJson from '../../../../screens/conditions.json';
import vehiclesTable from '../../../../screens/vehicles-table.json';
import auditTable from '../../../../screens/audit-table.json';
import auditEntry from '../../../../schemas/entities/audit-entry.schema.json';
import type { TableScreenDecl } from '../../config/bundle';
import { narrowColumnDef, narrowLines } from './narrow';

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
