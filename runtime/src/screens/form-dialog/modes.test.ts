import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../../core/conditions';
import type { FormDialogDecl, FormFieldDecl } from '../../config/bundle';
import { conditionalRequired, dateAhead, dialogSchema, hintPath, initialData, modeOf, sentData, visibleButtons, withRequired } from './modes';

const request = {
  title: 'developer text',
  type: 'object',
  required: ['login'],
  properties: { id: {}, login: { type: 'string', title: 'x' }, rola: { enum: ['USER', 'ADVISOR', 'MANAGER', 'ADMIN'] }, klientSymbol: {}, dataDo: {} },
};
const modes: FormDialogDecl['modes'] = {
  create: { title: 'u:create', values: { rola: { const: 'MANAGER' }, dataDo: { date: { years: 1 } } } },
  copy: { title: 'u:copy', fromRecord: true, clear: ['id', 'login'] },
  edit: { title: 'u:edit', fromRecord: true },
};
const row = { id: 5, login: 'jan', rola: 'USER', klientSymbol: null, klientNazwa: 'not in the form', dataDo: '2027-01-31' };
const ev = new ConditionEvaluator({ $defs: { advisorOn: { properties: { config: { properties: { advisorRoleEnabled: { const: true } }, required: ['advisorRoleEnabled'] } } } } });
const manager = { properties: { record: { properties: { rola: { const: 'MANAGER' } }, required: ['rola'] } } };

describe('the modes of a form dialog', () => {
  it('is closed (mode none) unless opened in a mode the screen declares', () => {
    expect(modeOf({ modes }, undefined)).toBeNull();
    expect(modeOf({ modes }, 'preview')).toBeNull();
    expect(modeOf({ modes }, 'toString')).toBeNull();
    expect(modeOf({ modes }, 'edit')?.name).toBe('edit');
  });

  it('creates from the declared values: role MANAGER, expiry one year ahead', () => {
    expect(initialData(modes.create!, row, request, new Date(2026, 10, 23))).toEqual({ rola: 'MANAGER', dataDo: '2027-11-23' });
    expect(dateAhead(new Date(2024, 1, 29), { years: 1 })).toBe('2025-03-01');
  });

  it('starts a new child record from the table that opened it: the embedding record\'s id and the table\'s group', () => {
    const upload = { title: 'a:add', values: { id: { opener: 'srcId' as const }, group: { opener: 'group' as const } } };
    expect(initialData(upload, undefined, {}, new Date(), null, { srcId: 7, group: 'SA_POJA' })).toEqual({ id: 7, group: 'SA_POJA' });
    // a table that is not embedded has no parent: nothing is made up
    expect(initialData(upload, undefined, {}, new Date(), null, { group: 'SA_POJA' })).toEqual({ group: 'SA_POJA' });
  });

  it('edits the row\'s fields the request knows, and copies them without id and login', () => {
    expect(initialData(modes.edit!, row, request, new Date())).toEqual({ id: 5, login: 'jan', rola: 'USER', dataDo: '2027-01-31' });
    expect(initialData(modes.copy!, row, request, new Date())).toEqual({ rola: 'USER', dataDo: '2027-01-31' });
  });

  it('starts from the signed-in user\'s vehicle or the record\'s field, leaving out an empty one', () => {
    const counter = { properties: { pojaId: {}, data: {}, licznik: {} } };
    const mode = { title: 'c:t', values: { pojaId: { session: 'pojazdId' }, data: { date: {} } } } as FormDialogDecl['modes']['create'];
    expect(initialData(mode!, undefined, counter, new Date(2026, 10, 23), { pojazdId: 7 })).toEqual({ pojaId: 7, data: '2026-11-23' });
    // a fleet manager has no vehicle of their own: the field starts empty, to be chosen
    expect(initialData(mode!, undefined, counter, new Date(2026, 10, 23), { pojazdId: null })).toEqual({ data: '2026-11-23' });
    const fromVehicle = { title: 'c:t', values: { pojaId: { record: 'pojazdId', session: 'pojazdId' } } } as FormDialogDecl['modes']['create'];
    // opened about a vehicle (its details), the record's; from the menu, the user's own
    expect(initialData(fromVehicle!, { pojazdId: 9, rejestr: 'WZ1' }, counter, new Date(), { pojazdId: 7 })).toEqual({ pojaId: 9 });
    expect(initialData(fromVehicle!, undefined, counter, new Date(), { pojazdId: 7 })).toEqual({ pojaId: 7 });
  });

  it('loads the hint about the chosen vehicle only once the form holds it', () => {
    expect(hintPath('/car/{pojaId}', { pojaId: 12 })).toBe('/car/12');
    expect(hintPath('/car/{pojaId}', {})).toBeNull();
    expect(hintPath('/car/{pojaId}', { pojaId: '' })).toBeNull();
  });

  it('offers an option only while its condition holds, unless the record already has it', () => {
    const fields = [{ id: 'rola', options: [{ value: 'USER', label: 'a:b' }, { value: 'ADVISOR', label: 'a:c', visibleWhen: { $ref: 'conditions#/$defs/advisorOn' } }] }] as FormFieldDecl[];
    const off = dialogSchema(request, fields, ev, { config: { advisorRoleEnabled: false } });
    expect((off.properties!.rola as any).enum).toEqual(['USER']);
    const ordered = [{ id: 'rola', options: [{ value: 'MANAGER', label: 'a:m' }, { value: 'USER', label: 'a:u' }, { value: 'GHOST', label: 'a:g' }] }] as FormFieldDecl[];
    expect((dialogSchema(request, ordered, ev, {}).properties!.rola as any).enum).toEqual(['MANAGER', 'USER']);
    expect(off.title).toBeUndefined();
    expect((dialogSchema(request, fields, ev, { config: { advisorRoleEnabled: true } }).properties!.rola as any).enum).toEqual(['USER', 'ADVISOR']);
    expect((dialogSchema(request, fields, ev, { config: {} }, { rola: 'ADVISOR' }).properties!.rola as any).enum).toEqual(['USER', 'ADVISOR']);
  });

  it('requires a client of a manager only, with its own message, unless the field is hidden', () => {
    const fields = [{ id: 'klientSymbol', requiredWhen: manager, requiredMessage: 'user:errors.clientRequired' }] as FormFieldDecl[];
    const now = conditionalRequired(fields, ev, { record: { rola: 'MANAGER' } }, new Set());
    expect([...now]).toEqual([['klientSymbol', 'user:errors.clientRequired']]);
    expect(conditionalRequired(fields, ev, { record: { rola: 'USER' } }, new Set()).size).toBe(0);
    expect(conditionalRequired(fields, ev, { record: { rola: 'MANAGER' } }, new Set(['klientSymbol'])).size).toBe(0);
    const schema = withRequired({ type: 'object', required: ['login'], properties: { klientSymbol: { type: 'string' } } }, now);
    expect(schema.required).toEqual(['login', 'klientSymbol']);
    expect((schema.properties!.klientSymbol as any)['x-messages'].required).toBe('user:errors.clientRequired');
  });

  it('hides delete in create and copy mode', () => {
    const buttons = [{ id: 'delete', label: 'u:d', request: { endpoint: '/users/{id}' }, hiddenWhen: { properties: { mode: { enum: ['create', 'copy'] } } } }];
    expect(visibleButtons(buttons, ev, { mode: 'create' })).toEqual([]);
    expect(visibleButtons(buttons, ev, { mode: 'copy' })).toEqual([]);
    expect(visibleButtons(buttons, ev, { mode: 'edit' }).map((b) => b.id)).toEqual(['delete']);
  });

  it('sends the shown fields that have a value', () => {
    expect(sentData({ login: 'a', klientSymbol: 'KL1', password: undefined }, new Set(['klientSymbol']))).toEqual({ login: 'a' });
  });

  it('offers a field\'s options as its only values when the request schema lists none (service kinds 1–6), each by its condition', () => {
    const tyre = { properties: { parent: { properties: { autTyp: { const: 2 } }, required: ['autTyp'] } } };
    const positionRequest = { type: 'object', properties: { uslRodzaj: { type: ['integer', 'null'], minimum: 1, maximum: 6 }, czynnoscTyp: { enum: ['Naprawa', 'Wykonaj', 'Pomiń', null] } } };
    const fields = [
      { id: 'uslRodzaj', options: [{ value: 1, label: 'a:1' }, { value: 2, label: 'a:2' }] },
      { id: 'czynnoscTyp', options: [{ value: 'Naprawa', label: 'a:n', visibleWhen: tyre }, { value: 'Wykonaj', label: 'a:w', visibleWhen: { not: tyre } }] },
    ] as FormFieldDecl[];
    const forTyres = dialogSchema(positionRequest, fields, ev, { parent: { autTyp: 2 } });
    expect((forTyres.properties!.uslRodzaj as any).enum).toEqual([1, 2]);
    expect((forTyres.properties!.czynnoscTyp as any).enum).toEqual(['Naprawa']);
    expect((dialogSchema(positionRequest, fields, ev, { parent: { autTyp: 1 } }).properties!.czynnoscTyp as any).enum).toEqual(['Wykonaj']);
  });
});
