import { describe, expect, it } from 'vitest';
import { ConditionEvaluator, type Role } from '../../core/conditions';
import appJson from '../../../screens/app.json';
import conditionsJson from '../../../screens/conditions.json';
import menuJson from '../../../screens/menu.json';
import routesJson from '../../../screens/routes.json';
import type { RoutesDecl } from '../config/bundle';
import { chooseScreen, findRoute, isModalPath, landingPath, resolveRoute } from './resolve';

const ev = new ConditionEvaluator(conditionsJson);
const routes = routesJson as unknown as RoutesDecl;
const ctxOf = (role: Role | null, config: Record<string, unknown> = appJson.config) => ({
  role,
  variant: 'default',
  config,
  session: role ? { rola: role } : null,
  record: null,
});
const resolveAs = (role: Role | null, path: string, config?: Record<string, unknown>) =>
  resolveRoute(routes, path, role !== null, ev, ctxOf(role, config));

describe('route table', () => {
  it('sends a guest on a protected route to the login screen', () => {
    expect(resolveAs(null, '/app/dane-pojazdu')).toEqual({ kind: 'redirect', to: '/' });
    expect(resolveAs(null, '/app/counter')).toEqual({ kind: 'redirect', to: '/' });
  });

  it('shows the login screen to a guest on / and /login, and sends a signed-in user to the landing page', () => {
    expect(resolveAs(null, '/')).toMatchObject({ kind: 'screen', screenId: 'login' });
    expect(resolveAs(null, '/login')).toMatchObject({ kind: 'screen', screenId: 'login' });
    expect(resolveAs('MANAGER', '/')).toEqual({ kind: 'redirect', to: '/app/dane-pojazdu' });
    expect(resolveAs('USER', '/login')).toEqual({ kind: 'redirect', to: '/app/dane-pojazdu' });
  });

  it('redirects /app to the vehicles page and resolves /sign-out to the sign-out action', () => {
    expect(resolveAs('ADMIN', '/app')).toEqual({ kind: 'redirect', to: '/app/dane-pojazdu' });
    expect(resolveAs('ADMIN', '/sign-out')).toMatchObject({ kind: 'signOut' });
    expect(resolveAs(null, '/sign-out')).toMatchObject({ kind: 'signOut' });
  });

  it('shows the single-vehicle panels to USER and ADVISOR and the table to ADMIN and MANAGER', () => {
    expect(resolveAs('USER', '/app/dane-pojazdu')).toMatchObject({ kind: 'screen', screenId: 'vehicle-panels' });
    expect(resolveAs('ADVISOR', '/app/dane-pojazdu')).toMatchObject({ kind: 'screen', screenId: 'vehicle-panels' });
    expect(resolveAs('MANAGER', '/app/dane-pojazdu')).toMatchObject({ kind: 'screen', screenId: 'vehicles-table' });
    expect(resolveAs('ADMIN', '/app/dane-pojazdu')).toMatchObject({ kind: 'screen', screenId: 'vehicles-table' });
  });

  it('gives the page the help of the screen shown: the driver\'s vehicle, not the vehicles table', () => {
    expect(resolveAs('USER', '/app/dane-pojazdu')).toMatchObject({ help: 'help:vehicle' });
    expect(resolveAs('ADVISOR', '/app/dane-pojazdu')).toMatchObject({ help: 'help:vehicle' });
    expect(resolveAs('MANAGER', '/app/dane-pojazdu')).toMatchObject({ help: 'help:vehicles' });
    expect(resolveAs('MANAGER', '/app/pulpit')).toMatchObject({ help: 'help:dashboard' });
  });

  it('shows the to-do above the panels, and the strip of reminders above the table for ADMIN and MANAGER only', () => {
    expect(resolveAs('USER', '/app/dane-pojazdu')).toMatchObject({ before: ['todo'] });
    expect(resolveAs('ADVISOR', '/app/dane-pojazdu')).toMatchObject({ before: ['todo'] });
    expect(resolveAs('MANAGER', '/app/dane-pojazdu')).toMatchObject({ before: ['reminder-strip'] });
    expect(resolveAs('ADMIN', '/app/dane-pojazdu')).toMatchObject({ before: ['reminder-strip'] });
    // the strip's condition also holds for the table's other readers: an unknown role sees the table alone
    expect(resolveAs('UNKNOWN' as Role, '/app/dane-pojazdu')).toEqual({ kind: 'screen', route: findRoute(routes, '/app/dane-pojazdu'), screenId: 'vehicles-table', help: 'help:vehicles' });
    expect(resolveAs('ADMIN', '/app/order')).not.toHaveProperty('before');
  });

  it('opens the Pulpit for ADMIN and MANAGER only', () => {
    expect(resolveAs('MANAGER', '/app/pulpit')).toMatchObject({ kind: 'screen', screenId: 'dashboard' });
    expect(resolveAs('ADMIN', '/app/pulpit')).toMatchObject({ kind: 'screen', screenId: 'dashboard' });
    expect(resolveAs('USER', '/app/pulpit')).toMatchObject({ kind: 'noAccess' });
    expect(resolveAs('ADVISOR', '/app/pulpit')).toMatchObject({ kind: 'noAccess' });
  });

  it('lands everyone on the vehicles page by default (spec), and per role where landing is a list', () => {
    for (const role of ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] as Role[]) expect(landingPath(routes, ev, ctxOf(role))).toBe('/app/dane-pojazdu');
    const perRole = {
      ...routes,
      landing: [
        { when: { $ref: 'conditions#/$defs/adminOrManager' }, path: '/app/pulpit' },
        { when: { $ref: 'conditions#/$defs/advisor' }, path: '/app/order' },
        { path: '/app/dane-pojazdu' },
      ],
    } as RoutesDecl;
    expect(landingPath(perRole, ev, ctxOf('MANAGER'))).toBe('/app/pulpit');
    expect(landingPath(perRole, ev, ctxOf('ADMIN'))).toBe('/app/pulpit');
    expect(landingPath(perRole, ev, ctxOf('ADVISOR'))).toBe('/app/order');
    expect(landingPath(perRole, ev, ctxOf('USER'))).toBe('/app/dane-pojazdu');
    // the sign-in page sends a signed-in user to their own landing page
    expect(resolveRoute(perRole, '/', true, ev, ctxOf('MANAGER'))).toEqual({ kind: 'redirect', to: '/app/pulpit' });
    expect(resolveRoute(perRole, '/login', true, ev, ctxOf('USER'))).toEqual({ kind: 'redirect', to: '/app/dane-pojazdu' });
    // without a matching entry (a list the meta-schema would refuse), the last one
    expect(landingPath({ landing: [{ when: false, path: '/a' }, { when: false, path: '/b' }] }, ev, ctxOf('USER'))).toBe('/b');
  });

  it('refuses routes a role may not open', () => {
    expect(resolveAs('USER', '/app/przydzialy')).toMatchObject({ kind: 'noAccess' });
    expect(resolveAs('USER', '/app/order')).toMatchObject({ kind: 'noAccess' });
    expect(resolveAs('ADVISOR', '/app/damage')).toMatchObject({ kind: 'noAccess' });
    expect(resolveAs('MANAGER', '/app/users')).toMatchObject({ kind: 'noAccess' });
    expect(resolveAs('ADMIN', '/app/users')).toMatchObject({ kind: 'screen', screenId: 'users-table' });
    expect(resolveAs('ADVISOR', '/app/order')).toMatchObject({ kind: 'screen', screenId: 'orders-table' });
  });

  it('opens tyres only for ADMIN and MANAGER and only while showTiresTable is on', () => {
    expect(resolveAs('MANAGER', '/app/tire')).toMatchObject({ kind: 'screen', screenId: 'tires-table' });
    expect(resolveAs('MANAGER', '/app/tire', { ...appJson.config, showTiresTable: false })).toMatchObject({ kind: 'noAccess' });
    expect(resolveAs('USER', '/app/tire')).toMatchObject({ kind: 'noAccess' });
  });

  it('marks the odometer and service-order entries as modal routes', () => {
    expect(isModalPath(routes, '/app/counter')).toBe(true);
    expect(isModalPath(routes, '/app/service-order')).toBe(true);
    expect(isModalPath(routes, '/app/dane-pojazdu')).toBe(false);
  });

  it('answers an unknown path with notFound', () => {
    expect(resolveAs('ADMIN', '/app/nie-ma-takiej')).toEqual({ kind: 'notFound' });
    expect(resolveAs(null, '/nic')).toEqual({ kind: 'notFound' });
  });

  it('every menu entry a role sees leads to a route that role may open', async () => {
    const { visibleMenu } = await import('../shell/menu');
    for (const role of ['ADMIN', 'MANAGER', 'USER', 'ADVISOR'] as Role[]) {
      for (const group of visibleMenu(menuJson as any, ev, ctxOf(role))) {
        for (const item of group.items) {
          const { kind } = resolveAs(role, item.route);
          expect({ role, item: item.id, kind }).toEqual({ role, item: item.id, kind: item.id === 'sign-out' ? 'signOut' : 'screen' });
        }
      }
    }
  });

  it('chooses the first screen whose condition matches', () => {
    const route = findRoute(routes, '/app/dane-pojazdu')!;
    expect(chooseScreen(route, ev, ctxOf('ADVISOR'))).toBe('vehicle-panels');
    expect(chooseScreen(route, ev, ctxOf('UNKNOWN'))).toBe('vehicles-table');
  });
});
