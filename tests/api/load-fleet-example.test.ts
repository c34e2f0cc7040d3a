/**
 * "Load your fleet" of docs/integration.md (examples/integration/load-fleet.ts) run against a
 * started portal: a real HTTP server on a random port of 127.0.0.1, on the seeded test database.
 * An administrator makes a key for one client; with the key alone, the back office's vehicles and
 * readings files are dry-run and imported, and the result is read back.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadFleet, runFile } from '../../examples/integration/load-fleet.ts';
import { buildApp } from '../../server/app.ts';
import { openTestDatabase, type TestDatabase } from '../../server/seed/testing.ts';
import { ROOT } from '../support/test-app.ts';

let database: TestDatabase;
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  database = await openTestDatabase({ seed: true });
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  // no queue worker, as in every API test (tests/support/test-app.ts): a run is then run in this process
  app = await buildApp({ secondFactor: { enforce: false }, db: database.db, root: ROOT, version, notifications: { worker: false } });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('examples/integration/load-fleet.ts against a started portal', () => {
  it('makes a key, dry-runs and imports the vehicles and the readings with it, and reads the vehicles back with their last reading', async () => {
    const lines: string[] = [];
    const result = await loadFleet(baseUrl, 'admin', 'Admin123!', 'KL002', (line) => lines.push(line));

    // the dry runs wrote nothing and foretold the imports
    expect(result.runs.vehiclesDryRun.counts).toMatchObject({ new: 3, errors: 0 });
    expect(result.runs.vehicles).toMatchObject({ state: 'succeeded', counts: { new: 3, errors: 0 } });
    expect(result.runs.readingsDryRun.counts).toMatchObject({ new: 4, errors: 0 });
    expect(result.runs.readings).toMatchObject({ state: 'succeeded', counts: { new: 4, errors: 0 } });

    // the vehicles are the client's, with the Windows-1250 file's values, and the last reading of each
    const stored = await database.db.selectFrom('car').select(['rejestr', 'klientSymbol', 'marka', 'aktStanLicz'])
      .where('rejestr', 'in', ['KR5011F', 'KR5012F', 'KR5013F']).orderBy('rejestr').execute();
    expect(stored).toEqual([
      { rejestr: 'KR5011F', klientSymbol: 'KL002', marka: 'Renault', aktStanLicz: 14210 },
      { rejestr: 'KR5012F', klientSymbol: 'KL002', marka: 'Renault', aktStanLicz: 30110 },
      { rejestr: 'KR5013F', klientSymbol: 'KL002', marka: 'Ford', aktStanLicz: 51234 },
    ]);
    expect(result.vehicles.map((v) => [v.rejestr, v.aktStanLicz])).toEqual([['KR5011F', 14210], ['KR5012F', 30110], ['KR5013F', 51234]]);
    expect(lines).toContain('vehicles: succeeded, new 3, changed 0, unchanged 0, errors 0');

    // the same file again changes nothing; the key's client is the only one it may import for
    const again = await runFile(baseUrl, result.key, 'car', 'dryRun', {
      name: 'inny-klient.csv',
      bytes: new TextEncoder().encode('Nr nadwozia;Rejestracja;Klient\nVF1RFB00X61234599;KR5099F;KL001\n'),
    });
    expect(again.counts.errors).toBe(1);
    expect(again.counts.new).toBe(0);
  });
});
