import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../../core/conditions';
import type { DetailsButtonDecl } from '../../config/bundle';
import { buttonInstances, dialogRecord, listRows, titleValue } from './record';

const reply = {
  order: { autId: 7, autNr: null, status: 1, cenaWidoczna: 'N' },
  positions: [{ pozId: 1, tresc: 'Olej' }, 'not a row'],
  transitions: [{ id: 'accept', to: 2, label: 'order:transitions.accept' }, { id: 'reject', to: 8, label: 'order:transitions.reject' }],
  canConfirmPricing: false,
};
const ev = new ConditionEvaluator({ $defs: { advisor: { properties: { role: { const: 'ADVISOR' } } } } });
const call = { kind: 'call' as const, endpoint: '/x' };

describe('the record of a details dialog', () => {
  it('takes the entity record out of the reply and keeps the reply\'s other members beside its fields', () => {
    const record = dialogRecord(reply, 'order');
    expect(record).toMatchObject({ autId: 7, status: 1, canConfirmPricing: false });
    expect(record.positions).toBe(reply.positions);
    expect(record.order).toBeUndefined();
    expect(dialogRecord(reply)).toBe(reply);
  });

  it('is titled by the first title field that has a value (the order\'s number, else its id)', () => {
    const record = dialogRecord(reply, 'order');
    expect(titleValue(record, ['autNr', 'autId'])).toBe('7');
    expect(titleValue({ ...record, autNr: 'AUT/2026/1' }, ['autNr', 'autId'])).toBe('AUT/2026/1');
    expect(titleValue(record, 'autNr')).toBe('');
  });

  it('lists only the rows (objects) of a member, and nothing for a missing one', () => {
    expect(listRows(dialogRecord(reply, 'order'), 'positions')).toEqual([{ pozId: 1, tresc: 'Olej' }]);
    expect(listRows({}, 'positions')).toEqual([]);
  });
});

describe('the buttons of a details dialog', () => {
  const record = dialogRecord(reply, 'order');

  it('makes one button per status move the server offers, labelled by the move, with its fields for the call', () => {
    const buttons: DetailsButtonDecl[] = [{ id: 'transition', forEach: 'transitions', action: { ...call, body: { to: '{to}' } } }];
    const shown = buttonInstances(buttons, record, ev, { role: 'MANAGER' });
    expect(shown.map((b) => b.label)).toEqual(['order:transitions.accept', 'order:transitions.reject']);
    expect(shown[0].row).toMatchObject({ autId: 7, to: 2 });
    expect(buttonInstances(buttons, { ...record, transitions: [] }, ev, { role: 'MANAGER' })).toEqual([]);
    const toned = buttonInstances([{ ...buttons[0], tone: 'primary', itemTones: { reject: 'danger' } }], record, ev, {});
    expect(toned.map((b) => b.tone)).toEqual(['primary', 'danger']);
  });

  it('shows a button by its role and record conditions and disables it by disabledWhen', () => {
    const confirm: DetailsButtonDecl = {
      id: 'confirm', label: 'order:actions.confirmPricing', action: call,
      visibleWhen: { allOf: [{ $ref: 'conditions#/$defs/advisor' }, { properties: { record: { properties: { canConfirmPricing: { const: true } } } } }] },
    };
    const add: DetailsButtonDecl = { id: 'add', label: 'a:b', action: call, disabledWhen: { properties: { record: { properties: { positionsLocked: { const: true } }, required: ['positionsLocked'] } } } };
    expect(buttonInstances([confirm], record, ev, { role: 'ADVISOR' })).toEqual([]);
    expect(buttonInstances([confirm], { ...record, canConfirmPricing: true }, ev, { role: 'MANAGER' })).toEqual([]);
    expect(buttonInstances([confirm], { ...record, canConfirmPricing: true }, ev, { role: 'ADVISOR' }).map((b) => b.key)).toEqual(['confirm']);
    expect(buttonInstances([add], { ...record, positionsLocked: true }, ev, {})[0].disabled).toBe(true);
    expect(buttonInstances([add], { ...record, positionsLocked: false }, ev, {})[0].disabled).toBe(false);
  });
});
