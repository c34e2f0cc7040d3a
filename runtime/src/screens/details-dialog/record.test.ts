import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../../core/conditions';
import type { DetailsButtonDecl } from '../../config/bundle';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { recordNameOf } from '../../../core/record-name';
import { factsOf } from '../../actions/facts';
import { buttonInstances, dialogRecord, listRows, namedRecord, titleValue } from './record';

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

  it('names the record in a move\'s confirmation as the title does: an order without a number by its day, never its id (issue 49)', () => {
    const root = join(import.meta.dirname, '../../../..');
    const schema = JSON.parse(readFileSync(join(root, 'schemas/entities/order.schema.json'), 'utf8'));
    const texts = JSON.parse(readFileSync(join(root, 'locales/pl/order.json'), 'utf8'));
    const t = ((key: string, vars?: Record<string, unknown>) => (key === 'order:recordName.unnumbered'
      ? texts.recordName.unnumbered.replace('{{zgloData}}', String(vars?.zgloData)) : key)) as never;
    const reported = { ...record, zgloData: '2026-12-03T09:30:00Z' };
    const named = namedRecord(reported, recordNameOf(schema, reported, t, 'Europe/Warsaw', 'DD.MM.YYYY'));
    const buttons: DetailsButtonDecl[] = [{ id: 'transition', forEach: 'transitions', action: { ...call, body: { to: '{to}' } } }];
    const [accept] = buttonInstances(buttons, named, ev, { role: 'MANAGER' });
    // the fact order-details.json declares for the order in a move's question
    const details = JSON.parse(readFileSync(join(root, 'screens/order-details.json'), 'utf8'));
    const transition = details.actions.find((a: { id: string }) => a.id === 'transition');
    const fact = transition.action.confirmFacts.find((f: { label: string }) => f.label === 'order:confirm.facts.order');
    expect(factsOf([fact], accept.row, t)[0].value).toBe('z 03.12.2026');
    // a numbered order by its number; a record that has its own recordName keeps it
    expect(namedRecord({ ...reported, autNr: 'AUT/2026/1' }, 'AUT/2026/1').recordName).toBe('AUT/2026/1');
    expect(namedRecord({ recordName: 'x' }, 'y').recordName).toBe('x');
    expect(namedRecord(record, null)).toBe(record);
  });
});
