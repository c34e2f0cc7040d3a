import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../../core/conditions';
import car from '../../../../schemas/entities/car.schema.json';
import conditionsJson from '../../../../screens/conditions.json';
import vehiclesTable from '../../../../screens/vehicles-table.json';
import type { TableScreenDecl } from '../../config/bundle';
import auditEntry from '../../../../schemas/entities/audit-entry.schema.json';
import auditTable from '../../../../screens/audit-table.json';
import { buildColumnDefs, columnSizes, estimateText, filterFieldOf, filterFor, OPTIONS_FILTER } from './columns';

const ev = new ConditionEvaluator(conditionsJson);
const t = (key: string) => `[${key}]`;
const defs = buildColumnDefs(vehiclesTable as unknown as TableScreenDecl, car, t, ev, { role: 'MANAGER' });
const byId = Object.fromEntries(defs.map((d) => [d.colId, d]));

describe('table columns', () => {
  it('takes headers from <entity>:fields.<id> and keeps order, width, pinning and hiding', () => {
    expect(defs.map((d) => d.colId)).toEqual(vehiclesTable.columns.map((c) => c.id));
    expect(byId.rejestr).toMatchObject({ headerName: '[car:fields.rejestr]', initialPinned: 'left', initialHide: false });
    for (const def of defs) expect(def.initialWidth, def.colId).toBeGreaterThanOrEqual(def.minWidth!);
    expect(byId.grupa.initialHide).toBe(true);
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

describe('coded and icon columns (orders list)', async () => {
  const order = (await import('../../../../schemas/entities/order.schema.json')).default;
  const login = (await import('../../../../schemas/entities/login-history.schema.json')).default;
  const ordersTable = (await import('../../../../screens/orders-table.json')).default as unknown as TableScreenDecl;
  const loginTable = (await import('../../../../screens/login-history-table.json')).default as unknown as TableScreenDecl;
  const { choicesFor, CHOICE_FILTER } = await import('./columns');
  const { cellRendererName } = await import('./cells/names');
  const orderDefs = Object.fromEntries(buildColumnDefs(ordersTable, order, t, ev, { role: 'ADMIN', config: {} }).map((d) => [d.colId, d]));

  it('filters coded columns by a choice list of their labels, sending the codes', () => {
    const roles = buildColumnDefs(loginTable, login, t, ev, { role: 'ADMIN' }).find((d) => d.colId === 'rola')!;
    expect(roles.filter).toBe(CHOICE_FILTER);
    expect(roles.filterParams.choices).toEqual([
      { value: 'USER', label: '[app:roles.USER]' },
      { value: 'ADVISOR', label: '[app:roles.ADVISOR]' },
      { value: 'MANAGER', label: '[app:roles.MANAGER]' },
      { value: 'ADMIN', label: '[app:roles.ADMIN]' },
      { value: 'UNKNOWN', label: '[app:roles.UNKNOWN]' },
    ]);
    expect(orderDefs.autTyp.filterParams.choices.map((c: any) => c.value)).toEqual([0, 1, 2, 3, 4, 6]);
    expect(orderDefs.status.filterParams.choices[4]).toEqual({ value: 4, label: '[order:statuses.4]' });
    expect(orderDefs.czyKosztorys.filterParams.choices).toEqual([
      { value: true, label: '[order:icons.hasCostEstimate]' },
      { value: false, label: '[order:icons.noCostEstimate]' },
    ]);
    expect(choicesFor({ id: 'rejestr' }, order.properties.rejestr, t)).toBeUndefined();
    expect(orderDefs.rejestr.filter).toBe('agTextColumnFilter');
  });

  it('renders icon columns by the registered renderer, and reads their value as its meaning', () => {
    expect(orderDefs.status.cellRenderer).toBe(cellRendererName('icon'));
    expect(orderDefs.status.cellRendererParams.icons['4']).toEqual({ icon: 'check-circle-fill', text: undefined, label: '[order:statuses.4]', tone: 'success' });
    expect((orderDefs.status.valueFormatter as any)({ value: 4 })).toBe('[order:statuses.4]');
    expect((orderDefs.czyTermin.valueFormatter as any)({ value: null })).toBe('');
    expect(orderDefs.reporterRole).toMatchObject({ field: 'zgloKto', headerName: '[order:columns.reporterRole]', headerTooltip: '[order:columns.reporterRoleTooltip]' });
    expect(orderDefs.reporterRole.cellRendererParams.icons.MANAGER.text).toBe('[app:roleIcons.MANAGER]');
  });

  it('highlights the status text of an authorised order only', () => {
    const rule = Object.values(orderDefs.statusZnaczenie.cellClassRules as Record<string, (p: any) => boolean>)[0];
    expect(Object.keys(orderDefs.statusZnaczenie.cellClassRules!)).toEqual(['cell-highlight cell-highlight-success']);
    expect(rule({ data: { status: 4, statusZnaczenie: 'Autoryzowano' } })).toBe(true);
    expect(rule({ data: { status: 0, statusZnaczenie: 'Zgłoszono' } })).toBe(false);
    expect(rule({ data: undefined })).toBe(false);
  });

  it('aligns a coded number shown by its labels as text, to the left, and an amount to the right', () => {
    // "Status" shows the order's status code as its label ("Oczekuje na akceptację…"): a text, not a number
    expect(orderDefs.statusZnaczenie.type).toBeUndefined();
    expect(orderDefs.stanLicz.type).toBe('rightAligned');
  });

  it('hides the scope column for a driver and, with hideRangeForManager, for a manager', () => {
    const ids = (role: string, config: Record<string, unknown>) => buildColumnDefs(ordersTable, order, t, ev, { role: role as any, config }).map((d) => d.colId);
    expect(ids('MANAGER', { hideRangeForManager: false })).toContain('zgloZakres');
    expect(ids('MANAGER', { hideRangeForManager: true })).not.toContain('zgloZakres');
    expect(ids('ADVISOR', { hideRangeForManager: true })).toContain('zgloZakres');
    expect(ids('USER', {})).not.toContain('zgloZakres');
    expect(orderDefs.zgloNazwiskoImie.initialHide).toBe(true);
  });
});

describe('columns as exports see them', async () => {
  const order = (await import('../../../../schemas/entities/order.schema.json')).default;
  const acceptance = (await import('../../../../schemas/entities/acceptance-history.schema.json')).default;
  const ordersTable = (await import('../../../../screens/orders-table.json')).default as unknown as TableScreenDecl;
  const { cellTextFor, exportColumnOf } = await import('./columns');
  const column = (id: string) => ordersTable.columns.find((c) => c.id === id)!;
  const property = (id: string) => (order.properties as Record<string, any>)[column(id).field ?? column(id).id];

  it('gives the CSV the same text the grid shows', () => {
    const defs = Object.fromEntries(buildColumnDefs(ordersTable, order, t, ev, { role: 'ADMIN', config: {} }).map((d) => [d.colId, d]));
    for (const [id, value] of [['status', 4], ['zgloData', '2024-07-01T10:15:00Z'], ['stanLicz', 125000], ['zgloKto', 'MANAGER'], ['czyKosztorys', false], ['autNr', null]] as const) {
      expect(cellTextFor(column(id), property(id), t)(value), id).toBe((defs[id].valueFormatter as any)({ value }));
    }
  });

  it('sends the field, the header as shown, the format and the label of each coded value', () => {
    expect(exportColumnOf(column('zgloData'), property('zgloData'), 'Data zgłoszenia', t)).toEqual({ field: 'zgloData', header: 'Data zgłoszenia', format: 'datetime', labels: null });
    expect(exportColumnOf(column('stanLicz'), property('stanLicz'), 'Przebieg', t).format).toBe('km');
    expect(exportColumnOf(column('status'), property('status'), 'Stan', t).labels).toMatchObject({ 4: '[order:statuses.4]', 0: '[order:statuses.0]' });
    expect(exportColumnOf(column('reporterRole'), property('reporterRole'), 'Z', t)).toMatchObject({ field: 'zgloKto', labels: { MANAGER: '[app:roles.MANAGER]' } });
    expect(exportColumnOf(column('czyKosztorys'), property('czyKosztorys'), 'K', t).labels).toEqual({ true: '[order:icons.hasCostEstimate]', false: '[order:icons.noCostEstimate]' });
  });

  it('takes every label under the prefix for codes the schema does not enumerate', () => {
    const groups = { regulamin: 'Regulamin', rodo: 'Klauzula RODO' };
    const tObjects = ((key: string, vars?: Record<string, unknown>) => (vars?.returnObjects && key === 'terms:groups' ? groups : `[${key}]`)) as typeof t;
    expect(exportColumnOf({ id: 'group', valueLabels: 'terms:groups' }, acceptance.properties.group, 'Grupa', tObjects).labels).toEqual(groups);
  });
});

describe('column sizes', () => {
  const measure = estimateText;
  it('never makes a column narrower than its header\'s longest word', () => {
    const { minWidth, width } = columnSizes({ id: 'rejestr', width: 90 }, 'Nr rejestracyjny', undefined, [], measure, true);
    expect(minWidth).toBeGreaterThanOrEqual(measure('rejestracyjny', 'header') + 60);
    expect(width).toBe(minWidth);
  });

  it('fits a short identifier of the schema (a 17-character VIN) and the longest label of a coded value', () => {
    const vin = columnSizes({ id: 'nrPodw', width: 100 }, 'VIN', { type: 'string', maxLength: 17 }, [], measure, true);
    expect(vin.minWidth).toBeGreaterThanOrEqual(measure('WVWZZZ1JZXW000001', 'cell'));
    const role = columnSizes({ id: 'rola', width: 100 }, 'Rola', { type: 'string' }, ['Użytkownik', 'Doradca Serwisowy'], measure, true);
    expect(role.minWidth).toBeGreaterThanOrEqual(measure('Doradca Serwisowy', 'cell') + 30);
  });

  it('does not widen a column to a label of a sentence\'s length (a failure\'s reason): it is cut, its tooltip whole', () => {
    const reason = 'Brak konfiguracji serwera poczty (Administracja → Konfiguracja email); wiadomość czeka w kolejce.';
    const error = columnSizes({ id: 'lastError', width: 260 }, 'Błąd', { type: 'string' }, [reason, 'Odbiorca nie ma adresu.'], measure, true);
    expect(error.minWidth).toBeLessThan(measure(reason, 'cell'));
    expect(error.minWidth).toBeGreaterThanOrEqual(measure('Odbiorca nie ma adresu.', 'cell'));
    expect(error.width).toBe(260);
  });

  it('keeps a declared width above the minimum, and a declared minWidth', () => {
    expect(columnSizes({ id: 'marka', width: 300 }, 'Marka', { type: 'string' }, [], measure, true)).toEqual({ minWidth: expect.any(Number), width: 300 });
    expect(columnSizes({ id: 'nrSprawy', minWidth: 170 }, 'Nr sprawy', { type: 'string' }, [], measure, true).minWidth).toBe(170);
  });

  it('gives every column a tooltip with its whole text, and none to a rendered cell', () => {
    expect((byId.nrPodw.tooltipValueGetter as any)({ value: 'WVWZZZ1JZXW000001' })).toBe('WVWZZZ1JZXW000001');
    expect((byId.aktStanLicz.tooltipValueGetter as any)({ value: 12000 }).replace(/\s/g, ' ')).toBe('12 000 km');
  });

  it('gives a column whose filter declares its options the options filter, asking its endpoint and filtering the declared field', () => {
    const screen = {
      ...vehiclesTable,
      columns: [{ id: 'rejestr', filter: { options: '/somewhere/choices', field: 'pojazdId' } }, { id: 'marka', filter: { options: '/x', field: 'marka', placeholder: 'car:search' } }, { id: 'nrPodw' }],
    } as unknown as TableScreenDecl;
    const [chosen, hinted, plain] = buildColumnDefs(screen, car, t, ev, { role: 'MANAGER' });
    expect(chosen).toMatchObject({ colId: 'rejestr', field: 'rejestr', filter: OPTIONS_FILTER, filterParams: { options: '/somewhere/choices', placeholder: '[table:optionsFilter.search]' } });
    expect(hinted.filterParams).toEqual({ options: '/x', placeholder: '[car:search]' });
    expect(plain.filter).toBe('agTextColumnFilter');
    expect(screen.columns.map(filterFieldOf)).toEqual(['pojazdId', 'marka', 'nrPodw']);
    // a column the schema keeps out of filtering gets none, whatever it declares
    const unfiltered = buildColumnDefs({ ...screen, columns: [{ id: 'rejestr', filterable: false, filter: { options: '/x', field: 'pojazdId' } }] } as unknown as TableScreenDecl, car, t, ev, { role: 'MANAGER' });
    expect(unfiltered[0].filter).toBe(false);
  });

  it('makes Dziennik zmian\'s "Kto" a choice of persons by the trail\'s indexed actor, showing the login', () => {
    const audit = buildColumnDefs(auditTable as unknown as TableScreenDecl, auditEntry, t, ev, { role: 'ADMIN' });
    const who = audit.find((d) => d.colId === 'actorLabel')!;
    expect(who).toMatchObject({ field: 'actorLabel', filter: OPTIONS_FILTER, filterParams: { options: '/audit/actors', placeholder: '[audit:actorSearch]' } });
    expect(filterFieldOf((auditTable as unknown as TableScreenDecl).columns.find((c) => c.id === 'actorLabel')!)).toBe('actor');
    expect((auditEntry.properties as Record<string, unknown>).actor).toBeDefined();
  });
});
