import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { changesOf, declaredEvents } from './write.ts';

describe('the one write path', () => {
  it('records the fields that differ between before and after, with the extra facts', () => {
    expect(changesOf({ before: { a: 1, b: 'x', c: null }, after: { a: 2, b: 'x', c: undefined } })).toEqual({ a: [1, 2] });
    expect(changesOf({ before: null, after: { a: 1, b: null } })).toEqual({ a: [null, 1] });
    expect(changesOf({ before: { a: 1, b: 2 }, after: null, fields: ['a'] })).toEqual({ a: [1, null] });
    expect(changesOf({ extra: { status: [1, 2] } })).toEqual({ status: [1, 2] });
  });

  it('an edit that changed nothing has no changes', () => {
    expect(changesOf({ before: { a: new Date('2026-01-01T00:00:00Z') }, after: { a: '2026-01-01T00:00:00.000Z' } })).toEqual({});
  });

  it('raises the webhook events declared for the resource and the action, and no other', () => {
    const events = [
      { id: 'order.created', resource: 'order', on: 'create' },
      { id: 'order.status_changed', resource: 'order', on: 'transition' },
      { id: 'damage.reported', resource: 'damage', on: 'create' },
      { id: 'import.finished', resource: 'importRun' },
    ];
    const app = { config: { bundle: { screens: { webhooks: { schemaVersion: 1, type: 'webhooks', events } } } } } as unknown as FastifyInstance;
    expect(declaredEvents(app, 'order', 'create')).toEqual(['order.created']);
    expect(declaredEvents(app, 'order', 'update')).toEqual([]);
    expect(declaredEvents(app, 'damage', 'create')).toEqual(['damage.reported']);
    expect(declaredEvents(app, 'importRun', 'create')).toEqual([]);
  });
});
