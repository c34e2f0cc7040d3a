/**
 * Issue 14: who is offered the return, the handover and the odometer of a vehicle and of an
 * assignment (spec §2 Assignments, §6), as screens/conditions.json says it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ConditionEvaluator } from '../../runtime/core/conditions';

const ev = new ConditionEvaluator(JSON.parse(readFileSync('screens/conditions.json', 'utf8')));
const ref = (name: string) => ({ $ref: `conditions#/$defs/${name}` });
const issued = { czyWydany: true };
const returned = { czyWydany: false };

describe('vehicle actions by role and state', () => {
  it('offers the return of an issued vehicle to those who may give it back, unless the variant hides it', () => {
    for (const role of ['ADMIN', 'MANAGER', 'USER'] as const) expect(ev.matches(ref('vehicleReturnOffered'), { role, config: {}, record: issued })).toBe(true);
    expect(ev.matches(ref('vehicleReturnOffered'), { role: 'ADVISOR', config: {}, record: issued })).toBe(false);
    expect(ev.matches(ref('vehicleReturnOffered'), { role: 'USER', config: {}, record: returned })).toBe(false);
    expect(ev.matches(ref('vehicleReturnOffered'), { role: 'USER', config: { hideVehicleReturn: true }, record: issued })).toBe(false);
  });

  it('offers the handover of a vehicle not issued to a manager or admin only', () => {
    expect(ev.matches(ref('vehicleHandoverOffered'), { role: 'MANAGER', record: returned })).toBe(true);
    expect(ev.matches(ref('vehicleHandoverOffered'), { role: 'MANAGER', record: issued })).toBe(false);
    expect(ev.matches(ref('vehicleHandoverOffered'), { role: 'USER', record: returned })).toBe(false);
    expect(ev.matches(ref('vehicleHandoverOffered'), { role: 'ADVISOR', record: returned })).toBe(false);
  });

  it('offers Zdanie on an assignment without a return date and Wydanie on one with it, never to an advisor', () => {
    const open = { dataZd: null };
    const closed = { dataZd: '2026-10-24T13:00:00.000Z' };
    expect(ev.matches(ref('assignmentReturnOffered'), { role: 'MANAGER', record: open })).toBe(true);
    expect(ev.matches(ref('assignmentReturnOffered'), { role: 'MANAGER', record: closed })).toBe(false);
    expect(ev.matches(ref('assignmentHandoverOffered'), { role: 'MANAGER', record: closed })).toBe(true);
    expect(ev.matches(ref('assignmentHandoverOffered'), { role: 'MANAGER', record: open })).toBe(false);
    expect(ev.matches(ref('assignmentHandoverOffered'), { role: 'ADVISOR', record: closed })).toBe(false);
  });

  it('requires the handover time only when the configuration says so', () => {
    expect(ev.matches(ref('handoverTimeRequired'), { config: { handoverTimeRequired: true } })).toBe(true);
    expect(ev.matches(ref('handoverTimeRequired'), { config: { handoverTimeRequired: false } })).toBe(false);
  });
});
