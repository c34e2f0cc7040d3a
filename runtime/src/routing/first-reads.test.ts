import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../core/conditions';
import appJson from '../../../screens/app.json';
import conditionsJson from '../../../screens/conditions.json';
import type { Bundle, Session } from '../config/bundle';
import { firstReads } from './first-reads';

// the screens as the bundle carries them, by file name (screens/<id>.json)
const files = import.meta.glob<Record<string, unknown>>('../../../screens/*.json', { eager: true, import: 'default' });
const screens = Object.fromEntries(Object.entries(files).map(([path, screen]) => [/([^/]+)\.json$/.exec(path)![1], screen]));
const bundle = { version: '1', variant: 'default', config: appJson.config, app: appJson, screens, schemas: {}, conditions: conditionsJson, locales: {} } as unknown as Bundle;
const conditions = new ConditionEvaluator(conditionsJson);
const session = (rola: string, more: Partial<Session> = {}): Session => ({ token: 't', user: { rola } as Session['user'], ...more });

describe('what the first page reads, asked at start-up (issue 47)', () => {
  it('a driver’s vehicle page: the terms’ status of the gate, his to-do list’s first page and his vehicle, as the screens ask them', () => {
    expect(firstReads(bundle, conditions, session('USER'), '/app/dane-pojazdu')).toEqual(['/terms/status', '/reminders/items?limit=10', '/car/single-car']);
  });

  it('the gate passed in this session is not asked again; a redirect is followed to the page it leads to', () => {
    expect(firstReads(bundle, conditions, session('USER', { gatesPassed: ['terms'] }), '/app')).toEqual(['/reminders/items?limit=10', '/car/single-car']);
  });

  it('an administrator’s vehicles: the reminders’ counts of the strip above the table; the table reads when drawn', () => {
    expect(firstReads(bundle, conditions, session('ADMIN'), '/app/dane-pojazdu')).toEqual(['/reminders']);
  });

  it('nothing for a page the role may not open, nor for a path the routes do not know', () => {
    expect(firstReads(bundle, conditions, session('USER', { gatesPassed: ['terms'] }), '/app/users')).toEqual([]);
    expect(firstReads(bundle, conditions, session('USER', { gatesPassed: ['terms'] }), '/nowhere')).toEqual([]);
  });
});
