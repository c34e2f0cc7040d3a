import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SMOKE_JOURNEYS, selectJourneys } from './changed-tests.ts';

/** A configuration of three routes: orders (a table naming its details dialog), tyres, and the login page. */
function fixture(): string {
  const root = mkdtempSync(join(tmpdir(), 'changed-tests-'));
  mkdirSync(join(root, 'screens'));
  const write = (name: string, json: unknown) => writeFileSync(join(root, 'screens', name), JSON.stringify(json));
  write('routes.json', {
    routes: [
      { path: '/', screen: 'login' },
      { path: '/app/order', screen: 'orders-table' },
      { path: '/app/tire', screens: [{ screen: 'tires-table', before: [{ screen: 'reminder-strip' }] }] },
    ],
  });
  write('login.json', { type: 'login', title: 'login:title' });
  write('orders-table.json', { type: 'table', resource: 'order', details: 'order-details', title: 'order:title' });
  write('order-details.json', { type: 'details', title: 'order:details' });
  write('tires-table.json', { type: 'table', resource: 'tire', title: 'tire:title' });
  write('reminder-strip.json', { type: 'strip', title: 'reminders:title' });
  return root;
}

const SPECS = new Map([
  ['tests/browser/orders.spec.ts', "await page.goto('/app/order?open=1');"],
  ['tests/browser/orders-more.spec.ts', "await page.goto('/app/order');"],
  ['tests/browser/tires.spec.ts', "await page.goto('/app/tire');"],
  ['tests/browser/login.spec.ts', "await page.goto('/');"],
]);

describe('the journeys a change touches', () => {
  const root = fixture();

  it('runs the journeys that open the route showing a changed screen, also through the screen that names it', () => {
    const { journeys, reasons } = selectJourneys(root, ['screens/order-details.json'], SPECS);
    expect(journeys).toEqual(['tests/browser/orders-more.spec.ts', 'tests/browser/orders.spec.ts']);
    expect(reasons.get('tests/browser/orders.spec.ts')).toContain('/app/order');
  });

  it("finds the screens of a locale's namespace, a variant's overlay and a screen shown before another", () => {
    expect(selectJourneys(root, ['locales/pl/tire.json'], SPECS).journeys).toEqual(['tests/browser/tires.spec.ts']);
    expect(selectJourneys(root, ['client-variants/t/screens/orders-table.json'], SPECS).journeys).toEqual(['tests/browser/orders-more.spec.ts', 'tests/browser/orders.spec.ts']);
    expect(selectJourneys(root, ['screens/reminder-strip.json'], SPECS).journeys).toEqual(['tests/browser/tires.spec.ts']);
    expect(selectJourneys(root, ['screens/login.json'], SPECS).journeys).toEqual(['tests/browser/login.spec.ts']);
  });

  it('runs the journeys of a kind of screen for its runtime code, and the smoke journeys for the shared runtime', () => {
    expect(selectJourneys(root, ['runtime/src/screens/table/Grid.tsx'], SPECS).journeys).toEqual(['tests/browser/orders-more.spec.ts', 'tests/browser/orders.spec.ts', 'tests/browser/tires.spec.ts']);
    expect(selectJourneys(root, ['runtime/src/shell/Header.tsx'], SPECS).journeys).toEqual([...SMOKE_JOURNEYS].sort());
  });

  it('runs a changed journey itself, and none for server code (its API tests cover it)', () => {
    expect(selectJourneys(root, ['tests/browser/tires.spec.ts'], SPECS).journeys).toEqual(['tests/browser/tires.spec.ts']);
    const server = selectJourneys(root, ['server/routes/orders.ts'], SPECS);
    expect(server.journeys).toEqual([]);
    expect(server.configChanged).toBe(false);
    expect(selectJourneys(root, ['locales/pl/tire.json'], SPECS).configChanged).toBe(true);
  });
});
