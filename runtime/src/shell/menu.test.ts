import { describe, expect, it } from 'vitest';
import { ConditionEvaluator, type Role } from '../../core/conditions';
import appJson from '../../../screens/app.json';
import conditionsJson from '../../../screens/conditions.json';
import menuJson from '../../../screens/menu.json';
import type { MenuDecl } from '../config/bundle';
import { visibleMenu } from './menu';

const ev = new ConditionEvaluator(conditionsJson);
const menu = menuJson as unknown as MenuDecl;

function menuOf(role: Role, config: Record<string, unknown> = appJson.config) {
  const groups = visibleMenu(menu, ev, { role, variant: 'default', config, session: { rola: role }, record: null });
  return Object.fromEntries(groups.map((g) => [g.id, g.items.map((i) => i.id)]));
}

// Spec §2 "Menu by role"
describe('side menu by role', () => {
  it('ADMIN: the Pulpit first, records with tyres, invoices, fuel cards and contracts; Administracja with Powiadomienia; Ustawienia with the password change (issue 38)', () => {
    expect(menuOf('ADMIN')).toEqual({
      records: ['dashboard', 'vehicles', 'assignments', 'orders', 'damages', 'inspections', 'tires', 'invoices', 'fuel-cards', 'reports', 'contracts'],
      administration: ['login-history', 'audit', 'email-config', 'users', 'employees', 'acceptance-history', 'notifications-log', 'webhooks', 'config-studio', 'integration-accounts', 'data-import', 'refresh'],
      settings: ['password', 'notifications', 'security', 'language'],
      session: ['sign-out'],
    });
  });

  it('MANAGER: the Pulpit first, records with tyres, invoices, fuel cards and contracts, no service order; Ustawienia', () => {
    expect(menuOf('MANAGER')).toEqual({
      records: ['dashboard', 'vehicles', 'assignments', 'orders', 'damages', 'inspections', 'tires', 'invoices', 'fuel-cards', 'reports', 'contracts'],
      settings: ['password', 'notifications', 'security', 'language'],
      session: ['sign-out'],
    });
  });

  it('USER: odometer, service order and fuel cards; no orders, damages or assignments', () => {
    expect(menuOf('USER')).toEqual({
      records: ['vehicles', 'counter', 'service-order', 'fuel-cards'],
      settings: ['password', 'notifications', 'security', 'language'],
      session: ['sign-out'],
    });
  });

  it('ADVISOR: Zmień pojazd; no damages or assignments', () => {
    expect(menuOf('ADVISOR')).toEqual({
      records: ['vehicles', 'orders', 'service-order', 're-logging'],
      settings: ['password', 'notifications', 'security', 'language'],
      session: ['sign-out'],
    });
  });

  it('hides tyres when the showTiresTable flag is off', () => {
    const off = { ...appJson.config, showTiresTable: false };
    expect(menuOf('MANAGER', off).records).not.toContain('tires');
    expect(menuOf('ADMIN', off).records).not.toContain('tires');
    expect(menuOf('MANAGER', off).records).toContain('invoices');
  });

  it('labels default to menu:groups.<id> and menu:items.<id>', () => {
    const [records] = visibleMenu(menu, ev, { role: 'USER', config: appJson.config });
    expect(records.labelKey).toBe('menu:groups.records');
    expect(records.items[0]).toMatchObject({ labelKey: 'menu:items.vehicles', route: '/app/dane-pojazdu', icon: 'car-front' });
  });

  it('every visible entry has a Polish label', async () => {
    const { hasKey } = await import('../../core/labels');
    const menuTexts = (await import('../../../locales/pl/menu.json')).default;
    for (const role of ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] as Role[]) {
      for (const group of visibleMenu(menu, ev, { role, config: appJson.config })) {
        expect(hasKey({ menu: menuTexts }, group.labelKey)).toBe(true);
        for (const item of group.items) expect(hasKey({ menu: menuTexts }, item.labelKey)).toBe(true);
      }
    }
  });
});
