import { describe, expect, it } from 'vitest';
import type { Bundle } from './bundle.ts';
import { roleEtag, roleParts, roleView } from './role-view.ts';

const admin = { $ref: 'conditions#/$defs/admin' };
const bundle = {
  version: '1',
  variant: 'default',
  etag: '"abc"',
  resources: { orders: { resource: 'orders', entity: 'order' } },
  languages: [],
  config: {},
  imports: { vehicles: {} },
  reports: { costs: {} },
  conditions: { $defs: { admin: { properties: { role: { const: 'ADMIN' } } }, user: { properties: { role: { const: 'USER' } } } } },
  app: { type: 'app', sessionGates: [{ screen: 'terms' }] },
  screens: {
    routes: {
      type: 'routes',
      routes: [
        { path: '/', screen: 'sign-in', public: true },
        { path: '/app/car', screens: [{ screen: 'panels', when: { $ref: 'conditions#/$defs/user' } }, { screen: 'cars' }] },
        { path: '/app/import', screen: 'import', allowedWhen: admin },
        { path: '/app/studio', screen: 'studio', allowedWhen: admin },
      ],
    },
    app: { type: 'app' },
    menu: { type: 'menu', groups: [] },
    conditions: { type: 'conditions' },
    'sign-in': { type: 'login', title: 'signin:title', schema: 'credentials' },
    terms: { type: 'terms-dialog', title: 'terms:title' },
    panels: { type: 'panel-set', title: 'car:title', open: 'order-form' },
    'order-form': { type: 'form-dialog', title: 'order:title', schema: 'order' },
    cars: { type: 'table', title: 'car:list', entity: 'car', open: 'order-form' },
    import: { type: 'data-import', title: 'data-import:title', schema: 'import-run', open: 'import-log' },
    'import-log': { type: 'table', title: 'import:log', entity: 'import-run' },
    studio: { type: 'studio', title: 'studio:title', edits: ['reminders'] },
    reminders: { type: 'reminders', rules: [{ label: 'reminders:rules.oc' }] },
  },
  schemas: {
    credentials: { $id: 'credentials' },
    order: { $id: 'order', properties: { car: { $ref: 'car#/properties/id' } } },
    car: { $id: 'car', properties: { id: { type: 'string' } } },
    'import-run': { $id: 'import-run' },
    'order-add-request': { $id: 'order-add-request' },
  },
  locales: {
    pl: { app: {}, errors: {}, validation: {}, signin: {}, terms: {}, car: {}, order: {}, 'data-import': {}, import: {}, 'import-run': {}, studio: {}, reminders: {}, unused: {} },
    en: { app: {}, car: {}, 'data-import': {} },
  },
} as unknown as Bundle;

describe('what a role is sent of the bundle', () => {
  it('leaves out the screens only a route the role cannot open leads to, and keeps every route', () => {
    const view = roleView(bundle, 'USER');
    expect(Object.keys(view.screens).sort()).toEqual(['app', 'cars', 'conditions', 'menu', 'order-form', 'panels', 'routes', 'sign-in', 'terms']);
    expect(view.screens.routes).toEqual(bundle.screens.routes);
    expect(view.role).toBe('USER');
  });

  it('keeps the screens the runtime opens by name, which no route or screen names (the session gates’ dialogs)', () => {
    expect(roleParts(bundle, 'USER').screens.has('terms')).toBe(true);
  });

  it('sends the schemas its screens name, with the documents they refer to, and not the API’s the server alone reads', () => {
    expect(Object.keys(roleView(bundle, 'USER').schemas).sort()).toEqual(['car', 'credentials', 'order']);
  });

  it('leaves out a namespace only left-out screens name; keeps one a declaration answers with, and one nobody names', () => {
    const view = roleView(bundle, 'USER');
    expect(Object.keys(view.locales.pl).sort()).toEqual(['app', 'car', 'errors', 'order', 'reminders', 'signin', 'terms', 'unused', 'validation']);
    expect(Object.keys(view.locales.en).sort()).toEqual(['app', 'car']);
    expect(view.imports).toEqual({});
    expect(view.reports).toEqual({});
  });

  it('sends everything to a role that opens the studio, which edits every file', () => {
    const view = roleView(bundle, 'ADMIN');
    expect(view.screens).toEqual(bundle.screens);
    expect(view.schemas).toEqual(bundle.schemas);
    expect(view.locales).toEqual(bundle.locales);
    expect(view.imports).toEqual(bundle.imports);
    expect(view).not.toHaveProperty('resources');
  });

  it('sends the screens of a route whose condition reads the session: it may open for the role, only the browser knows', () => {
    const routes = { type: 'routes', routes: [{ path: '/app/x', screen: 'order-form', allowedWhen: { allOf: [admin, { $ref: 'conditions#/$defs/firstLogin' }] } }] };
    const conditions = { $defs: { ...(bundle.conditions.$defs as object), firstLogin: { properties: { session: { properties: { firstLogin: { const: true } } } } } } };
    const withSession = { ...bundle, conditions, screens: { ...bundle.screens, routes, panels: { type: 'page' }, cars: { type: 'page' } } } as unknown as Bundle;
    expect(roleParts(withSession, 'USER').screens.has('order-form')).toBe(true);
    const roleOnly = { ...withSession, screens: { ...withSession.screens, routes: { type: 'routes', routes: [{ path: '/app/x', screen: 'order-form', allowedWhen: admin }] } } } as unknown as Bundle;
    expect(roleParts(roleOnly, 'USER').screens.has('order-form')).toBe(false);
  });

  it('has an ETag per role, a visitor’s the bundle’s own', () => {
    expect(roleEtag('"abc-en"', 'USER')).toBe('"abc-en-USER"');
    expect(roleEtag('"abc"', null)).toBe('"abc"');
  });
});
