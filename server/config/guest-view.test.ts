import { describe, expect, it } from 'vitest';
import type { Bundle } from './bundle.ts';
import { guestView } from './guest-view.ts';

const bundle = {
  version: '1',
  variant: 'default',
  etag: 'x',
  resources: {},
  config: { flag: true },
  conditions: { $defs: { admin: { properties: { role: { const: 'ADMIN' } } } } },
  app: { type: 'app', footer: { copyright: 'footer:copyright' }, sessionGates: [{ screen: 'terms' }] },
  screens: {
    routes: { type: 'routes', routes: [{ path: '/', screen: 'sign-in', public: true }, { path: '/app', screen: 'table', allowedWhen: { $ref: 'conditions#/$defs/admin' } }] },
    app: { type: 'app' },
    menu: { type: 'menu', breakpoint: 900, groups: [{ id: 'x', items: [{ route: '/app', label: 'menu:items.table' }] }] },
    'sign-in': { type: 'login', title: 'signin:title', schema: 'credentials', links: [{ dialog: 'forgot' }] },
    forgot: { type: 'form-dialog', title: 'password:title', schema: 'reset', then: { dialog: 'forgot-done' } },
    'forgot-done': { type: 'page', text: 'password:done' },
    terms: { type: 'terms-dialog', title: 'terms:title' },
    table: { type: 'table', title: 'orders:title', schema: 'order' },
  },
  schemas: {
    credentials: { $id: 'credentials', properties: { login: { type: 'string', 'x-messages': { pattern: 'signin:errors.login' } } } },
    reset: { $id: 'reset', properties: { email: { $ref: 'common#/$defs/email' } } },
    common: { $id: 'common', $defs: { email: { type: 'string' } } },
    order: { $id: 'order', type: 'object' },
  },
  locales: { pl: { app: {}, errors: {}, validation: {}, signin: {}, password: {}, footer: {}, init: {}, orders: {}, terms: {}, menu: {} } },
} as unknown as Bundle;

describe('what a visitor is shown of the bundle', () => {
  const view = guestView(bundle, ['init:mailNotConfigured']);

  it('holds the public routes’ screens and every screen they open, and the shell’s files', () => {
    expect(Object.keys(view.screens).sort()).toEqual(['app', 'forgot', 'forgot-done', 'menu', 'routes', 'sign-in']);
  });

  it('holds the schemas those screens send, and the documents their references name', () => {
    expect(Object.keys(view.schemas).sort()).toEqual(['common', 'credentials', 'reset']);
  });

  it('holds the texts of the namespaces they show, the runtime’s own and the extra texts’, no other', () => {
    expect(Object.keys(view.locales.pl).sort()).toEqual(['app', 'errors', 'footer', 'init', 'password', 'signin', 'validation']);
  });

  it('keeps the routes, settings and conditions whole: any route may be asked for before sign-in', () => {
    expect(view.screens.routes).toBe(bundle.screens.routes);
    expect(view.conditions).toBe(bundle.conditions);
    expect(view.config).toBe(bundle.config);
    expect(view).not.toHaveProperty('resources');
    expect(view).not.toHaveProperty('etag');
  });
});
