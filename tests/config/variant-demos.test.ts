/**
 * The variants' demo data (client-variants/<name>/demo.json, issue 15): every file of the checkout
 * is valid, and a mistake is named by file, JSON pointer and reason before anything is seeded.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config/load-bundle.ts';
import { readVariantDemos } from '../../server/seed/variant-demos.ts';

const root = resolve(import.meta.dirname, '../..');
const valid = {
  schemaVersion: 1,
  client: { klient: 'KL900', klientNazwa: 'Próbna Flota Sp. z o.o.' },
  units: ['Centrala'],
  employees: [{ nrPrac: 'E1', imie: 'Jan', nazwisko: 'Próbny' }],
  vehicles: [{ rejestr: 'WX1234A', nrPodw: 'TMBJG7NE5N0001234', marka: 'SKODA', markaOpis: 'Škoda', modelOpis: 'Octavia', rokProd: 2022, aktStanLicz: 1000, driver: 'E1' }],
  users: [{ login: 'probny.kierowca', rola: 'USER', firstName: 'Jan', lastName: 'Próbny', employee: 'E1' }],
  orders: [{ vehicle: 'WX1234A', zgloInterw: 'PRZEGLAD', zgloZakres: 'Przegląd', status: 0, daysAgo: 1, reportedBy: 'probny.kierowca' }],
};

let dirs: string[] = [];
afterEach(() => { for (const d of dirs) rmSync(d, { recursive: true, force: true }); dirs = []; });

/** A checkout with the real meta-schemas and these variants' demo files. */
function checkout(files: Record<string, unknown>): string {
  const dir = mkdtempSync(join(tmpdir(), 'variant-demos-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'schemas'));
  symlinkSync(join(root, 'schemas/meta'), join(dir, 'schemas/meta'));
  for (const [variant, demo] of Object.entries(files)) {
    mkdirSync(join(dir, 'client-variants', variant), { recursive: true });
    writeFileSync(join(dir, 'client-variants', variant, 'demo.json'), typeof demo === 'string' ? demo : JSON.stringify(demo));
  }
  return dir;
}

function problems(files: Record<string, unknown>): string[] {
  try {
    readVariantDemos(checkout(files));
  } catch (e) {
    if (e instanceof ConfigError) return e.problems.map((p) => `${p.file} ${p.pointer}: ${p.reason}`);
    throw e;
  }
  return [];
}

describe('variant demo data', () => {
  it('reads every demo.json of this checkout: each its own client', () => {
    const demos = readVariantDemos(root);
    expect(demos.map((d) => [d.variant, d.demo.client.klient])).toEqual([['p', 'KL006'], ['regional-dealer', 'KL004'], ['t', 'KL005']]);
  });

  it('accepts a complete file', () => {
    expect(problems({ probny: valid })).toEqual([]);
  });

  it('names a broken file, an unknown property and a bad value by file and JSON pointer', () => {
    expect(problems({ a: '{ "client": ' })[0]).toMatch(/^client-variants\/a\/demo.json : not valid JSON/);
    expect(problems({ b: { ...valid, colour: 'green' } })).toEqual(['client-variants/b/demo.json /colour: unknown property "colour"']);
    expect(problems({ c: { ...valid, vehicles: [{ ...valid.vehicles[0], nrPodw: 'SHORT' }] } })[0]).toMatch(/^client-variants\/c\/demo.json \/vehicles\/0\/nrPodw: must match pattern/);
  });

  it('refuses names that point nowhere: a driver, an account’s employee or station, an order’s vehicle and reporter', () => {
    const broken = {
      ...valid,
      vehicles: [{ ...valid.vehicles[0], driver: 'E9', stacjaSerw: 'SS99' }],
      users: [{ ...valid.users[0], employee: undefined }, { login: 'doradca.x', rola: 'ADVISOR', firstName: 'A', lastName: 'B' }],
      orders: [{ ...valid.orders[0], vehicle: 'XX0000', reportedBy: 'nikt' }],
    };
    expect(problems({ d: broken }).map((p) => p.replace(/:.*/, ''))).toEqual([
      'client-variants/d/demo.json /vehicles/0/driver',
      'client-variants/d/demo.json /vehicles/0/stacjaSerw',
      'client-variants/d/demo.json /users/0/employee',
      'client-variants/d/demo.json /users/1/stacjaSerw',
      'client-variants/d/demo.json /orders/0/vehicle',
      'client-variants/d/demo.json /orders/0/reportedBy',
    ]);
  });

  it('refuses one client as the demo client of two variants', () => {
    expect(problems({ e: valid, f: valid })).toEqual(['client-variants/f/demo.json /client/klient: client "KL900" is the demo client of client-variants/e/demo.json too']);
  });
});
