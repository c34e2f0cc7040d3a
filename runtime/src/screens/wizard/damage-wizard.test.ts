/**
 * The damage wizard as screens/damage-wizard.json declares it: which risk types each role is
 * offered, by default and under the regional dealer's `damageRiskTypeLimits` (read from its
 * folder, the same list the server refuses by), its steps per role, its defaults and the flat
 * body POST /damage/add receives; and the regional dealer's intervention-type flag in the order wizard.
 */
import { describe, expect, it } from 'vitest';
import { ConditionEvaluator, type Role } from '../../../core/conditions';
import conditionsJson from '../../../../screens/conditions.json';
import damageWizardJson from '../../../../screens/damage-wizard.json';
import orderWizardJson from '../../../../screens/order-wizard.json';
import appJson from '../../../../screens/app.json';
import dealerVariant from '../../../../client-variants/regional-dealer/variant.json';
import requestSchema from '../../../../schemas/api/damage-add-request.schema.json';
import type { WizardDecl } from '../../config/bundle';
import { hiddenFields, initialWizardData, nowValue, offeredOptions, recordSchemaOf, stepSchema, submitBody, unsentFields, visibleSteps } from './wizard-logic';

const ev = new ConditionEvaluator(conditionsJson);
const wizard = damageWizardJson as unknown as WizardDecl;
const roles: Role[] = ['USER', 'ADVISOR', 'MANAGER', 'ADMIN'];
const CONFIG: Record<string, Record<string, unknown>> = {
  default: appJson.config,
  'regional-dealer': { ...appJson.config, ...dealerVariant.app.config },
};
const ctxOf = (role: Role, variant = 'default', session: Record<string, unknown> = { rola: role }) => ({ role, variant, config: CONFIG[variant], session, record: {} });
const riskField = wizard.steps.flatMap((s) => s.fields ?? []).find((f) => f.id === 'zpolisTyp')!;
const ALL = ['AC', 'OC', 'AC z regresem', 'OC nasze'];

describe('the risk types the damage wizard offers', () => {
  const expected: Record<string, string[]> = {
    'USER default': ALL,
    'ADVISOR default': ALL,
    'MANAGER default': ALL,
    'ADMIN default': ALL,
    'USER regional-dealer': ALL,
    'ADVISOR regional-dealer': ['AC', 'OC'],
    'MANAGER regional-dealer': ['AC', 'OC'],
    'ADMIN regional-dealer': ALL,
  };
  for (const variant of ['default', 'regional-dealer']) {
    for (const role of roles) {
      it(`${role} under ${variant}`, () => {
        const ctx = ctxOf(role, variant);
        expect(offeredOptions(riskField, ev, ctx).map((o) => o.value)).toEqual(expected[`${role} ${variant}`]);
        // the step's form accepts only those
        const details = wizard.steps.find((s) => s.id === 'details')!;
        const schema = stepSchema(recordSchemaOf(wizard, requestSchema), details.fields!, hiddenFields(details.fields!, ev, ctx), ev, ctx) as any;
        expect(schema.properties.zpolisTyp.enum).toEqual(expected[`${role} ${variant}`]);
      });
    }
  }

  it('follows any list a configuration sets, not a variant by name', () => {
    const config = { damageRiskTypeLimits: [{ when: { properties: { role: { const: 'USER' } } }, refused: ['OC'] }] };
    expect(offeredOptions(riskField, ev, { role: 'USER', variant: 'any', config, session: {} }).map((o) => o.value)).toEqual(['AC', 'AC z regresem', 'OC nasze']);
    expect(offeredOptions(riskField, ev, { role: 'MANAGER', variant: 'any', config, session: {} }).map((o) => o.value)).toEqual(ALL);
  });
});

describe('the damage wizard', () => {
  it('shows every step to a manager and an admin, and a driver their own participant step without the picker', () => {
    const ids = (role: Role) => visibleSteps(wizard.steps, ev, ctxOf(role)).map((s) => s.id);
    expect(ids('MANAGER')).toEqual(['details', 'reporter', 'participant', 'external', 'remarks', 'attachments', 'notes', 'summary']);
    expect(ids('ADMIN')).toEqual(ids('MANAGER'));
    expect(ids('USER')).toEqual(['details', 'reporter', 'participantSelf', 'external', 'remarks', 'attachments', 'notes', 'summary']);
  });

  it('starts with risk type AC, TU number "-", the dates now, and for a driver the vehicle, reporter and participant of the session', () => {
    const session = { rola: 'USER', rejestr: 'WZ12345', pojazdId: 7, stanLicz: 1200, lastName: 'Nowak', firstName: 'Anna', email: 'a@b.pl', telefonKom: '600700800', pracId: 3 };
    const data = initialWizardData(wizard, ev, ctxOf('USER', 'default', session)) as any;
    const minute = nowValue('dateTime', 'Europe/Warsaw');
    expect(data.damage).toMatchObject({
      zpolisTyp: 'AC', nrZglosz: '-', rejestr: 'WZ12345', pojazdId: 7, stanLicz: 1200, zgloNazwiskoImie: 'Nowak Anna', zgloEmail: 'a@b.pl',
      zgloTelef: '600700800', pracId: 3,
    });
    for (const date of ['dataSzkod', 'dataZgloSzkody', 'dataZgloFm']) expect(data.damage[date].slice(0, 13)).toBe(minute.slice(0, 13));
    const manager = initialWizardData(wizard, ev, ctxOf('MANAGER')) as any;
    expect(manager.damage.rejestr).toBeUndefined();
    expect(manager.damage.pracId).toBeUndefined();
  });

  it('sends a driver\'s own participant, whose picker the driver does not see', () => {
    const ctx = ctxOf('USER');
    const data = { damage: { pojazdId: 1, rejestr: 'WZ1', pracId: 2, rodzSzkod: 'Kolizja' } };
    expect(submitBody(wizard, requestSchema, data, unsentFields(wizard.steps, ev, ctx, wizard.alwaysSent))).toMatchObject({ pracId: 2 });
    expect(submitBody(wizard, requestSchema, data, unsentFields(wizard.steps, ev, ctx))).not.toHaveProperty('pracId');
  });

  it('sends the damage at the top level of POST /damage/add, without the notes', () => {
    const ctx = ctxOf('MANAGER');
    const data = { damage: { pojazdId: 1, rejestr: 'WZ1', pracId: 2, rodzSzkod: 'Kolizja', sprawcaNazImie: 'Jan Obcy', uwagi: '' }, notes: [{ tresc: 'x' }] };
    expect(submitBody(wizard, requestSchema, data, unsentFields(wizard.steps, ev, ctx))).toEqual({
      pojazdId: 1, rejestr: 'WZ1', pracId: 2, rodzSzkod: 'Kolizja', sprawcaNazImie: 'Jan Obcy',
    });
  });

  it('writes the time now as the dateTime and date widgets hold it, in the portal\'s time zone', () => {
    const at = new Date('2026-01-31T23:30:00Z');
    expect(nowValue('dateTime', 'Europe/Warsaw', at)).toBe('2026-02-01T00:30');
    expect(nowValue('date', 'Europe/Warsaw', at)).toBe('2026-02-01');
  });
});

describe('the intervention type of the order wizard under the regional dealer', () => {
  const field = (orderWizardJson as unknown as WizardDecl).steps[0].fields!.find((f) => f.id === 'zgloInterw')!;
  it('is hidden from a driver of the regional dealer only', () => {
    for (const variant of ['default', 'regional-dealer']) {
      for (const role of roles) {
        expect(ev.isVisible(field, ctxOf(role, variant)), `${role} ${variant}`).toBe(!(role === 'USER' && variant === 'regional-dealer'));
      }
    }
  });
});
