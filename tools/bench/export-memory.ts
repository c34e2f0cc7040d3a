/**
 * Peak memory of an Excel export, in a process of its own (spawned by export.ts): the portal's
 * server alone, on the bench database, asked for the same export as the timed measurement. Run in
 * the bench's own process, the figure would also hold the bench's replayed SQL rows and whatever
 * else it keeps; here the process is the server plus one small HTTP client.
 *
 * Linux keeps a process's resident-size high-water mark (VmHWM) and lets the process reset it
 * (writing 5 to /proc/self/clear_refs), so the peak of the exports alone is read exactly, however
 * briefly it lasted — the synchronous writing of the file included, which no sampling timer sees.
 *
 * argv: databaseUrl schema configRoot variant body(JSON) repetitions → writes {before, peak} (MB) to
 * file descriptor 3, the pipe export.ts reads (standard output is left to whatever logs).
 */
import { readFileSync, writeFileSync, writeSync } from 'node:fs';
import { buildApp } from '../../server/app.ts';
import { openDatabase } from '../../server/db/connect.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import { apiClient } from './http.ts';

const [databaseUrl, schema, root, variant, bodyJson, repetitionsText] = process.argv.slice(2);
const status = (field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) / 1024;

const database = await openDatabase({ databaseUrl, schema });
const app = await buildApp({ db: database.db, root, variant, version: 'bench', logger: false, secondFactor: { enforce: false } });
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
if (!address || typeof address === 'string') throw new Error('no port');
const baseUrl = `http://127.0.0.1:${address.port}`;
const api = apiClient(baseUrl, app.config.bundle.app.name);
const token = await api.signIn({ username: DEMO_ACCOUNTS.admin.login, password: DEMO_ACCOUNTS.admin.password, role: 'MANAGER' });

const exportOnce = async () => {
  const { data } = await api.post<{ data: string }>('/order/excel/prepare', JSON.parse(bodyJson), token);
  const res = await fetch(baseUrl + data);
  if (!res.ok) throw new Error(`download: ${res.status}`);
  await res.arrayBuffer();
};

await exportOnce(); // loads and compiles everything the export uses
global.gc?.();
await new Promise((r) => setTimeout(r, 200));
const before = status('VmRSS');
writeFileSync('/proc/self/clear_refs', '5'); // VmHWM := VmRSS
for (let i = 0; i < Number(repetitionsText); i++) await exportOnce();
const peak = status('VmHWM');
await app.close();
await database.close();
writeSync(3, JSON.stringify({ before, peak }));
