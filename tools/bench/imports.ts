/**
 * Imports (issue 34), part of `npm run bench`; alone, on PostgreSQL (DATABASE_URL, default the local
 * `test` database):
 *   node --import tsx tools/bench/imports.ts [--cars 100000] [--readings 1000000] [--fuel 1000000] [--schema bench]
 *
 * The server runs in a process of its own (server-process.ts: `npm start`, the compiled server, as operators run it,
 * its import-run jobs on its own queue) on a fresh schema (`<schema>_imports`, dropped after), so its
 * resident size is the server's alone and the load generator does not share its event loop. Side by
 * side in one run: a CSV of `--cars` vehicles of the manager's client as a dry run, imported,
 * imported again (0 rows written); then a CSV of `--readings` odometer readings of those vehicles;
 * then `--fuel` fuel transactions in ORLEN's export format (issue 46: ≤ 60 s for 1,000,000) on a
 * card of each of those vehicles, and the same file again (nothing written: matched by number).
 * For each run: the time from the upload's first byte to the run's end, its counts, the server's
 * peak resident size above its size just before (Linux: VmHWM after resetting it through
 * /proc/<pid>/clear_refs, so a short peak is not missed), the load average, and the p95 of the
 * manager's vehicles-table calls (`POST /api/car/table2`, one user, a call every 100 ms) during the
 * run beside the p95 of the same calls on the idle portal just before it (same data).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { makeNonce, NONCE_HEADER, SIGNATURE_HEADER, signBody } from '../../runtime/core/signing.ts';
import { dropSchema, openDatabase, type DatabaseHandle } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { databaseSettings } from './database-settings.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import { multipartBody } from '../../tests/support/multipart.ts';
import { apiClient } from './http.ts';
import { startServer, type ServerProcess } from './server-process.ts';
import { latency } from './stats.ts';

export const IMPORT_CARS = 100_000;
export const IMPORT_READINGS = 1_000_000;
export const IMPORT_FUEL = 1_000_000;
const TABLE_PAUSE_MS = 100;
const IDLE_CALLS = 60;
/** How many times the runs that change nothing are repeated, their calls pooled. */
const REPEAT = 3;
const f1 = (n: number) => n.toFixed(1);
const n0 = (n: number) => n.toLocaleString('en-US');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ImportBenchInput {
  root: string;
  databaseUrl: string;
  schema: string;
  cars: number;
  readings: number;
  /** fuel transactions (0: none) */
  fuel: number;
  log: (m: string) => void;
}

const vin = (n: number) => `BENCH${String(n).padStart(12, '0')}`;

function carsCsv(client: string, cars: number): Buffer {
  const lines = ['\uFEFFVIN;Klient;Nr rejestracyjny;Marka;Rok produkcji;Data rejestracji;OC polisa;OC od;OC do;AC polisa;AC do'];
  for (let i = 0; i < cars; i++) {
    lines.push(`${vin(i)};${client};B${String(i).padStart(7, '0')};Marka ${i % 40};${2015 + (i % 10)};${String(1 + (i % 28)).padStart(2, '0')}.06.2020;OC/${i};01.01.2026;31.12.2026;AC/${i};31.12.2026`);
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

function readingsCsv(cars: number, readings: number): Buffer {
  const perCar = Math.max(1, Math.ceil(readings / cars));
  const lines = ['VIN;Stan licznika;Data odczytu'];
  let n = 0;
  for (let i = 0; i < cars && n < readings; i++) {
    for (let k = 0; k < perCar && n < readings; k++, n++) lines.push(`${vin(i)};${(k + 1) * 1000};${String(1 + k).padStart(2, '0')}.01.2025 08:00`);
  }
  return Buffer.from(lines.join('\n') + '\n');
}

/** A signed POST of raw bytes, as the browser's upload sends it. */
/**
 * A signed POST of a raw body, signed now and sent when called: the signature of an 11 MB file is
 * ~50 ms of this process's own CPU, which would otherwise delay the table calls it times beside it.
 */
/** The card of bench vehicle i (created by the bench beside the imported vehicles). */
const cardNo = (n: number) => `BK${String(n).padStart(12, '0')}`;

/**
 * `fuel` transactions in ORLEN's export (schemas/imports/fuel-orlen.json): decimal commas,
 * DD.MM.RRRR HH:MM, the card's number and no registration (the vehicle is the card's), spread over
 * the cards, a fill every few days of 2025, diesel with now and then an AdBlue.
 */
function fuelCsv(cars: number, fuel: number): Buffer {
  const lines = ['\uFEFFNr transakcji;Data transakcji;Nr karty;Nr rejestracyjny;Stacja;Produkt;Ilość;Cena jednostkowa;Wartość netto;Wartość brutto;Stan licznika'];
  const comma = (n: number) => n.toFixed(2).replace('.', ',');
  for (let n = 0; n < fuel; n++) {
    const car = n % cars;
    const k = Math.floor(n / cars);
    const day = 1 + ((k * 3 + car) % 365);
    const date = new Date(Date.UTC(2025, 0, day, 6 + (n % 14), n % 60));
    const when = `${String(date.getUTCDate()).padStart(2, '0')}.${String(date.getUTCMonth() + 1).padStart(2, '0')}.${date.getUTCFullYear()} ${String(date.getUTCHours()).padStart(2, '0')}:${String(date.getUTCMinutes()).padStart(2, '0')}`;
    const adBlue = n % 17 === 0;
    const litres = adBlue ? 5 : 25 + (n % 30);
    const price = adBlue ? 3.1 : 6.05;
    const net = Math.round(litres * price * 100) / 100;
    lines.push(`BT-${n};${when};${cardNo(car)};;ORLEN ${1 + (n % 900)};${adBlue ? 'AdBlue' : 'ON'};${comma(litres)};${price.toFixed(3).replace('.', ',')};${comma(net)};${comma(Math.round(net * 123) / 100)};`);
  }
  return Buffer.from(lines.join('\r\n') + '\r\n');
}

function signedPost(baseUrl: string, path: string, body: Buffer, contentType: string, token: string, signingName: string) {
  const nonce = makeNonce();
  const url = new URL(baseUrl);
  const headers = { 'content-type': contentType, 'content-length': body.length, authorization: `Bearer ${token}`, [NONCE_HEADER]: nonce, [SIGNATURE_HEADER]: signBody(signingName, nonce, body) };
  return () => new Promise<{ status: number; text: string }>((done, fail) => {
    const req = http.request({ host: url.hostname, port: url.port, path, method: 'POST', headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end(body);
  });
}

/** A field of /proc/<pid>/status, in MB. */
function memory(pid: number, field: 'VmRSS' | 'VmHWM'): number {
  return Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
}

export interface ImportFigure {
  what: string;
  /** The slowest of its repetitions; allSeconds: each. */
  seconds: number;
  allSeconds: number[];
  state: string;
  counts: { new: number; changed: number; unchanged: number; deactivated: number; errors: number };
  memoryMb: number;
  idleP95: number;
  duringP95: number;
  duringCalls: number;
  /** The same, for the manager of another client (none of the imported rows are theirs). */
  otherIdleP95: number;
  otherDuringP95: number;
  load: number;
  /** What the database wrote during the run (the whole server's counters, the table calls' share is small). */
  wal: DatabaseWrites;
  /** The database's settings the run had (database-settings.ts). */
  settings: string;
}

/** PostgreSQL's own counters of what it wrote: WAL bytes, full-page images in it, checkpoints (timed and requested). */
interface DatabaseWrites { walMb: number; fullPageImages: number; checkpoints: number; requestedCheckpoints: number }

async function databaseWrites(db: DatabaseHandle['db']): Promise<DatabaseWrites> {
  // PostgreSQL 17 moved the checkpoints' counters from pg_stat_bgwriter to pg_stat_checkpointer
  const { rows: [{ v17 }] } = await sql<{ v17: boolean }>`select to_regclass('pg_catalog.pg_stat_checkpointer') is not null as v17`.execute(db);
  const checkpoints = v17 ? sql`select num_timed as timed, num_requested as req from pg_stat_checkpointer` : sql`select checkpoints_timed as timed, checkpoints_req as req from pg_stat_bgwriter`;
  const { rows: [w] } = await sql<{ bytes: string; fpi: string; timed: string; req: string }>`
    select w.wal_bytes::text as bytes, w.wal_fpi::text as fpi, c.timed::text as timed, c.req::text as req
    from pg_stat_wal w, (${checkpoints}) c`.execute(db);
  return { walMb: Number(w.bytes) / 1e6, fullPageImages: Number(w.fpi), checkpoints: Number(w.timed) + Number(w.req), requestedCheckpoints: Number(w.req) };
}
const writesBetween = (a: DatabaseWrites, b: DatabaseWrites): DatabaseWrites => ({
  walMb: b.walMb - a.walMb, fullPageImages: b.fullPageImages - a.fullPageImages, checkpoints: b.checkpoints - a.checkpoints, requestedCheckpoints: b.requestedCheckpoints - a.requestedCheckpoints,
});

export async function importRuns(o: ImportBenchInput): Promise<ImportFigure[]> {
  if (!/_imports$/.test(o.schema)) throw new Error(`the imports bench drops its schema: give it one of its own ending in _imports, not "${o.schema}"`);
  const jobSchema = jobQueueSchema(o.schema);
  await dropSchema({ databaseUrl: o.databaseUrl, schema: o.schema });
  await dropSchema({ databaseUrl: o.databaseUrl, schema: jobSchema });
  o.log(`imports: starting a server on a fresh schema ${o.schema}…`);
  // as an operator runs it: the compiled server, whose import runs check their rows on the compiled row thread
  const server: ServerProcess = await startServer(o.root, { DATABASE_URL: o.databaseUrl, DATABASE_SCHEMA: o.schema, DB_APPLICATION_NAME: 'fleet-portal-bench-imports' }, 'npm start');
  const database = await openDatabase({ databaseUrl: o.databaseUrl, schema: o.schema });
  const figures: ImportFigure[] = [];
  try {
    const { name: signingName } = await (await fetch(`${server.baseUrl}/api/init/pre-config`)).json() as { name: string };
    const api = apiClient(server.baseUrl, signingName);
    const admin = await api.signIn({ username: DEMO_ACCOUNTS.admin.login, password: DEMO_ACCOUNTS.admin.password, role: 'MANAGER' });
    const manager = await api.signIn({ username: DEMO_ACCOUNTS.manager.login, password: DEMO_ACCOUNTS.manager.password, role: 'MANAGER' });
    await api.post('/terms/accept-current', {}, manager);
    const otherManager = await api.signIn({ username: DEMO_ACCOUNTS.manager2.login, password: DEMO_ACCOUNTS.manager2.password, role: 'MANAGER' });
    await api.post('/terms/accept-current', {}, otherManager).catch(() => undefined);
    const client = (await sql<{ k: string }>`select "klientSymbol" as k from app_user where login = ${DEMO_ACCOUNTS.manager.login}`.execute(database.db)).rows[0].k;
    const pid = server.pid();
    const settings = await databaseSettings(database.db);
    o.log(`imports: ${settings}`);

    const tableCall = (who: typeof manager) => api.post('/car/table2', { startRow: 0, endRow: 30, sortModel: [{ colId: 'rejestr', sort: 'asc' }], filterModel: {} }, who);
    const timedCall = async (who: typeof manager) => {
      const started = performance.now();
      await tableCall(who);
      return performance.now() - started;
    };
    for (let i = 0; i < 5; i++) await Promise.all([tableCall(manager), tableCall(otherManager)]); // warm
    /** Each manager calls the table, one call every TABLE_PAUSE_MS, while `going()`; their times. */
    const users = async (going: () => boolean) => {
      const times = { same: [] as number[], other: [] as number[] };
      const user = async (who: typeof manager, into: number[]) => {
        while (going()) {
          into.push(await timedCall(who));
          await sleep(TABLE_PAUSE_MS);
        }
      };
      await Promise.all([user(manager, times.same), user(otherManager, times.other)]);
      return times;
    };

    /** One run of the file, with both users' calls just before it (idle) and during it. */
    const once = async (declaration: string, mode: string, fileName: string, content: Buffer) => {
      // the idle portal's p95 of the same call, on the same data, just before
      let idleCalls = 0;
      const idle = await users(() => idleCalls++ < IDLE_CALLS * 2);
      const { body, contentType } = multipartBody([
        { name: 'declaration', value: declaration }, { name: 'mode', value: mode }, { name: 'file', filename: fileName, content, type: 'text/csv' },
      ]);
      const post = signedPost(server.baseUrl, '/api/import/runs', body, contentType, admin, signingName);
      const before = memory(pid, 'VmRSS');
      const writesBefore = await databaseWrites(database.db);
      writeFileSync(`/proc/${pid}/clear_refs`, '5'); // VmHWM := VmRSS
      let running = true;
      const duringCalls = users(() => running);
      const started = performance.now();
      const created = await post();
      if (created.status !== 202) throw new Error(`imports: ${created.status} ${created.text}`);
      const { id } = JSON.parse(created.text) as { id: number };
      let state: any;
      for (;;) {
        state = await api.get(`/import/runs/${id}`, admin);
        if (state.state !== 'queued' && state.state !== 'running' && state.state !== 'receiving') break;
        await sleep(200);
      }
      const seconds = (performance.now() - started) / 1000;
      running = false;
      // the peak can be below the RSS read before (the heap shrank meanwhile): nothing above idle, not "-0 MB"
      return { seconds, state, memoryMb: Math.max(0, memory(pid, 'VmHWM') - before), wal: writesBetween(writesBefore, await databaseWrites(database.db)), idle, during: await duringCalls };
    };

    /**
     * The file run `repeat` times (a run that writes the same each time: a dry run, the same file
     * again), the table calls of all of them pooled: a run of 4 s gives some 40 calls a user, whose
     * p95 is their second slowest; three give a p95 the machine's noise moves less.
     */
    const run = async (what: string, declaration: string, mode: string, fileName: string, content: Buffer, repeat = 1) => {
      const runs: Awaited<ReturnType<typeof once>>[] = [];
      for (let i = 0; i < repeat; i++) runs.push(await once(declaration, mode, fileName, content));
      const pooled = (pick: (r: (typeof runs)[number]) => number[]) => runs.flatMap(pick);
      const last = runs[runs.length - 1];
      const figure: ImportFigure = {
        what, seconds: Math.max(...runs.map((r) => r.seconds)), allSeconds: runs.map((r) => r.seconds), state: last.state.state, counts: last.state.counts,
        memoryMb: Math.max(...runs.map((r) => r.memoryMb)),
        idleP95: latency(pooled((r) => r.idle.same)).p95, duringP95: latency(pooled((r) => r.during.same)).p95, duringCalls: pooled((r) => r.during.same).length,
        otherIdleP95: latency(pooled((r) => r.idle.other)).p95, otherDuringP95: latency(pooled((r) => r.during.other)).p95,
        load: os.loadavg()[0],
        wal: last.wal,
        settings,
      };
      o.log(`  ${what}: ${figure.allSeconds.map(f1).join(' / ')} s, ${figure.state}, new ${figure.counts.new}, changed ${figure.counts.changed}, unchanged ${figure.counts.unchanged}, errors ${figure.counts.errors}; `
        + `server +${figure.memoryMb.toFixed(0)} MB; table p95 ${f1(figure.idleP95)} ms idle, ${f1(figure.duringP95)} ms during (${figure.duringCalls} calls); `
        + `another client's ${f1(figure.otherIdleP95)} → ${f1(figure.otherDuringP95)} ms; load ${f1(figure.load)}; `
        + `WAL ${figure.wal.walMb.toFixed(0)} MB (${n0(figure.wal.fullPageImages)} full pages), ${figure.wal.checkpoints} checkpoints (${figure.wal.requestedCheckpoints} for WAL's size)`);
      // a run that did not succeed says why (its message), or the figures would hide a failure
      if (figure.state !== 'succeeded') o.log(`  ${what}: ${figure.state}: ${last.state.message ?? '(no message)'}`);
      figures.push(figure);
    };

    const cars = carsCsv(client, o.cars);
    o.log(`imports: ${n0(o.cars)} vehicles (${f1(cars.length / 1e6)} MB CSV)…`);
    await run(`${n0(o.cars)} vehicles, dry run`, 'car', 'dryRun', 'pojazdy.csv', cars, REPEAT);
    await run(`${n0(o.cars)} vehicles, import`, 'car', 'import', 'pojazdy.csv', cars);
    await run(`${n0(o.cars)} vehicles, the same file again`, 'car', 'import', 'pojazdy.csv', cars, REPEAT);
    const readings = readingsCsv(o.cars, o.readings);
    o.log(`imports: ${n0(o.readings)} readings (${f1(readings.length / 1e6)} MB CSV)…`);
    await run(`${n0(o.readings)} odometer readings, import`, 'mileage-reading', 'import', 'odczyty.csv', readings);
    if (o.fuel > 0) {
      // a card for each imported vehicle, as the issuer's card list would have loaded them (not what is measured)
      await sql`insert into fuel_card ("klientSymbol", "pojazdId", "nrKarty", "firma", "dataOd", "dataDo", "status", "rodzKarty", "pracPoja", "limWaMiePal", "katPal", "prodPozaPal")
        select c."klientSymbol", c."pojazdId", 'BK' || substr(c."nrPodw", 6), 'ORLEN S.A.', date '2024-01-01', date '2030-12-31', 'Aktywna', 'Flotowa', 'Pojazd', 100000, 'ON', 'T'
        from car c where c."nrPodw" like 'BENCH%'`.execute(database.db);
      const fuel = fuelCsv(o.cars, o.fuel);
      o.log(`imports: ${n0(o.fuel)} fuel transactions (${f1(fuel.length / 1e6)} MB CSV)…`);
      await run(`${n0(o.fuel)} fuel transactions (ORLEN's export), import`, 'fuel-orlen', 'import', 'transakcje.csv', fuel);
      await run(`${n0(o.fuel)} fuel transactions, the same file again`, 'fuel-orlen', 'import', 'transakcje.csv', fuel);
    }
    return figures;
  } finally {
    await database.close();
    await server.stop();
    await dropSchema({ databaseUrl: o.databaseUrl, schema: o.schema });
    await dropSchema({ databaseUrl: o.databaseUrl, schema: jobSchema });
  }
}

export function importMarkdown(figures: ImportFigure[], o: Pick<ImportBenchInput, 'cars' | 'readings' | 'fuel'>): string[] {
  const fuel = o.fuel > 0 ? ` and ${n0(o.fuel)} fuel transactions` : '';
  return ['', `### Imports: ${n0(o.cars)} vehicles, ${n0(o.readings)} odometer readings${fuel} from CSV (issues 34, 46)`, '',
    'The server (`npm start`: compiled, as operators run it) in a process of its own on a fresh schema, the run posted through the real upload route and run by its import-run job. Time: from the upload\'s first byte to the run\'s end; a dry run and the same file again run three times, their table calls pooled. Server memory: its peak resident size during the run above its size just before. Table p95: the vehicles table (`POST /api/car/table2`, a call every 100 ms) of the manager of the client the file is for, and of a manager of another client, during the run, beside the same calls on the idle portal just before it. Load: the 1-minute load average at the run\'s end (2 cores, shared). WAL: what PostgreSQL wrote to its write-ahead log during the (last) run, the full-page images in it, and its checkpoints (those requested because the WAL reached max_wal_size in brackets): the database\'s side of an import, which its settings (shared_buffers, max_wal_size) decide as much as the portal.', '',
    '| run | time | state | new | changed | unchanged | errors | server memory above idle | table p95 idle → during, the file\'s client | another client | load | WAL (full pages), checkpoints |',
    '|---|---|---|---|---|---|---|---|---|---|---|---|',
    ...figures.map((f) => `| ${f.what} | ${f.allSeconds.map(f1).join(' / ')} s | ${f.state} | ${f.counts.new} | ${f.counts.changed} | ${f.counts.unchanged} | ${f.counts.errors} | ${f.memoryMb.toFixed(0)} MB | ${f1(f.idleP95)} → ${f1(f.duringP95)} ms (${(f.duringP95 / f.idleP95).toFixed(1)}×) | ${f1(f.otherIdleP95)} → ${f1(f.otherDuringP95)} ms (${(f.otherDuringP95 / f.otherIdleP95).toFixed(1)}×) | ${f1(f.load)} | ${f.wal.walMb.toFixed(0)} MB (${n0(f.wal.fullPageImages)}), ${f.wal.checkpoints} (${f.wal.requestedCheckpoints}) |`),
    ...(figures.length ? ['', `Database: ${figures[0].settings}.`] : [])];
}

export async function importFigures(o: ImportBenchInput): Promise<string[]> {
  return importMarkdown(await importRuns(o), o);
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { cars: { type: 'string' }, readings: { type: 'string' }, fuel: { type: 'string' }, schema: { type: 'string' } } });
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  const input = {
    root, databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test', schema: `${values.schema ?? 'bench'}_imports`,
    cars: Number(values.cars ?? IMPORT_CARS), readings: Number(values.readings ?? IMPORT_READINGS), fuel: Number(values.fuel ?? IMPORT_FUEL), log: (m: string) => console.log(m),
  };
  console.log(`load average at the start ${os.loadavg().map(f1).join(' / ')}`);
  console.log(importMarkdown(await importRuns(input), input).join('\n'));
}
