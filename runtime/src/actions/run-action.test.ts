import { describe, expect, it, vi } from 'vitest';
import { runAction } from './run-action';

const effects = () => ({ navigate: vi.fn(), openDialog: vi.fn() });

describe('configured actions', () => {
  it('navigates to a path filled with the row\'s values', () => {
    const fx = effects();
    runAction({ kind: 'navigate', to: '/app/vehicle/{pojazdId}' }, { pojazdId: 'A/1' }, fx);
    expect(fx.navigate).toHaveBeenCalledWith('/app/vehicle/A%2F1');
  });

  it('opens a dialog with the row\'s id, or with its idField, and the row itself', () => {
    const fx = effects();
    runAction({ kind: 'openDialog', screen: 'vehicle-details' }, { id: 7, pojazdId: 9 }, fx);
    runAction({ kind: 'openDialog', screen: 'vehicle-details', idField: 'pojazdId' }, { id: 7, pojazdId: 9 }, fx);
    runAction({ kind: 'openDialog', screen: 'vehicle-details' }, null, fx);
    expect(fx.openDialog.mock.calls).toEqual([
      ['vehicle-details', 7, { record: { id: 7, pojazdId: 9 } }],
      ['vehicle-details', 9, { record: { id: 7, pojazdId: 9 } }],
      ['vehicle-details', undefined, undefined],
    ]);
  });

  it('opens a dialog in a mode with the row it is about and the button to press first', () => {
    const fx = effects();
    runAction({ kind: 'openDialog', screen: 'user-form', mode: 'copy' }, { id: 3, login: 'a' }, fx);
    runAction({ kind: 'openDialog', screen: 'user-form', mode: 'create' }, null, fx);
    runAction({ kind: 'openDialog', screen: 'user-form', mode: 'preview', then: 'delete' }, { id: 4 }, fx);
    expect(fx.openDialog.mock.calls).toEqual([
      ['user-form', 3, { record: { id: 3, login: 'a' }, mode: 'copy', then: undefined }],
      ['user-form', undefined, { record: undefined, mode: 'create', then: undefined }],
      ['user-form', 4, { record: { id: 4 }, mode: 'preview', then: 'delete' }],
    ]);
  });

  it('opens a details dialog on the tab asked for (a reminder opens the insurance tab)', () => {
    const fx = effects();
    runAction({ kind: 'openDialog', screen: 'vehicle-details', tab: 'insurance' }, { id: 7 }, fx);
    runAction({ kind: 'openDialog', screen: 'vehicle-details', tab: 'insurance' }, null, fx);
    runAction({ kind: 'openDialog', screen: 'counter', mode: 'create', tab: 'x' }, { id: 7 }, fx);
    expect(fx.openDialog.mock.calls).toEqual([
      ['vehicle-details', 7, { record: { id: 7 }, tab: 'insurance' }],
      ['vehicle-details', undefined, { tab: 'insurance' }],
      ['counter', 7, { record: { id: 7 }, mode: 'create', then: undefined, tab: 'x' }],
    ]);
  });

  it('opens a dialog with the values it starts with (the order type chosen)', () => {
    const fx = effects();
    runAction({ kind: 'openDialog', screen: 'order-wizard', values: { 'order.autTyp': 1 } }, null, fx);
    expect(fx.openDialog.mock.calls).toEqual([['order-wizard', undefined, { values: { 'order.autTyp': 1 } }]]);
  });

  it('refuses a kind it does not know, naming where kinds live', () => {
    expect(() => runAction({ kind: 'toString' }, null, effects())).toThrow(/no action kind "toString"/);
  });
});
