import { describe, expect, it } from 'vitest';
import type { ScreenCheckContext } from '../../runtime/core/screen-checks/check-context.ts';
import type { WebhooksFile } from '../webhooks/events.ts';
import { checkWebhooks } from './webhooks-check.ts';

/** The problems the check finds in a webhooks file whose resources all exist. */
function problems(events: WebhooksFile['events']): string[] {
  const found: string[] = [];
  const ctx = {
    schemas: {}, resources: { order: {}, importRun: {} },
    problem: (pointer: string, reason: string) => found.push(`${pointer}: ${reason}`),
    needKey: () => undefined,
  } as unknown as ScreenCheckContext;
  checkWebhooks({ schemaVersion: 1, type: 'webhooks', events }, ctx);
  return found;
}

describe('the webhooks file\'s check (issue 45: an event is raised by the write its `on` names)', () => {
  const event = { resource: 'order', label: 'webhooks:events.x', description: 'x' };

  it('takes an event raised by a write, and import.finished raised by its own code', () => {
    expect(problems([{ ...event, id: 'order.created', on: 'create' }, { ...event, id: 'import.finished', resource: 'importRun' }])).toEqual([]);
  });

  it('refuses an event no write and no code raises, and one of the code\'s own given a write', () => {
    expect(problems([{ ...event, id: 'order.archived' }])).toEqual([expect.stringMatching(/^\/events\/0\/on: "order\.archived" names no write/)]);
    expect(problems([{ ...event, id: 'import.finished', resource: 'importRun', on: 'create' }])).toEqual([expect.stringMatching(/^\/events\/0\/on: .*raised by its own code/)]);
  });
});
