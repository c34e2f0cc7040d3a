import { describe, expect, it } from 'vitest';
import { ConditionEvaluator, type Role } from '../../../core/conditions';
import conditionsJson from '../../../../screens/conditions.json';
import wizardJson from '../../../../screens/order-wizard.json';
import serviceOrderJson from '../../../../screens/service-order.json';
import pVariant from '../../../../client-variants/p/variant.json';
import requestSchema from '../../../../schemas/api/order-add-request.schema.json';
import type { ButtonModalDecl, WizardDecl } from '../../config/bundle';
import { itemButtons } from '../button-modal/buttons';
import {
  filledItems, getPath, hiddenFields, initialWizardData, listTotals, lookupBody, newItem, outcomeOf, rowNet, setPath, stepContext,
  stepSchema, submitBody, unsentFields, visibleSteps,
} from './wizard-logic';

const ev = new ConditionEvaluator(conditionsJson);
const wizard = wizardJson as unknown as WizardDecl;
const roles: Role[] = ['USER', 'ADVISOR', 'MANAGER', 'ADMIN'];
/** The configuration flags of each variant as its folder sets them (P: client-variants/p). */
const VARIANT_CONFIG: Record<string, Record<string, unknown>> = { default: {}, P: pVariant.app.config };
const ctxOf = (role: Role, variant = 'default', hideRangeForManager = false, record: Record<string, unknown> = {}) => ({
  role, variant, config: { ...VARIANT_CONFIG[variant], hideRangeForManager }, session: { rola: role }, record,
});
const stepsOf = (role: Role, variant = 'default', hide = false) => visibleSteps(wizard.steps, ev, ctxOf(role, variant, hide)).map((s) => s.id);
const scopeList = wizard.steps.find((s) => s.id === 'scope')!.list!;

// Spec §2 Order wizard: Contractor hidden for non-advisor non-admin; Scope hidden when the range is
// hidden or for manager and user; variant P: Scope and Contractor hidden unless advisor.
describe('the steps of the order wizard for every role, variant P and hideRangeForManager', () => {
  const all = ['details', 'contractor', 'reporter', 'scope', 'remarks', 'attachments', 'notes', 'summary'];
  const noContractorNoScope = ['details', 'reporter', 'remarks', 'attachments', 'notes', 'summary'];
  const expected: Record<string, string[]> = {
    'USER default false': noContractorNoScope,
    'USER default true': noContractorNoScope,
    'USER P false': noContractorNoScope,
    'USER P true': noContractorNoScope,
    'ADVISOR default false': all,
    'ADVISOR default true': all,
    'ADVISOR P false': all,
    'ADVISOR P true': all,
    'MANAGER default false': noContractorNoScope,
    'MANAGER default true': noContractorNoScope,
    'MANAGER P false': noContractorNoScope,
    'MANAGER P true': noContractorNoScope,
    'ADMIN default false': all,
    'ADMIN default true': all,
    'ADMIN P false': noContractorNoScope,
    'ADMIN P true': noContractorNoScope,
  };
  for (const role of roles) {
    for (const variant of ['default', 'P']) {
      for (const hide of [false, true]) {
        it(`${role}, variant ${variant}, hideRangeForManager ${hide}`, () => {
          expect(stepsOf(role, variant, hide)).toEqual(expected[`${role} ${variant} ${hide}`]);
        });
      }
    }
  }
});

describe('a new position of the scope step', () => {
  const tyre = { ...ctxOf('ADVISOR'), record: { autTyp: 2 } };
  const repair = { ...ctxOf('ADVISOR'), record: { autTyp: 1 } };

  it('starts with quantity 1, price 0, discount 0, kind dodatkowa; Wykonaj for a non-tyre order', () => {
    expect(newItem(scopeList, ev, repair, 5)).toEqual({ ilosc: 1, cena: 0, rabatProc: 0, rodzaj: 'dodatkowa', autOk: '?', czynnoscTyp: 'Wykonaj' });
  });

  it('of a tyre order starts with tread 7 and the change to the season ahead', () => {
    expect(newItem(scopeList, ev, tyre, 10)).toMatchObject({ ilosc: 1, stanBieznika: 7, czynnoscTyp: 'Wymiana na zimowe' });
    expect(newItem(scopeList, ev, tyre, 5)).toMatchObject({ czynnoscTyp: 'Wymiana na letnie' });
  });

  it('asks a service kind and offers Wykonaj / Pomiń for a non-tyre order, tyre make, size, tread and tyre actions for a tyre order', () => {
    const itemSchema = (requestSchema as any).properties.rangePositions.items;
    const position = (parent: Record<string, unknown>) => ({ ...ctxOf('ADVISOR'), record: { parent } });
    const nonTyre = stepSchema(itemSchema, scopeList.fields, hiddenFields(scopeList.fields, ev, position({ autTyp: 1 })), ev, position({ autTyp: 1 }));
    expect(nonTyre.required).toEqual(['uslRodzaj', 'tresc', 'ilosc', 'rabatProc']);
    expect((nonTyre.properties!.czynnoscTyp as any).enum).toEqual(['Wykonaj', 'Pomiń']);
    expect([...hiddenFields(scopeList.fields, ev, position({ autTyp: 1 }))]).toEqual(['markaOp', 'rozmiarOp', 'stanBieznika', 'autOk']);
    const tyreHidden = hiddenFields(scopeList.fields, ev, position({ autTyp: 2 }));
    expect([...tyreHidden]).toEqual(['uslRodzaj', 'autOk']);
    const tyreSchema = stepSchema(itemSchema, scopeList.fields, tyreHidden, ev, position({ autTyp: 2 }));
    expect((tyreSchema.properties!.czynnoscTyp as any).enum).toEqual(['Wymiana na letnie', 'Wymiana na zimowe', 'Depozyt', 'Utylizacja', 'Naprawa', 'Zakup']);
    expect(tyreSchema.required).not.toContain('uslRodzaj');
  });

  it('hides quantity, price, discount and net from a manager when cenaWidoczna is not T', () => {
    const columns = (role: Role, cenaWidoczna: string) => scopeList.columns.filter((c) => ev.isVisible(c, { ...ctxOf(role), record: { autTyp: 1, cenaWidoczna } })).map((c) => c.id);
    expect(columns('MANAGER', 'N')).toEqual(['uslRodzaj', 'czynnoscTyp', 'tresc']);
    expect(columns('MANAGER', 'T')).toEqual(['uslRodzaj', 'czynnoscTyp', 'tresc', 'ilosc', 'cena', 'rabatProc', 'ogNetto']);
    expect(columns('ADVISOR', 'N')).toEqual(['uslRodzaj', 'czynnoscTyp', 'tresc', 'ilosc', 'cena', 'rabatProc', 'ogNetto']);
  });
});

describe('net and totals of the positions (the shared function)', () => {
  it('net = (price − price × discount %) × quantity, to 2 decimals', () => {
    expect(rowNet({ cena: 450.5, rabatProc: 10, ilosc: 2 })).toBe(810.9);
    expect(rowNet({ cena: 19.99, rabatProc: 0, ilosc: 1 })).toBe(19.99);
    expect(rowNet({ cena: 0.05, rabatProc: 50, ilosc: 1 })).toBe(0.03);
    expect(rowNet({ cena: 10.1, rabatProc: 33, ilosc: 3 })).toBe(20.3);
  });

  it('total of all rows; totalAuthorized only of those whose autOk is V', () => {
    expect(listTotals([
      { cena: 450.5, rabatProc: 10, ilosc: 2, autOk: 'V' },
      { cena: 19.99, rabatProc: 0, ilosc: 1, autOk: '?' },
      { cena: 0.1, rabatProc: 0, ilosc: 3, autOk: 'V' },
    ])).toEqual({ total: 831.19, totalAuthorized: 811.2 });
  });
});

describe('the data of the order wizard', () => {
  const session = { rola: 'USER', firstName: 'Jan', lastName: 'Kowalski', email: 'jan@x.pl', rejestr: 'WZ12345', pojazdId: 7, marka: 'SKODA', stacjaSerw: 'SS01', telefonKom: null };

  it('prefills a driver\'s name, registration and vehicle from the session, then the type chosen in the service-order modal', () => {
    const data = initialWizardData(wizard, ev, { ...ctxOf('USER'), session }, { 'order.autTyp': 0, 'order.zgloInterw': 'PRZEGLAD' });
    expect(data.order).toMatchObject({ zgloNazwiskoImie: 'Kowalski Jan', zgloEmail: 'jan@x.pl', rejestr: 'WZ12345', pojazdId: 7, autTyp: 0, zgloInterw: 'PRZEGLAD' });
    expect(getPath(data, 'vehicle.marka')).toBe('SKODA');
    expect((data.order as any).zgloTelef).toBeUndefined();
    expect((data.order as any).cenaWidoczna).toBeUndefined();
  });

  it('prefills an advisor\'s station as the reporting company', () => {
    const data = initialWizardData(wizard, ev, { ...ctxOf('ADVISOR'), session: { ...session, rola: 'ADVISOR' } });
    expect(data.order).toMatchObject({ zgloFirma: 'SS01', cenaWidoczna: 'T' });
    expect((data.order as any).zgloNazwiskoImie).toBeUndefined();
  });

  it('sends neither the fields of hidden steps nor those hidden for the role; keeps the values no step shows', () => {
    const data = setPath(setPath({}, 'order', { autTyp: 1, rejestr: 'WZ1', pojazdId: 7, zgloNazwiskoImie: 'A', zgloEmail: 'a@b.pl', cenaWidoczna: 'T', stacjaSerw: 'SS02', zgloZakres: 'x' }), 'rangePositions', [{ tresc: 'a', ilosc: 1, uslRodzaj: 1, parent: 1 }]);
    const user = ctxOf('USER', 'default', false, data.order as any);
    const body = submitBody(wizard, requestSchema as any, { ...data, notes: [{ tresc: 'n' }], vehicle: { marka: 'X' } }, unsentFields(wizard.steps, ev, user));
    expect(body).toEqual({
      order: { autTyp: 1, rejestr: 'WZ1', pojazdId: 7, zgloNazwiskoImie: 'A', zgloEmail: 'a@b.pl' },
      rangePositions: [{ tresc: 'a', ilosc: 1, uslRodzaj: 1 }],
    });
    const admin = submitBody(wizard, requestSchema as any, data, unsentFields(wizard.steps, ev, ctxOf('ADMIN', 'default', false, data.order as any)));
    expect(admin.order).toMatchObject({ cenaWidoczna: 'T', stacjaSerw: 'SS02', zgloZakres: 'x' });
    const advisor = submitBody(wizard, requestSchema as any, data, unsentFields(wizard.steps, ev, ctxOf('ADVISOR', 'default', false, data.order as any)));
    expect(advisor.order).not.toHaveProperty('stacjaSerw');
  });

  it('says "Dodano i zaakceptowano zlecenie" when autNr is set, else "Dodano zlecenie" with the server\'s message as a warning', () => {
    expect(outcomeOf(wizard.submit.outcomes, ev, ctxOf('MANAGER'), { order: { autId: 1, autNr: 'AUT/1' }, message: 'x' })).toEqual({ toast: 'order:messages.addedAndAccepted' });
    expect(outcomeOf(wizard.submit.outcomes, ev, ctxOf('USER'), { order: { autId: 1, autNr: null }, message: 'Uwaga' })).toEqual({ toast: 'order:messages.added', warning: 'Uwaga' });
  });

  it('looks the service plan up for an inspection only, by intervention type and make, and fills the scope with its entries', () => {
    const lookup = wizard.steps[0].beforeNext!;
    expect(ev.matches(lookup.when!, stepContext(ctxOf('USER'), wizard, { order: { autTyp: 0 } }))).toBe(true);
    expect(ev.matches(lookup.when!, stepContext(ctxOf('USER'), wizard, { order: { autTyp: 1 } }))).toBe(false);
    expect(lookupBody(lookup.request.body, { order: { zgloInterw: 'PRZEGLAD' }, vehicle: { marka: 'SKODA' } })).toEqual({ interw: 'PRZEGLAD', marka: 'SKODA' });
    expect(lookupBody(lookup.request.body, { order: { zgloInterw: 'PRZEGLAD' } })).toBeNull();
    const defaults = newItem(scopeList, ev, { ...ctxOf('USER'), record: { autTyp: 0 } }, 5);
    expect(filledItems([{ id: 1, interw: 'PRZEGLAD', marka: 'SKODA', tresc: 'Olej', uslRodzaj: 2, ilosc: 4.5 }], lookup.fill, defaults)).toEqual([
      { ilosc: 4.5, cena: 0, rabatProc: 0, rodzaj: 'planowa', autOk: '?', czynnoscTyp: 'Wykonaj', tresc: 'Olej', uslRodzaj: 2 },
    ]);
    expect(filledItems([], lookup.fill, defaults)).toEqual([]);
  });
});

describe('the service-order modal', () => {
  const screen = serviceOrderJson as unknown as ButtonModalDecl;
  const buttons = (role: Role, configured: string[] = []) => itemButtons(screen, ev, ctxOf(role), (id) => ['order-wizard', ...configured].includes(id));

  it('offers one button per intervention type; the damage report is hidden for an advisor', () => {
    expect(buttons('USER').map((b) => b.item.id)).toEqual(['PRZEGLAD', 'NAPRAWA', 'OPONY', 'SZKODA', 'BADANIE', 'RAPORT']);
    expect(buttons('ADVISOR').map((b) => b.item.id)).toEqual(['PRZEGLAD', 'NAPRAWA', 'OPONY', 'BADANIE', 'RAPORT']);
  });

  it('opens the order wizard with the type chosen; the damage wizard once it is configured, until then says why not', () => {
    const user = buttons('USER');
    expect(user[1]).toMatchObject({ screen: 'order-wizard', values: { 'order.autTyp': 1, 'order.zgloInterw': 'NAPRAWA' }, unavailable: undefined });
    expect(user[3]).toMatchObject({ screen: 'damage-wizard', unavailable: 'order-wizard:serviceOrder.damageUnavailable' });
    expect(buttons('USER', ['damage-wizard'])[3].unavailable).toBeUndefined();
  });
});
