/**
 * "Load your fleet" (docs/integration.md): a leasing back office loads its vehicles and their
 * odometer readings into the portal every night, with an integration key.
 *
 *   npx tsx examples/integration/load-fleet.ts http://localhost:3000 admin Admin123! KL002
 *
 * 1. An administrator makes an integration account for one client, with the scopes to import
 *    vehicles and readings and to read vehicles, and a key for it (shown once). A system that
 *    already has its key starts at step 2.
 * 2. With the key alone (no sign-in, no request signature): a dry run of the vehicles file (a
 *    Windows-1250 CSV with the back office's own headers, `;`, DD.MM.RRRR), which writes nothing
 *    and answers the counts and the rows in error; then the same file imported. The runs are jobs:
 *    the answer is 202 with the run's id, and the run is read until it has finished.
 * 3. The readings file (decimal commas), dry run and import, the same way.
 * 4. The result read back with the same key: the vehicles with their last odometer reading.
 *
 * tests/api/load-fleet-example.test.ts runs it against a started portal, so it cannot rot.
 */
import { resolve } from 'node:path';
import iconv from 'iconv-lite';
import { connect } from './portal-client.ts';
import { connectWithKey } from './with-key.ts';

export interface Run {
  id: number;
  state: 'queued' | 'running' | 'succeeded' | 'failed' | 'cancelled';
  counts: { new: number; changed: number; unchanged: number; deactivated: number; errors: number };
  errors: { row: number; column: string | null; message: string }[];
  message: string | null;
}

export interface LoadFleetResult {
  key: string;
  runs: Record<'vehiclesDryRun' | 'vehicles' | 'readingsDryRun' | 'readings', Run>;
  vehicles: { nrPodw: string; rejestr: string; aktStanLicz: number | null }[];
}

/** 1. An account for the client, with import and read scopes, and its key (shown this once). */
export async function makeKey(baseUrl: string, username: string, password: string, client: string): Promise<string> {
  const { client: portal, setToken } = await connect(baseUrl);
  const auth = await portal.POST('/api/user/auth', { body: { username, password, role: 'MANAGER' } });
  if (!auth.data) throw new Error(`sign-in refused: ${auth.error?.detail}`);
  setToken(auth.data.id_token);
  try {
    const account = await portal.POST('/api/integration-accounts', {
      body: { name: `Back office ${client}`, allClients: false, clients: [client], scopes: ['import:car', 'import:mileage-reading', 'read:car'] },
    });
    if (!account.data) throw new Error(`account refused: ${account.error?.detail}`);
    const made = await portal.POST('/api/integration-accounts/{id}/keys', { params: { path: { id: String(account.data.id) } }, body: {} });
    if (!made.data) throw new Error(`key refused: ${made.error?.detail}`);
    return made.data.key;
  } finally {
    await portal.POST('/api/user/logout');
  }
}

/**
 * A run of a file with the key: multipart (the file and the run's fields), 202 with the run's id;
 * then the run is read until it has finished. `Idempotency-Key` makes a retried upload (a
 * dropped connection) answer the same run instead of starting a second one.
 */
export async function runFile(baseUrl: string, key: string, declaration: string, mode: 'dryRun' | 'import', file: { name: string; bytes: Uint8Array }): Promise<Run> {
  const form = new FormData();
  form.set('declaration', declaration);
  form.set('mode', mode);
  form.set('onError', 'allOrNothing');
  form.set('missing', 'keep');
  form.set('file', new Blob([file.bytes as Uint8Array<ArrayBuffer>], { type: 'text/csv' }), file.name);
  const started = await fetch(`${baseUrl}/api/import/runs`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${key}`, 'Idempotency-Key': `${declaration}-${mode}-${file.name}-${Date.now()}` },
    body: form,
  });
  if (started.status !== 202) throw new Error(`${started.status}: ${(await started.json()).detail}`);
  const { id } = (await started.json()) as { id: number };
  for (;;) {
    const answer = await fetch(`${baseUrl}/api/import/runs/${id}`, { headers: { Authorization: `Bearer ${key}` } });
    if (!answer.ok) throw new Error(`${answer.status}: ${(await answer.json()).detail}`);
    const run = (await answer.json()) as Run;
    if (run.state !== 'queued' && run.state !== 'running') return run;
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** How a run reads in a log line. */
export function describeRun(what: string, run: Run): string {
  const c = run.counts;
  return `${what}: ${run.state}, new ${c.new}, changed ${c.changed}, unchanged ${c.unchanged}, errors ${c.errors}${run.state === 'failed' ? ` (${run.message})` : ''}`;
}

/** The back office's files: its own headers, `;`, DD.MM.RRRR dates, decimal commas, Windows-1250. */
export function backOfficeFiles(client: string, today = new Date()) {
  const day = (offset: number) => {
    const d = new Date(today);
    d.setDate(d.getDate() + offset);
    return `${String(d.getDate()).padStart(2, '0')}.${String(d.getMonth() + 1).padStart(2, '0')}.${d.getFullYear()}`;
  };
  const csv = (rows: string[][]) => iconv.encode(rows.map((r) => r.join(';')).join('\r\n') + '\r\n', 'win1250');
  const vehicles = [
    ['Nr VIN', 'Rejestracja', 'Klient', 'Marka', 'Rok produkcji', 'OC polisa', 'OC do', 'Data przeglądu'],
    ['VF1RFB00X61234501', 'KR5011F', client, 'Renault', '2023', 'WAR/2026/5011', day(40), day(90)],
    ['VF1RFB00X61234502', 'KR5012F', client, 'Renault', '2023', 'WAR/2026/5012', day(10), day(120)],
    ['WF0XXXTTGXK234503', 'KR5013F', client, 'Ford', '2022', 'WAR/2026/5013', day(200), day(12)],
  ];
  const readings = [
    ['Nr VIN', 'Data odczytu', 'Stan licznika', 'Stan paliwa'],
    ['VF1RFB00X61234501', `${day(-30)} 08:00`, '12500', '45,5'],
    ['VF1RFB00X61234501', `${day(-1)} 17:30`, '14210', '20,25'],
    ['VF1RFB00X61234502', `${day(-2)} 09:15`, '30110', '60'],
    ['WF0XXXTTGXK234503', `${day(-1)} 12:00`, '51234', '12,5'],
  ];
  return { vehicles: { name: 'pojazdy.csv', bytes: csv(vehicles) }, readings: { name: 'odczyty.csv', bytes: csv(readings) } };
}

export async function loadFleet(baseUrl: string, username: string, password: string, client: string, log: (line: string) => void = console.log): Promise<LoadFleetResult> {
  const key = await makeKey(baseUrl, username, password, client);
  log(`key made for ${client}: ${key.slice(0, 8)}…`);
  const files = backOfficeFiles(client);

  // 2. vehicles: a dry run first; import only a file without errors
  const vehiclesDryRun = await runFile(baseUrl, key, 'car', 'dryRun', files.vehicles);
  log(describeRun('vehicles, dry run', vehiclesDryRun));
  for (const e of vehiclesDryRun.errors) log(`  row ${e.row}, ${e.column ?? ''}: ${e.message}`);
  if (vehiclesDryRun.state !== 'succeeded' || vehiclesDryRun.counts.errors > 0) throw new Error('the vehicles file has errors: fix it first');
  const vehicles = await runFile(baseUrl, key, 'car', 'import', files.vehicles);
  log(describeRun('vehicles', vehicles));

  // 3. readings of those vehicles, the same way
  const readingsDryRun = await runFile(baseUrl, key, 'mileage-reading', 'dryRun', files.readings);
  log(describeRun('readings, dry run', readingsDryRun));
  for (const e of readingsDryRun.errors) log(`  row ${e.row}, ${e.column ?? ''}: ${e.message}`);
  if (readingsDryRun.state !== 'succeeded' || readingsDryRun.counts.errors > 0) throw new Error('the readings file has errors: fix it first');
  const readings = await runFile(baseUrl, key, 'mileage-reading', 'import', files.readings);
  log(describeRun('readings', readings));

  // 4. the result, read with the same key: the vehicles and their last reading
  const portal = connectWithKey(baseUrl, key);
  const page = await portal.POST('/api/car/table2', {
    body: { startRow: 0, endRow: 100, filterModel: { rejestr: { filterType: 'text', type: 'startsWith', filter: 'KR501' } }, sortModel: [{ colId: 'rejestr', sort: 'asc' }] },
  });
  if (!page.data) throw new Error(`${page.response.status}: ${page.error?.detail}`);
  const read = page.data.rows.map((r) => ({ nrPodw: String(r.nrPodw), rejestr: String(r.rejestr), aktStanLicz: (r.aktStanLicz as number | null) ?? null }));
  for (const v of read) log(`${v.rejestr}\t${v.nrPodw}\t${v.aktStanLicz ?? ''} km`);
  return { key, runs: { vehiclesDryRun, vehicles, readingsDryRun, readings }, vehicles: read };
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const [baseUrl, username, password, client] = process.argv.slice(2);
  if (!baseUrl || !username || !password || !client) {
    console.error('usage: npx tsx examples/integration/load-fleet.ts <portal URL> <admin login> <password> <client symbol>');
    process.exit(2);
  }
  await loadFleet(baseUrl, username, password, client);
}
