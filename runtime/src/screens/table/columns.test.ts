import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../../core/conditions';
import car from '../../../../schemas/entities/car.schema.json';
import conditionsJson from '../../../../screens/conditions.json';
import vehiclesTable from '../../../../screens/vehicles-table.json';
import type { TableScreenDecl } from '../../config/types';
import { buildColumnDefs, filterFor } from './columns';

const ev = new ConditionEvaluator(conditionsJson);
const t = (key: string) => `[${key}]`;
const defs = buildColumnDefs(vehiclesTable as unknown as TableScreenDecl, car, t, ev, { role: 'MANAGER' });
const byId = Object.fromEntries(defs.map((d) => [d.colId, d]));

describe('table columns', () => {
  it('takes headers from <entity>:fields.<id> and keeps order, width, pinning and hiding', () => {
    expect(defs.map((d) => d.colId)).toEqual(vehiclesTable.columns.map((c) => c.id));
    expect(byId.rejestr).toMatchObject({ headerName: '[car:fields.rejestr]', width: 130, pinned: 'left', hide: false });
    expect(byId.grupa.hide).toBe(true);
  });

  it('chooses the filter from the schema property', () => {
    expect(byId.rejestr.filter).toBe('agTextColumnFilter');
    expect(byId.aktStanLicz.filter).toBe('agNumberColumnFilter');
    expect(byId.dataPrzeg.filter).toBe('agDateColumnFilter');
    expect(filterFor({ type: ['boolean', 'null'] })).toBe('agTextColumnFilter');
    expect(filterFor({ type: 'string', 'x-filter': false })).toBe(false);
  });

  it('formats dates and kilometres; empty cells stay empty', () => {
    const format = (id: string, value: unknown) => (byId[id].valueFormatter as any)({ value });
    expect(format('dataPrzeg', '2025-06-30')).toBe('30.06.2025');
    expect(format('aktStanLicz', 125000).replace(/\s/g, ' ')).toBe('125 000 km');
    expect(format('dataPrzeg', null)).toBe('');
  });

  it('drops a column whose condition fails', () => {
    const screen = { ...vehiclesTable, columns: [{ id: 'rejestr' }, { id: 'mpk', visibleWhen: { $ref: 'conditions#/$defs/admin' } }] };
    expect(buildColumnDefs(screen as unknown as TableScreenDecl, car, t, ev, { role: 'MANAGER' }).map((d) => d.colId)).toEqual(['rejestr']);
  });
});
