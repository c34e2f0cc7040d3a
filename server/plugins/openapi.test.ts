import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { requireAccessDeclarations } from './auth.ts';
import { operationIdOf, requireOperationDeclarations } from './openapi.ts';

/** An application with the two declaration hooks of buildApp, in the same order. */
function app() {
  const fastify = Fastify();
  requireAccessDeclarations(fastify);
  requireOperationDeclarations(fastify);
  return fastify;
}
const handler = async () => ({});

describe('operationId: one rule from resource and action', () => {
  it('joins camelCase resource and PascalCase action', () => {
    expect(operationIdOf('order', 'table2')).toBe('orderTable2');
    expect(operationIdOf('order', 'transition')).toBe('orderTransition');
    expect(operationIdOf('fuel-card', 'excelPrepare')).toBe('fuelCardExcelPrepare');
    expect(operationIdOf('user-table-settings', 'filterSave')).toBe('userTableSettingsFilterSave');
  });
});

describe('a documented route without its operation declaration stops start-up', () => {
  it('refuses a route without config.operation, naming it', () => {
    expect(() => app().get('/api/x', { config: { access: 'public' } }, handler)).toThrow(/GET \/api\/x declares no operation/);
  });

  it('refuses a malformed declaration: resource, action, summary, unknown tag', () => {
    const route = (operation: any) => () => app().get('/api/x', { config: { access: 'public', operation } }, handler);
    expect(route({ resource: 'Order', action: 'add', summary: 'Add' })).toThrow(/not kebab-case/);
    expect(route({ resource: 'order', action: 'Add-it', summary: 'Add' })).toThrow(/not camelCase/);
    expect(route({ resource: 'order', action: 'add', summary: 'Adds an order.' })).toThrow(/summary/);
    expect(route({ resource: 'nothing-known', action: 'add', summary: 'Add' })).toThrow(/no tag description/);
  });

  it('refuses two routes with the same operationId', () => {
    const fastify = app();
    fastify.get('/api/a', { config: { access: 'public', operation: { resource: 'order', action: 'add', summary: 'A' } } }, handler);
    expect(() => fastify.get('/api/b', { config: { access: 'public', operation: { resource: 'order', action: 'add', summary: 'B' } } }, handler))
      .toThrow(/operationId orderAdd is also GET \/api\/a/);
  });

  it('needs none for a route hidden from the document', () => {
    expect(() => app().get('/x', { config: { access: 'public' }, schema: { hide: true } }, handler)).not.toThrow();
  });
});
