/**
 * The integration example of docs/integration.md (examples/integration/) run against a started
 * portal: a real HTTP server on a random port of 127.0.0.1, on the seeded test database. The
 * example's client is generated from the portal's OpenAPI document (npm run check fails when
 * those types are stale), so a change of the API that breaks integrators breaks this test.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runExample } from '../../examples/integration/example.ts';
import { connect } from '../../examples/integration/portal-client.ts';
import { vehiclesWithKey } from '../../examples/integration/with-key.ts';
import { buildApp } from '../../server/app.ts';
import { openTestDatabase, type TestDatabase } from '../../server/seed/testing.ts';
import { ROOT } from '../support/test-app.ts';

let database: TestDatabase;
let app: FastifyInstance;
let baseUrl: string;

beforeAll(async () => {
  database = await openTestDatabase({ seed: true });
  const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
  app = await buildApp({ secondFactor: { enforce: false }, db: database.db, root: ROOT, version });
  baseUrl = await app.listen({ port: 0, host: '127.0.0.1' });
}, 120_000);
afterAll(async () => {
  await app?.close();
  await database?.close();
});

describe('examples/integration against a started portal', () => {
  it('signs in, pages through a filtered table, adds an order and follows its status, signs out', async () => {
    const lines: string[] = [];
    const result = await runExample(baseUrl, 'manager', 'Manager123!', (line) => lines.push(line));

    // every vehicle read is a TOYOTA of the manager's client, in the order asked for, none twice
    const expected = await database.db.selectFrom('car').select(['pojazdId', 'rejestr'])
      .where('klientSymbol', '=', 'KL001').where('marka', '=', 'TOYOTA').orderBy('rejestr').execute();
    expect(expected.length).toBeGreaterThan(0);
    expect(result.vehicles.map((v) => v.rejestr)).toEqual(expected.map((v) => v.rejestr));
    expect(result.blocks).toBeGreaterThanOrEqual(Math.ceil(expected.length / 30));

    // the order is stored for the first vehicle, reported (status 0), and its status was read back
    const stored = await database.db.selectFrom('service_order').select(['pojazdId', 'status', 'zgloNazwiskoImie'])
      .where('autId', '=', result.order.autId).executeTakeFirstOrThrow();
    expect(stored).toEqual({ pojazdId: result.vehicles[0].pojazdId, status: 0, zgloNazwiskoImie: 'Integracja Systemu' });
    expect(result.order).toMatchObject({ status: 0, statusText: 'Zgłoszono' });
    expect(lines).toContain(`${expected.length} vehicles of the make`);
    expect(lines, lines.join('\n')).toContainEqual(expect.stringMatching(/^Dodano (i zaakceptowano )?zlecenie: order \d+ for /));
  });

  it('signs writes as the document says: signed by the client they pass, a wrong signature is refused in Polish', async () => {
    const { client, setToken } = await connect(baseUrl);
    const auth = await client.POST('/api/user/auth', { body: { username: 'manager', password: 'Manager123!', role: 'MANAGER' } });
    setToken(auth.data!.id_token);
    const count = await client.POST('/api/car/table-count', { body: { startRow: 0, endRow: 30 } });
    expect(count.response.status).toBe(200);
    expect(count.data!.count).toBeGreaterThan(0);

    const forged = await fetch(`${baseUrl}/api/car/table-count`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${auth.data!.id_token}`, 'x-nonce': `${Date.now()}.00`, 'x-signature': 'AAAA' },
      body: JSON.stringify({ startRow: 0, endRow: 30 }),
    });
    expect(forged.status).toBe(400);
    expect(await forged.json()).toMatchObject({ code: 'SIGNATURE_MISMATCH', detail: 'Niepoprawny podpis żądania' });
    await client.POST('/api/user/logout');
  });

  it('reads with an API key, unsigned: the vehicles of the key\'s client, all of them; a revoked key is refused in Polish', async () => {
    const { client, setToken } = await connect(baseUrl);
    const auth = await client.POST('/api/user/auth', { body: { username: 'admin', password: 'Admin123!', role: 'MANAGER' } });
    setToken(auth.data!.id_token);
    const account = await client.POST('/api/integration-accounts', { body: { name: 'Przykład', allClients: false, clients: ['KL002'], scopes: ['read:car'] } });
    expect(account.response.status).toBe(201);
    const made = await client.POST('/api/integration-accounts/{id}/keys', { params: { path: { id: String(account.data!.id) } }, body: {} });
    const key = made.data!.key;

    const vehicles = await vehiclesWithKey(baseUrl, key);
    const expected = await database.db.selectFrom('car').select('rejestr').where('klientSymbol', '=', 'KL002').orderBy('rejestr').execute();
    expect(expected.length).toBeGreaterThan(0);
    expect(vehicles.map((v) => v.rejestr).sort()).toEqual(expected.map((v) => v.rejestr).sort());
    expect(new Set(vehicles.map((v) => v.klientSymbol))).toEqual(new Set(['KL002']));

    await client.POST('/api/integration-accounts/{id}/keys/{keyId}/revoke', { params: { path: { id: String(account.data!.id), keyId: String(made.data!.id) } } });
    await expect(vehiclesWithKey(baseUrl, key)).rejects.toThrow('401: Klucz API jest nieprawidłowy, wygasł lub został unieważniony.');
    await client.POST('/api/user/logout');
  });
});
