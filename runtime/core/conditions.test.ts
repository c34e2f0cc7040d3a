import { describe, expect, it } from 'vitest';
import { asCondition, ConditionEvaluator } from './conditions';

const named = {
  $defs: {
    adminOrManager: { properties: { role: { enum: ['ADMIN', 'MANAGER'] } } },
    tiresOn: { properties: { config: { properties: { showTiresTable: { const: true } }, required: ['showTiresTable'] } } },
    allInsuranceEmpty: {
      properties: { record: { properties: { ocPolisa: { type: 'null' }, acPolisa: { type: 'null' } } } },
    },
  },
};

describe('ConditionEvaluator', () => {
  const ev = new ConditionEvaluator(named);

  it('matches a role rule', () => {
    expect(ev.matches({ $ref: 'conditions#/$defs/adminOrManager' }, { role: 'ADMIN' })).toBe(true);
    expect(ev.matches({ $ref: 'conditions#/$defs/adminOrManager' }, { role: 'USER' })).toBe(false);
  });

  it('combines a role rule with a configuration flag', () => {
    const rule = { allOf: [{ $ref: 'conditions#/$defs/adminOrManager' }, { $ref: 'conditions#/$defs/tiresOn' }] };
    expect(ev.matches(rule, { role: 'MANAGER', config: { showTiresTable: true } })).toBe(true);
    expect(ev.matches(rule, { role: 'MANAGER', config: { showTiresTable: false } })).toBe(false);
    expect(ev.matches(rule, { role: 'MANAGER', config: {} })).toBe(false);
  });

  it('looks at the record: all insurance fields empty', () => {
    const rule = { $ref: 'conditions#/$defs/allInsuranceEmpty' };
    expect(ev.matches(rule, { record: { ocPolisa: null, acPolisa: null } })).toBe(true);
    expect(ev.matches(rule, { record: { ocPolisa: 'PL1', acPolisa: null } })).toBe(false);
  });

  it('treats a missing condition as true and boolean schemas literally', () => {
    expect(ev.matches(undefined, {})).toBe(true);
    expect(ev.matches(false, {})).toBe(false);
  });

  it('evaluates visibleWhen and hiddenWhen together', () => {
    const item = { visibleWhen: { properties: { role: { const: 'ADVISOR' } } }, hiddenWhen: { properties: { variant: { const: 'p' } } } };
    expect(ev.isVisible(item, { role: 'ADVISOR', variant: 'default' })).toBe(true);
    expect(ev.isVisible(item, { role: 'ADVISOR', variant: 'p' })).toBe(false);
    expect(ev.isVisible(item, { role: 'USER' })).toBe(false);
  });

  it('a rule on a missing session or record does not throw', () => {
    expect(ev.matches({ properties: { session: { properties: { firstLogin: { const: true } }, required: ['firstLogin'] } } }, {})).toBe(false);
  });

  it('looks at the parent record of a dialog (a position\'s form sees its order), and a missing parent fails a rule that needs it', () => {
    const tyreOrder = { properties: { parent: { properties: { autTyp: { const: 2 } }, required: ['autTyp'] } } };
    expect(ev.matches(tyreOrder, { record: { tresc: 'x' }, parent: { autTyp: 2 } })).toBe(true);
    expect(ev.matches(tyreOrder, { parent: { autTyp: 0 } })).toBe(false);
    expect(ev.matches(tyreOrder, {})).toBe(false);
    expect(ev.matches({ not: tyreOrder }, {})).toBe(true);
  });
});

describe('asCondition', () => {
  it('takes a JSON Schema (an object, true or false) as it is', () => {
    const schema = { properties: { role: { const: 'ADMIN' } } };
    expect(asCondition(schema)).toBe(schema);
    expect(asCondition(false)).toBe(false);
  });

  it('refuses what no JSON Schema is, saying what it got', () => {
    expect(() => asCondition('ADMIN')).toThrow(/not "ADMIN"/);
    expect(() => asCondition(null)).toThrow(TypeError);
    expect(() => asCondition([true])).toThrow(TypeError);
  });
});
