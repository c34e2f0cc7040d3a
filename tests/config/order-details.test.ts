/**
 * The tab and button rules of screens/order-details.json, evaluated as the browser evaluates them
 * (runtime/core's condition evaluator on the loaded bundle), for every role and the flags that
 * change them (spec §2 order detail tabs, §6 range display).
 */
import { describe, expect, it } from 'vitest';
import { ConditionEvaluator, type Role } from '../../runtime/core/conditions.ts';
import { loadBundle } from '../../server/config/load-bundle.ts';
import { ROOT } from '../support/test-app.ts';

const bundle = loadBundle({ root: ROOT });
const ev = new ConditionEvaluator(bundle.conditions);
const screen = bundle.screens['order-details'] as any;
const order = { autId: 1, status: 1, cenaWidoczna: 'N', positionsLocked: false, canConfirmPricing: true, editable: { zlecZakres: false, uwagi: false, cenaWidoczna: false } };

function tabs(role: Role, config: Record<string, unknown> = {}) {
  const ctx = { role, config: { ...bundle.config, ...config }, record: order };
  return screen.tabs.filter((t: any) => ev.isVisible(t, ctx)).map((t: any) => t.id);
}

describe('the order details', () => {
  it('shows the reporter to everyone but the advisor', () => {
    expect(tabs('ADVISOR')).not.toContain('reporter');
    for (const role of ['ADMIN', 'MANAGER', 'USER'] as const) expect(tabs(role)).toContain('reporter');
  });

  it('hides the scope from a driver always and from a manager when hideRangeForManager is set', () => {
    expect(tabs('USER')).not.toContain('scope');
    expect(tabs('MANAGER', { hideRangeForManager: false })).toContain('scope');
    expect(tabs('MANAGER', { hideRangeForManager: true })).not.toContain('scope');
    expect(tabs('ADVISOR', { hideRangeForManager: true })).toContain('scope');
    expect(tabs('ADMIN')).toEqual(['order', 'contractor', 'reporter', 'scope', 'remarks', 'attachments', 'notes', 'history']);
  });

  it('offers the history of changes to ADMIN and MANAGER only (ACCESS.md)', () => {
    expect(tabs('MANAGER')).toContain('history');
    expect(tabs('USER')).not.toContain('history');
    expect(tabs('ADVISOR')).not.toContain('history');
  });

  it('hides quantity, price, discount and net from a manager when the order hides prices, never from the advisor', () => {
    const list = screen.tabs.find((t: any) => t.id === 'scope').lists[0];
    const priceColumns = (role: Role, cenaWidoczna: string) =>
      list.columns.filter((c: any) => ['ilosc', 'cena', 'rabatProc', 'ogNetto'].includes(c.id) && ev.isVisible(c, { role, record: { ...order, cenaWidoczna } })).length;
    expect(priceColumns('MANAGER', 'N')).toBe(0);
    expect(priceColumns('MANAGER', 'T')).toBe(4);
    expect(priceColumns('ADVISOR', 'N')).toBe(4);
  });

  it('offers the cost estimate to the advisor only, and the order edit only to whom the server lets edit a field', () => {
    const button = (id: string) => screen.actions.find((a: any) => a.id === id);
    for (const role of ['ADMIN', 'MANAGER', 'USER'] as const) expect(ev.isVisible(button('confirm-pricing'), { role, record: order })).toBe(false);
    expect(ev.isVisible(button('confirm-pricing'), { role: 'ADVISOR', record: order })).toBe(true);
    expect(ev.isVisible(button('confirm-pricing'), { role: 'ADVISOR', record: { ...order, canConfirmPricing: false } })).toBe(false);
    expect(ev.isVisible(button('edit'), { role: 'MANAGER', record: order })).toBe(false);
    expect(ev.isVisible(button('edit'), { role: 'MANAGER', record: { ...order, editable: { ...order.editable, zlecZakres: true } } })).toBe(true);
  });
});
