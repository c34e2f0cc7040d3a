import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/client';
import { fillBody, runCall, type CallEffects } from './call-action';
import { runAction } from './run-action';

const texts: Record<string, string> = {
  'order:confirm.transition': 'Czy na pewno wybrać „{{actionLabel}}” dla tego zlecenia?',
  'f:order': 'Zlecenie',
  'f:vehicle': 'Pojazd',
  'f:value': 'Wartość netto',
  'f:contract': 'rozliczana w ramach kontraktu',
  'order:confirm.pricing': 'Zatwierdzić kosztorys zlecenia {{autNr}}?',
  'app:noConnection': 'Brak połączenia z serwerem',
  'app:ok': 'Ok',
  'x:failed': 'Nie udało się',
  'x:deleted': 'Usunięto pozycję {{pozId}}',
};
const t = (key: string, vars: Record<string, unknown> = {}) => (texts[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_, k) => String(vars[k] ?? ''));

function effects(answer: boolean | 'never' = true, reply: unknown = { message: 'Pomyślnie zatwierdzono kosztorys.' }) {
  const fx = {
    confirm: vi.fn(async () => answer === true),
    request: vi.fn(async () => {
      if (reply instanceof Error) throw reply;
      return reply;
    }),
    toast: vi.fn(),
    t: vi.fn(t),
    reload: vi.fn(),
    close: vi.fn(),
    reveal: vi.fn(async () => undefined),
  } satisfies CallEffects;
  return fx;
}

const order = { autId: 42, autNr: 'AUT/1', item: 'x' };

describe('a call action', () => {
  it('asks Tak/Nie with the record in the question, calls the endpoint filled from the record, shows the server\'s message and reloads', async () => {
    const fx = effects();
    const outcome = await runCall({ method: 'GET', endpoint: '/order/confirm-pricing/{autId}', confirm: 'order:confirm.pricing', reload: ['dialog', 'tables'] }, order, fx);
    expect(outcome).toBe('done');
    expect(fx.confirm).toHaveBeenCalledWith('Zatwierdzić kosztorys zlecenia AUT/1?', []);
    expect(fx.request).toHaveBeenCalledWith('GET', '/order/confirm-pricing/42', undefined);
    expect(fx.toast).toHaveBeenCalledWith('success', 'Pomyślnie zatwierdzono kosztorys.', expect.any(String));
    expect(fx.reload).toHaveBeenCalledWith(['dialog', 'tables']);
    expect(fx.close).not.toHaveBeenCalled();
  });

  it('names what the question is about under it: the number (else the id), the vehicle with its model, the value or what its absence means', async () => {
    const facts = [
      { id: 'autNr', fallbackField: 'autId', label: 'f:order' },
      { id: 'rejestr', append: ['markaModel'], label: 'f:vehicle' },
      { id: 'totals.total', format: 'money' as const, label: 'f:value', emptyText: 'f:contract' },
    ];
    const action = { endpoint: '/order/{autId}/transition', confirm: 'order:confirm.transition', confirmFacts: facts };
    const priced = effects(false);
    await runCall(action, { autId: 296, autNr: null, rejestr: 'GD5527M', markaModel: 'Toyota Corolla', totals: { total: 12345.5 }, actionLabel: 'Akceptuj' }, priced);
    expect(priced.confirm).toHaveBeenCalledWith('Czy na pewno wybrać „Akceptuj” dla tego zlecenia?', [
      { label: 'Zlecenie', value: '296' },
      { label: 'Pojazd', value: 'GD5527M Toyota Corolla' },
      { label: 'Wartość netto', value: expect.stringMatching(/^12\s345,50\s*zł$/) },
    ]);
    const hidden = effects(false);
    await runCall(action, { autId: 7, autNr: 'AUT/2026/0000007', rejestr: 'WZ12345', actionLabel: 'Odrzuć' }, hidden);
    expect(hidden.confirm).toHaveBeenCalledWith(expect.any(String), [
      { label: 'Zlecenie', value: 'AUT/2026/0000007' },
      { label: 'Pojazd', value: 'WZ12345' },
      { label: 'Wartość netto', value: 'rozliczana w ramach kontraktu' },
    ]);
  });

  it('does nothing when the answer is Nie', async () => {
    const fx = effects(false);
    expect(await runCall({ endpoint: '/order/{autId}/transition', confirm: 'order:confirm.transition' }, order, fx)).toBe('cancelled');
    expect(fx.request).not.toHaveBeenCalled();
    expect(fx.toast).not.toHaveBeenCalled();
    expect(fx.reload).not.toHaveBeenCalled();
  });

  it('sends a body whose "{field}" values keep their type, shows its own success text and closes', async () => {
    const fx = effects(true, undefined);
    await runCall({ endpoint: '/order/{autId}/transition', body: { to: '{to}', note: 'Nr {autNr}' }, success: 'x:deleted', close: true }, { ...order, to: 2, pozId: 5 }, fx);
    expect(fx.request).toHaveBeenCalledWith('POST', '/order/42/transition', { to: 2, note: 'Nr AUT/1' });
    expect(fx.toast).toHaveBeenCalledWith('success', 'Usunięto pozycję 5', expect.any(String));
    expect(fx.close).toHaveBeenCalled();
  });

  it('shows the server\'s Polish refusal, or the declared failure text, and neither reloads nor closes', async () => {
    const refused = effects(true, new ApiError(409, { detail: 'Kosztorys został już zatwierdzony.' }, 'x'));
    expect(await runCall({ endpoint: '/a', failure: 'x:failed', reload: ['dialog'], close: true }, order, refused)).toBe('failed');
    expect(refused.toast).toHaveBeenCalledWith('error', 'Kosztorys został już zatwierdzony.', expect.any(String));
    expect(refused.reload).not.toHaveBeenCalled();
    expect(refused.close).not.toHaveBeenCalled();

    const broken = effects(true, new ApiError(500, null, 'HTTP 500'));
    await runCall({ endpoint: '/a', failure: 'x:failed' }, order, broken);
    expect(broken.toast).toHaveBeenCalledWith('error', 'Nie udało się', expect.any(String));
    const offline = effects(true, new ApiError(0, null, 'x'));
    await runCall({ endpoint: '/a' }, order, offline);
    expect(offline.toast).toHaveBeenCalledWith('error', 'Brak połączenia z serwerem', expect.any(String));
  });

  it('fills nested bodies and leaves a missing field empty', () => {
    expect(fillBody({ a: ['{x}', { b: '{y}' }], c: 1 }, { x: 1 })).toEqual({ a: [1, { b: null }], c: 1 });
    expect(fillBody('/p/{x}', null)).toBe('/p/');
  });

  it('runs through runAction, and a screen that offers no call effects says so', async () => {
    const fx = effects();
    await runAction({ kind: 'call', endpoint: '/x/{autId}', method: 'DELETE' }, order, { navigate: vi.fn(), openDialog: vi.fn(), call: fx });
    expect(fx.request).toHaveBeenCalledWith('DELETE', '/x/42', undefined);
    expect(() => runAction({ kind: 'call', endpoint: '/x' }, order, { navigate: vi.fn(), openDialog: vi.fn() })).toThrow(/no "call" actions/);
  });
});

describe('a call that reveals a value once', () => {
  it('shows the answer\'s member in the reveal dialog instead of a toast, and reloads once it is closed', async () => {
    const fx = effects(true, { key: 'flp_secret', id: 7, message: 'Klucz utworzony' });
    const order: string[] = [];
    fx.reveal.mockImplementation(async () => void order.push('revealed'));
    fx.reload.mockImplementation(() => void order.push('reloaded'));
    const reveal = { field: 'key', title: 'k:title', label: 'k:label', warning: 'k:warning' };
    const outcome = await runCall({ endpoint: '/integration-accounts/{id}/keys', body: {}, reveal, reload: ['dialog'] }, { id: 3 }, fx);
    expect(outcome).toBe('done');
    expect(fx.request).toHaveBeenCalledWith('POST', '/integration-accounts/3/keys', {});
    expect(fx.reveal).toHaveBeenCalledWith({ title: 'k:title', label: 'k:label', warning: 'k:warning' }, 'flp_secret');
    expect(fx.toast).not.toHaveBeenCalled();
    expect(order).toEqual(['revealed', 'reloaded']);
  });

  it('falls back to the toast when the answer has no such member', async () => {
    const fx = effects(true, { message: 'Gotowe' });
    await runCall({ endpoint: '/x', reveal: { field: 'key', title: 'a:b', label: 'a:c', warning: 'a:d' } }, {}, fx);
    expect(fx.reveal).not.toHaveBeenCalled();
    expect(fx.toast).toHaveBeenCalledWith('success', 'Gotowe', expect.any(String));
  });
});

describe('a choose action', () => {
  const isDamage = { properties: { record: { properties: { czySzkoda: { const: true } }, required: ['czySzkoda'] } } };
  const matches = (condition: unknown, row: Record<string, unknown> | null | undefined) =>
    (condition as typeof isDamage).properties.record.properties.czySzkoda.const === row?.czySzkoda;
  const rowClick = {
    kind: 'choose',
    cases: [
      { when: isDamage, action: { kind: 'openDialog', screen: 'damage-details', idField: 'sprawaId' } },
      { when: true, action: { kind: 'openDialog', screen: 'order-details', idField: 'autId' } },
    ],
  };
  const always = (condition: unknown, row: Record<string, unknown> | null | undefined) => condition === true || matches(condition, row);

  it('runs the first case whose condition the row satisfies', () => {
    const fx = { navigate: vi.fn(), openDialog: vi.fn(), matches: always };
    runAction(rowClick, { autId: 1, czySzkoda: false }, fx);
    runAction(rowClick, { autId: 2, sprawaId: 9, czySzkoda: true }, fx);
    // the dialog is opened with the row (a details dialog without a load endpoint shows it)
    expect(fx.openDialog.mock.calls).toEqual([
      ['order-details', 1, { record: { autId: 1, czySzkoda: false } }],
      ['damage-details', 9, { record: { autId: 2, sprawaId: 9, czySzkoda: true } }],
    ]);
  });

  it('does nothing when no case matches', () => {
    const fx = { navigate: vi.fn(), openDialog: vi.fn(), matches };
    runAction({ kind: 'choose', cases: [rowClick.cases[0]] }, { autId: 1, czySzkoda: false }, fx);
    expect(fx.openDialog).not.toHaveBeenCalled();
  });
});
