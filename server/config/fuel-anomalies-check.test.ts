import { describe, expect, it } from 'vitest';
import type { FuelAnomaliesFile } from '../../runtime/core/generated/meta.ts';
import type { ScreenCheckContext } from '../../runtime/core/screen-checks/check-context.ts';
import rulesFile from '../../screens/fuel-anomalies.json' with { type: 'json' };
import { checkFuelAnomalies } from './fuel-anomalies-check.ts';

const NOTIFICATIONS = { type: 'notifications', events: [{ id: 'fuelAnomaliesFound', trigger: { kind: 'fuelAnomaliesFound' } }, { id: 'damageReported', trigger: { kind: 'damageCreated' } }] };
const WEBHOOKS = { type: 'webhooks', events: [{ id: 'fuel.anomaly', resource: 'fuel-anomaly' }, { id: 'order.created', resource: 'order' }] };

/** The problems (pointer: reason) the check finds in a rules file, beside the declared notification and webhook events. */
function problems(file: FuelAnomaliesFile, keys: string[] = []): string[] {
  const found: string[] = [];
  const ctx = {
    screens: { notifications: NOTIFICATIONS, webhooks: WEBHOOKS },
    problem: (pointer: string, reason: string) => found.push(`${pointer}: ${reason}`),
    needKey: (pointer: string, key: string) => { if (keys.includes(key)) found.push(`${pointer}: no text ${key}`); },
  } as unknown as ScreenCheckContext;
  checkFuelAnomalies(file, ctx);
  return found;
}

const base = rulesFile as unknown as FuelAnomaliesFile;

describe('the fuel anomaly rules\' check (issue 46)', () => {
  it('takes the portal\'s own rules file', () => {
    expect(problems(base)).toEqual([]);
  });

  it('names the pointer of a rule declared twice, a range upside down and a missing text', () => {
    const file: FuelAnomaliesFile = {
      ...base,
      rules: [
        ...base.rules,
        { id: 'overTank', kind: 'overTank', label: 'fuel-anomaly:x', message: 'fuel-anomaly:y' },
        { id: 'narrow', kind: 'consumption', range: { min: 9, max: 4 }, label: 'fuel-anomaly:nie-ma', message: 'fuel-anomaly:y' },
      ],
    };
    const n = base.rules.length;
    expect(problems(file, ['fuel-anomaly:nie-ma'])).toEqual([
      `/rules/${n}/id: rule "overTank" is declared twice`,
      `/rules/${n + 1}/label: no text fuel-anomaly:nie-ma`,
      `/rules/${n + 1}/range: min must not be above max`,
    ]);
  });

  it('refuses an announcement naming a notification of another trigger, or a webhook event that carries no anomaly', () => {
    expect(problems({ ...base, announce: { notification: 'damageReported', webhook: 'order.created', perRowUpTo: 10 } })).toEqual([
      '/announce/notification: "damageReported" is not triggered by fuelAnomaliesFound',
      '/announce/webhook: "order.created" does not carry a fuel-anomaly',
    ]);
    expect(problems({ ...base, announce: { notification: 'nieMa', webhook: 'nie.ma', perRowUpTo: 10 } })).toEqual([
      '/announce/notification: "nieMa" is not an event of screens/notifications.json',
      '/announce/webhook: "nie.ma" is not an event of screens/webhooks.json',
    ]);
  });
});
