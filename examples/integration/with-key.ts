/**
 * An integration account's way in (docs/integration.md "With an API key"): no sign-in and no
 * request signature, only `Authorization: Bearer <key>` on each call. The key reads the resources
 * its account's scopes name, of the clients the account names.
 *
 *   npx tsx examples/integration/with-key.ts http://localhost:3000 flp_…
 *
 * tests/api/integration-example.test.ts runs it against a started portal with a key it made.
 */
import { resolve } from 'node:path';
import createClient from 'openapi-fetch';
import { bearerMiddleware, type PortalClient } from './portal-client.ts';
import type { paths } from './portal-api.d.ts';

/** A client that sends the key on every call (and signs nothing: a key's calls need no signature). */
export function connectWithKey(baseUrl: string, key: string): PortalClient {
  const client = createClient<paths>({ baseUrl });
  client.use(bearerMiddleware(() => key));
  return client;
}

/** Every vehicle the key may read, block by block (the cursor of each block asks for the next). */
export async function vehiclesWithKey(baseUrl: string, key: string): Promise<{ pojazdId: number; rejestr: string; klientSymbol: string | null }[]> {
  const client = connectWithKey(baseUrl, key);
  const vehicles: { pojazdId: number; rejestr: string; klientSymbol: string | null }[] = [];
  let cursor: string | undefined;
  for (let startRow = 0; ; startRow += 100) {
    const page = await client.POST('/api/car/table2', { body: { startRow, endRow: startRow + 100, sortModel: [{ colId: 'rejestr', sort: 'asc' }], cursor } });
    // 401: the key is wrong, expired or revoked; 403: its scopes do not name vehicles
    if (!page.data) throw new Error(`${page.response.status}: ${page.error?.detail}`);
    for (const row of page.data.rows) vehicles.push({ pojazdId: row.pojazdId as number, rejestr: String(row.rejestr), klientSymbol: (row.klientSymbol as string | null) ?? null });
    if (page.data.lastRow !== -1 || !page.data.cursor) return vehicles;
    cursor = page.data.cursor;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [baseUrl, key] = process.argv.slice(2);
  if (!baseUrl || !key) {
    console.error('usage: npx tsx examples/integration/with-key.ts <portal URL> <key>');
    process.exit(2);
  }
  for (const v of await vehiclesWithKey(baseUrl, key)) console.log(`${v.rejestr}\t${v.klientSymbol ?? ''}`);
}
