/**
 * The order rules as configured (schemas/resources/order.json + screens/conditions.json): the
 * approval workflow, the approved-scope rule, hidden prices and the estimate lock. Expected
 * answers are written out from the spec (§4, §6) and the issue, not from the rules' own code.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConditionEvaluator, type Role } from '../../runtime/core/conditions.ts';
import { ROOT } from '../../tests/support/test-app.ts';
import { OrderRules, recordFieldsRead, type RuleCaller } from './order-rules.ts';

const resource = JSON.parse(readFileSync(join(ROOT, 'schemas/resources/order.json'), 'utf8'));
const conditions = JSON.parse(readFileSync(join(ROOT, 'screens/conditions.json'), 'utf8'));
const rules = new OrderRules(resource.rules, new ConditionEvaluator(conditions));

const caller = (role: Role, config: Record<string, unknown> = {}): RuleCaller => ({ role, variant: 'default', config, session: {} });
const order = (status: number, extra: Record<string, unknown> = {}) => ({ status, pricingConfirmed: false, cenaWidoczna: 'N', ...extra });
const moves = (role: Role, record: ReturnType<typeof order>) => rules.availableTransitions(caller(role), record).map((t) => `${t.id}→${t.to}`);

describe('approval workflow (rules.transitions)', () => {
  it('lets the fleet manager accept, partly accept, reject or send back an order that awaits them (status 1)', () => {
    expect(moves('MANAGER', order(1, { pricingConfirmed: true }))).toEqual(['accept→2', 'acceptPartly→3', 'reject→8', 'clarify→10']);
  });

  it('gives the manager no move on an order that does not await them', () => {
    for (const status of [0, 2, 3, 4, 5, 6, 7, 8, 10]) expect(moves('MANAGER', order(status)), `status ${status}`).toEqual([]);
  });

  it('lets the admin close an authorised order and cancel any open one, but not a closed, cancelled or rejected one', () => {
    expect(moves('ADMIN', order(4))).toEqual(['close→6', 'cancel→7']);
    expect(moves('ADMIN', order(5))).toEqual(['close→6', 'cancel→7']);
    expect(moves('ADMIN', order(0))).toEqual(['cancel→7']);
    for (const status of [6, 7, 8]) expect(moves('ADMIN', order(status)), `status ${status}`).toEqual([]);
  });

  it('lets the advisor hand a confirmed estimate to the fleet manager, and nothing before it is confirmed', () => {
    expect(moves('ADVISOR', order(0, { pricingConfirmed: true }))).toEqual(['submit→1']);
    expect(moves('ADVISOR', order(0))).toEqual([]);
    expect(moves('ADVISOR', order(1, { pricingConfirmed: true }))).toEqual([]);
  });

  it('gives the driver no move at all', () => {
    for (let status = 0; status <= 10; status++) expect(moves('USER', order(status, { pricingConfirmed: true }))).toEqual([]);
  });

  it('finds the move by its target status only when it is allowed', () => {
    expect(rules.transitionTo(caller('MANAGER'), order(1), 2)?.id).toBe('accept');
    expect(rules.transitionTo(caller('MANAGER'), order(1), 6)).toBeUndefined();
    expect(rules.transitionTo(caller('USER'), order(1), 2)).toBeUndefined();
  });
});

describe('approved scope (zlecZakres): only ADMIN, and the MANAGER where the variant allows it', () => {
  it('refuses the manager by default and allows them with config.managerEditsApprovedScope (variant T)', () => {
    expect(rules.forbiddenFields(caller('ADMIN'), order(0), ['zlecZakres'], 'edit')).toEqual([]);
    expect(rules.forbiddenFields(caller('MANAGER'), order(0), ['zlecZakres'], 'edit')).toEqual(['zlecZakres']);
    expect(rules.forbiddenFields(caller('MANAGER', { managerEditsApprovedScope: true }), order(0), ['zlecZakres'], 'edit')).toEqual([]);
    for (const role of ['USER', 'ADVISOR'] as Role[]) {
      expect(rules.forbiddenFields(caller(role, { managerEditsApprovedScope: true }), order(0), ['zlecZakres'], 'edit')).toEqual(['zlecZakres']);
    }
  });

  it('lets everyone write remarks with a new order, and only the admin change them afterwards', () => {
    for (const role of ['USER', 'ADVISOR', 'MANAGER', 'ADMIN'] as Role[]) expect(rules.forbiddenFields(caller(role), order(0), ['uwagi'], 'create')).toEqual([]);
    expect(rules.forbiddenFields(caller('MANAGER'), order(0), ['uwagi'], 'edit')).toEqual(['uwagi']);
    expect(rules.forbiddenFields(caller('ADMIN'), order(0), ['uwagi'], 'edit')).toEqual([]);
  });
});

describe('prices of the positions (cenaWidoczna)', () => {
  const priceFields = ['ilosc', 'cena', 'rabatProc', 'ogNetto'];
  it('hides quantity, price, discount and net from the manager and the driver when cenaWidoczna is not T', () => {
    expect(rules.hiddenChildFields(caller('MANAGER'), order(0, { cenaWidoczna: 'N' }), 'positions')).toEqual(priceFields);
    expect(rules.hiddenChildFields(caller('USER'), order(0, { cenaWidoczna: 'N' }), 'positions')).toEqual(priceFields);
    expect(rules.isHidden(caller('MANAGER'), order(0, { cenaWidoczna: 'N' }), 'totals')).toBe(true);
  });

  it('shows them when cenaWidoczna is T, and always to the admin and the advisor who prices the estimate', () => {
    expect(rules.hiddenChildFields(caller('MANAGER'), order(0, { cenaWidoczna: 'T' }), 'positions')).toEqual([]);
    expect(rules.hiddenChildFields(caller('ADMIN'), order(0, { cenaWidoczna: 'N' }), 'positions')).toEqual([]);
    expect(rules.hiddenChildFields(caller('ADVISOR'), order(0, { cenaWidoczna: 'N' }), 'positions')).toEqual([]);
  });
});

describe('the estimate lock (spec §4 Cost estimate)', () => {
  it('locks the positions for everyone once the estimate is confirmed', () => {
    for (const role of ['USER', 'ADVISOR', 'MANAGER', 'ADMIN'] as Role[]) expect(rules.positionsLocked(caller(role), order(0, { pricingConfirmed: true }))).toBe(true);
  });

  it('locks them for an advisor also when the status is not 0, and for nobody else', () => {
    expect(rules.positionsLocked(caller('ADVISOR'), order(1))).toBe(true);
    expect(rules.positionsLocked(caller('ADVISOR'), order(0))).toBe(false);
    expect(rules.positionsLocked(caller('MANAGER'), order(1))).toBe(false);
    expect(rules.positionsLocked(caller('ADMIN'), order(4))).toBe(false);
  });
});

describe('authorisation on create', () => {
  it('authorises an order the fleet manager or the admin places, not one of a driver or an advisor', () => {
    expect(rules.authorisedOnCreate(caller('MANAGER'), order(0))).toBe(true);
    expect(rules.authorisedOnCreate(caller('ADMIN'), order(0))).toBe(true);
    expect(rules.authorisedOnCreate(caller('USER'), order(0))).toBe(false);
    expect(rules.authorisedOnCreate(caller('ADVISOR'), order(0))).toBe(false);
  });
});

describe('who the order is for and by whom', () => {
  it('fixes the vehicle of a driver, the station of an advisor, and lets only the advisor confirm the estimate', () => {
    const roles: Role[] = ['USER', 'ADVISOR', 'MANAGER', 'ADMIN'];
    expect(roles.filter((r) => rules.applies('ownVehicleWhen', caller(r)))).toEqual(['USER']);
    expect(roles.filter((r) => rules.applies('ownStationWhen', caller(r)))).toEqual(['ADVISOR']);
    expect(roles.filter((r) => rules.applies('confirmPricingWhen', caller(r)))).toEqual(['ADVISOR']);
  });
});

describe('what a rule reads of the record (recordFieldsRead: the cockpit evaluates hidden prices per value, not per order)', () => {
  it('tells that hiding an order\'s totals depends on its cenaWidoczna alone', () => {
    expect(rules.hiddenDependsOn('totals', conditions)).toEqual(['cenaWidoczna']);
    expect(rules.hiddenDependsOn('no-such-part', conditions)).toEqual([]);
  });

  it('follows named conditions and combinators, and gives up (null) where the record is read as a whole', () => {
    const named = { $defs: { a: { properties: { record: { properties: { status: { const: 1 } }, required: ['autTyp'] } } } } };
    expect(recordFieldsRead({ anyOf: [{ $ref: 'conditions#/$defs/a' }, { properties: { role: { const: 'ADMIN' } } }] }, named)).toEqual(['autTyp', 'status']);
    expect(recordFieldsRead({ properties: { role: { const: 'USER' } } }, named)).toEqual([]);
    expect(recordFieldsRead({ properties: { record: { patternProperties: { '^x': { const: 1 } } } } }, named)).toBeNull();
    expect(recordFieldsRead({ properties: { record: { const: {} } } }, named)).toBeNull();
    expect(recordFieldsRead({ $ref: 'conditions#/$defs/missing' }, named)).toBeNull();
  });
});
