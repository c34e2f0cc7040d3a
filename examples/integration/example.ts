/**
 * The integration example of docs/integration.md, runnable against any portal:
 *
 *   npx tsx examples/integration/example.ts http://localhost:3000 manager Manager123!
 *
 * It signs in, pages through the vehicles of one make (a filter) block by block, adds a service
 * order for the first of them, follows the order's status and signs out. tests/api/
 * integration-example.test.ts runs it against a started portal, so it cannot rot.
 */
import { resolve } from 'node:path';
import { connect } from './portal-client.ts';

export interface ExampleResult {
  vehicles: { pojazdId: number; rejestr: string }[];
  blocks: number;
  order: { autId: number; status: number | null; statusText: string | null };
}

export async function runExample(baseUrl: string, username: string, password: string, log: (line: string) => void = console.log): Promise<ExampleResult> {
  const { client, setToken } = await connect(baseUrl);

  // 1. Sign in (a signed POST: the middleware adds X-Nonce and X-Signature)
  const auth = await client.POST('/api/user/auth', { body: { username, password, role: 'MANAGER' } });
  if (!auth.data) throw new Error(`sign-in refused: ${auth.error?.detail}`);
  // an account with a second factor answers with a ticket for the second step (issue 36): a system signs in with an integration key instead
  if (!auth.data.id_token || !auth.data.body) throw new Error('sign-in needs a second factor: use an integration key (docs/integration.md)');
  setToken(auth.data.id_token);
  log(`signed in as ${auth.data.body.userDetails.lastName} ${auth.data.body.userDetails.firstName}`);

  try {
    // 2. Page through a table with a filter: blocks of 30 rows, each request naming the cursor of the block before
    const filterModel = { marka: { filterType: 'text', type: 'equals', filter: 'TOYOTA' } };
    const vehicles: ExampleResult['vehicles'] = [];
    let blocks = 0;
    let cursor: string | undefined;
    for (let startRow = 0; ; startRow += 30) {
      const page = await client.POST('/api/car/table2', {
        body: { startRow, endRow: startRow + 30, filterModel, sortModel: [{ colId: 'rejestr', sort: 'asc' }], cursor },
      });
      if (!page.data) throw new Error(`table refused: ${page.error?.detail}`);
      blocks++;
      // the first block counts the rows the filter matches (a block shorter than asked ends the table: its lastRow is the count)
      if (startRow === 0) log(`${page.data.count ?? page.data.lastRow} vehicles of the make`);
      for (const row of page.data.rows) vehicles.push({ pojazdId: row.pojazdId as number, rejestr: row.rejestr as string });
      cursor = page.data.cursor;
      // lastRow is the index after the last row once the end is known, -1 while more may follow
      if (page.data.lastRow !== -1 || page.data.rows.length < 30) break;
    }
    log(`read ${vehicles.length} vehicles in ${blocks} blocks`);
    if (!vehicles.length) throw new Error('no vehicle of the make to order a service for');

    // 3. Add an order (the order and its positions in one transaction)
    const [vehicle] = vehicles;
    const added = await client.POST('/api/order/add', {
      body: {
        order: { autTyp: 1, pojazdId: vehicle.pojazdId, rejestr: vehicle.rejestr, zgloNazwiskoImie: 'Integracja Systemu', zgloEmail: 'integracja@example.pl', zgloZakres: 'Wymiana klocków hamulcowych' },
        rangePositions: [{ uslRodzaj: 1, tresc: 'Klocki hamulcowe przód', ilosc: 1, cena: 420 }],
      },
    });
    if (!added.data) throw new Error(`order refused: ${added.error?.detail} ${JSON.stringify(added.error?.errors ?? [])}`);
    const { autId } = added.data.order;
    log(`${added.data.message}: order ${autId} for ${vehicle.rejestr}`);

    // 4. Follow its status: the order's details carry its status and the moves the caller may make
    const details = await client.GET('/api/order/details/{id}', { params: { path: { id: String(autId) } } });
    if (!details.data) throw new Error(`order not readable: ${details.error?.detail}`);
    const { status, statusZnaczenie } = details.data.order;
    log(`order ${autId}: status ${status} ${statusZnaczenie}; moves open to me: ${details.data.transitions.map((m) => m.to).join(', ') || 'none'}`);
    return { vehicles, blocks, order: { autId, status: status ?? null, statusText: statusZnaczenie ?? null } };
  } finally {
    // 5. Sign out: the token stops working at once
    await client.POST('/api/user/logout');
    setToken(undefined);
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, 'example.ts')) {
  const [baseUrl = 'http://localhost:3000', username = 'manager', password = 'Manager123!'] = process.argv.slice(2);
  runExample(baseUrl, username, password).catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
