/**
 * E-mail notifications (issue 25): 10 000 notifications queued and delivered to a local SMTP
 * server; messages per second and the server's resident memory.
 *
 * The server runs in a process of its own (server-process.ts: server/main.ts with the flags of
 * `npm start`), one process with its delivery worker as it comes (no settings of its own:
 * screens/notifications.json `delivery`: 16 at once, 5 SMTP connections), on a schema of its own, created afresh
 * for each run with the demo seed (the server migrates and seeds it at start) and dropped after:
 * 10 000 notifications are not left in the bench data, and the bench schema's own server is not
 * given a mail server. The SMTP server is smtp-server in this process, on 127.0.0.1, plain SMTP,
 * accepting everything and keeping only each message's Message-ID (one per notification,
 * server/notifications/mail.ts), so a message that arrived twice is counted. It greets at once,
 * as a local relay does, for the main figures; a second, smaller batch keeps smtp-server's own
 * 100 ms before each greeting, since the portal opens a connection per e-mail.
 *
 * Queued as the app queues them: a driver reports damages through POST /api/damage/add from a few
 * concurrent clients; each report writes, in its own transaction, the damage, its notifications
 * (an e-mail and an in-app one to each of the client's two fleet managers) and the e-mails' jobs.
 * The worker delivers while the reports arrive, then the backlog alone; both rates are given.
 *
 * In `npm run bench` (index.ts); alone, without the rest of the bench:
 *   node --import tsx tools/bench/notifications.ts [--count 10000] [--schema bench_notifications]
 * (BENCH_QUICK=1 or --quick: 1 000 notifications). Prints the markdown it would add to docs/benchmarks.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { dirname, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { sql } from 'kysely';
import { SMTPServer } from 'smtp-server';
import { dropSchema, openDatabase } from '../../server/db/connect.ts';
import { jobQueueSchema } from '../../server/db/job-schema.ts';
import { DEMO_ACCOUNTS } from '../../server/seed/seed.ts';
import { apiClient } from './http.ts';
import { startServer } from './server-process.ts';
import { latency, timed } from './stats.ts';

export const NOTIFICATIONS = 10_000;
/** Concurrent clients reporting damages. */
const CLIENTS = 8;
/** The demo driver's vehicle (client KL001, whose two fleet managers have e-mail addresses). */
const PLATE = 'WZ12345';
const E_MAILS_PER_REPORT = 2;
const PUBLIC_URL = 'https://portal.example.pl';
/** Longest wait for the last e-mail: a stalled delivery ends the part rather than the bench hanging. */
const DEADLINE_MS = 20 * 60_000;
/** Table calls measured idle, and the pause between two calls (idle and during the batch). */
const TABLE_CALLS = 40;
const TABLE_PAUSE_MS = 200;
/** screens/notifications.json delivery.probeSeconds as configured (the default). */
const PROBE_SECONDS = 10;

/** A port on 127.0.0.1 nobody listens on: the mail server "down". */
function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export interface NotificationBenchInput {
  root: string;
  databaseUrl: string;
  /** A schema of this part's own: dropped and created again (never the bench's data schema). */
  schema: string;
  /** Notifications to queue and deliver (e-mails; a report queues 2). */
  count: number;
  log: (m: string) => void;
}

interface Sink {
  port: number;
  /** Messages taken, in all. */
  received(): number;
  /** Message-IDs that arrived more than once. */
  duplicates(): number;
  /** performance.now() of the latest message. */
  last(): number;
  /** Answer a connection's greeting at once (a local relay), or after smtp-server's own 100 ms (its check for clients that talk too early). */
  greetAtOnce(atOnce: boolean): void;
  close(): Promise<void>;
}

/**
 * A local SMTP server (smtp-server) that only counts: each message's Message-ID and when it
 * arrived. smtp-server waits 100 ms before greeting every connection (its early-talker check, not
 * an option); a local relay (Postfix, a smarthost) greets at once, so the greeting can be made
 * immediate for the main figure.
 */
async function startSink(): Promise<Sink> {
  const seen = new Set<string>();
  let count = 0;
  let last = NaN;
  let duplicates = 0;
  let atOnce = false;
  const specifier = 'smtp-server/lib/smtp-connection.js'; // smtp-server's own connection class (the package exports it)
  const { SMTPConnection } = await import(specifier);
  const init = SMTPConnection.prototype.init;
  if (!init.patchedByBench) {
    SMTPConnection.prototype.init = Object.assign(function (this: any) {
      if (!this._server.options.greetAtOnce?.()) return init.call(this);
      this._setListeners(() => this.connectionReady());
    }, { patchedByBench: true });
  }
  const server = new SMTPServer({
    // no reverse DNS of the client's address: the sink's own cost, not the portal's
    authOptional: true, allowInsecureAuth: true, disabledCommands: ['STARTTLS'], logger: false, disableReverseLookup: true,
    ...({ greetAtOnce: () => atOnce } as object),
    onAuth: (_auth, _session, callback) => callback(null, { user: 'portal' }),
    onData(stream, _session, callback) {
      let head = '';
      stream.on('data', (c: Buffer) => {
        if (head.length < 16_384) head += c.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^Message-ID:\s*(<[^>]+>)/im.exec(head)?.[1] ?? `(none ${count})`;
        if (seen.has(id)) duplicates++;
        seen.add(id);
        count++;
        last = performance.now();
        callback();
      });
    },
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.server.address() as { port: number }).port,
    received: () => count,
    duplicates: () => duplicates,
    last: () => last,
    greetAtOnce: (value) => {
      atOnce = value;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const f1 = (n: number) => n.toFixed(1);
const n0 = (n: number) => n.toLocaleString('en-US');
const load = () => os.loadavg()[0].toFixed(1);
const statusOf = (pid: number, field: 'VmRSS' | 'VmHWM') => Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Batch {
  reports: number;
  failedReports: number;
  damageIds: number[];
  /** Seconds to queue (all reports answered), and to the last e-mail, from the first report. */
  queueSeconds: number;
  totalSeconds: number;
  /** E-mails delivered while the reports arrived, and in all. */
  duringQueueing: number;
  delivered: number;
}

export async function notificationFigures(o: NotificationBenchInput): Promise<string[]> {
  if (!/_notifications$/.test(o.schema)) throw new Error(`the notifications bench drops its schema: give it one of its own ending in _notifications, not "${o.schema}"`);
  const jobSchema = jobQueueSchema(o.schema);
  await dropSchema({ databaseUrl: o.databaseUrl, schema: o.schema });
  await dropSchema({ databaseUrl: o.databaseUrl, schema: jobSchema });
  const sink = await startSink();
  o.log(`notifications: starting the server on a fresh schema ${o.schema} (migrated and seeded at start)…`);
  const server = await startServer(o.root, { DATABASE_URL: o.databaseUrl, DATABASE_SCHEMA: o.schema, PUBLIC_URL, DB_APPLICATION_NAME: 'fleet-portal-bench-notifications' });
  const database = await openDatabase({ databaseUrl: o.databaseUrl, schema: o.schema });
  try {
    const pid = server.child.pid!;
    await database.db.updateTable('email_config').set({
      smtpHost: '127.0.0.1', smtpPort: sink.port, smtpUser: 'portal', smtpPassword: 'bench', smtpEmail: 'portal@partnercfm.pl', smtpSsl: 'OFF',
    }).where('id', '=', 1).execute();
    const preConfig = await (await fetch(`${server.baseUrl}/api/init/pre-config`)).json() as { name: string };
    const api = apiClient(server.baseUrl, preConfig.name);
    const { id_token: driver } = await api.post<{ id_token: string }>('/user/auth', {
      username: DEMO_ACCOUNTS.kierowca.login, password: DEMO_ACCOUNTS.kierowca.password, role: 'USER', rejestr: PLATE,
    });
    const car = await database.db.selectFrom('car').select(['pojazdId', 'rejestr', 'pracId']).where('rejestr', '=', PLATE).executeTakeFirstOrThrow();
    const report = () => api.post<{ sprawaId: number }>('/damage/add', {
      pojazdId: car.pojazdId, rejestr: car.rejestr, pracId: car.pracId, dataSzkod: new Date().toISOString(), rodzSzkod: 'Kolizja drogowa',
      zgloNazwiskoImie: 'Kowalski Jan', zgloTelef: '+48 600 100 200', zgloEmail: 'jan.kowalski@transbud.pl',
    }, driver);
    const arrived = async (n: number, deadlineMs: number) => {
      const until = Date.now() + deadlineMs;
      while (sink.received() < n) {
        if (Date.now() > until) throw new Error(`notifications: ${sink.received()} of ${n} e-mails arrived within ${deadlineMs / 1000} s`);
        await sleep(100);
      }
    };
    /** `reports` damage reports from CLIENTS clients; answers the damages' ids and the reports that failed. */
    const queueReports = async (reports: number) => {
      const damageIds: number[] = [];
      let next = 0;
      let failedReports = 0;
      const client = async () => {
        while (next < reports) {
          next++;
          try {
            damageIds.push((await report()).sprawaId);
          } catch {
            failedReports++;
          }
        }
      };
      await Promise.all(Array.from({ length: CLIENTS }, client));
      return { damageIds, failedReports };
    };
    /** `emails` e-mails queued by damage reports from CLIENTS clients, and delivered. */
    const batch = async (emails: number): Promise<Batch> => {
      const reports = Math.ceil(emails / E_MAILS_PER_REPORT);
      const base = sink.received();
      const start = performance.now();
      const { damageIds, failedReports } = await queueReports(reports);
      const queuedAt = performance.now();
      const duringQueueing = sink.received() - base;
      await arrived(base + damageIds.length * E_MAILS_PER_REPORT, DEADLINE_MS);
      return {
        reports, failedReports, damageIds, duringQueueing, delivered: sink.received() - base,
        queueSeconds: (queuedAt - start) / 1000, totalSeconds: (sink.last() - start) / 1000,
      };
    };
    const rate = (b: Batch) => b.delivered / b.totalSeconds;
    const backlogRate = (b: Batch) => (b.delivered - b.duringQueueing) / (b.totalSeconds - b.queueSeconds);

    // warm-up: a report's and a delivery's code compiled, connections open
    sink.greetAtOnce(true);
    await batch(10);
    await sleep(1_000);
    const rssBefore = server.rssMb();
    writeFileSync(`/proc/${pid}/clear_refs`, '5'); // the high-water mark from here on (VmHWM := VmRSS)
    const loadAtStart = load();

    // a fleet manager's vehicles table, idle and while the batch is delivered (issue 35: within 2× of idle)
    const { id_token: manager } = await api.post<{ id_token: string }>('/user/auth', { username: DEMO_ACCOUNTS.manager.login, password: DEMO_ACCOUNTS.manager.password, role: 'MANAGER' });
    await api.post('/terms/accept-current', {}, manager);
    const tableCall = () => timed(() => api.post('/car/table2', { startRow: 0, endRow: 30 }, manager));
    for (let i = 0; i < 5; i++) await tableCall();
    const idleSamples: number[] = [];
    for (let i = 0; i < TABLE_CALLS; i++) {
      idleSamples.push(await tableCall());
      await sleep(TABLE_PAUSE_MS);
    }
    /** The table's latencies while `work` runs. */
    const tableWhile = async <T>(work: Promise<T>): Promise<[T, number[]]> => {
      const samples: number[] = [];
      let running = true;
      const probe = (async () => {
        while (running) {
          samples.push(await tableCall());
          await sleep(TABLE_PAUSE_MS);
        }
      })();
      try {
        return [await work, samples];
      } finally {
        running = false;
        await probe;
      }
    };

    o.log(`notifications: ${n0(o.count)} e-mails queued by ${n0(Math.ceil(o.count / E_MAILS_PER_REPORT))} damage reports from ${CLIENTS} clients…`);
    const [main, busySamples] = await tableWhile(batch(o.count));
    const idle = latency(idleSamples);
    const busy = latency(busySamples);
    o.log(`  the manager's vehicles table: p95 ${f1(idle.p95)} ms idle, ${f1(busy.p95)} ms during the batch (${busy.n} calls)`);
    const peak = statusOf(pid, 'VmHWM');
    await sleep(2_000);
    const rssAfter = server.rssMb();
    const loadAtEnd = load();
    const states = (await sql<{ state: string; n: number }>`
      select state, count(*)::int as n from notification
      where channel = 'email' and event = 'damageReported' and "entityId" = any(${main.damageIds}::int[]) group by state order by state`.execute(database.db)).rows;
    o.log(`  ${main.delivered} in ${f1(main.totalSeconds)} s: ${f1(rate(main))}/s (the backlog alone ${f1(backlogRate(main))}/s); RSS ${f1(rssBefore)} → peak ${f1(peak)} → ${f1(rssAfter)} MB; duplicates ${sink.duplicates()}`);

    // the same with smtp-server's own 100 ms before each greeting: what a slower mail server costs
    const slowCount = Math.min(1_000, Math.ceil(o.count / 10));
    o.log(`notifications: ${n0(slowCount)} more with the greeting after 100 ms…`);
    sink.greetAtOnce(false);
    const slow = await batch(slowCount);
    o.log(`  ${slow.delivered} in ${f1(slow.totalSeconds)} s: ${f1(rate(slow))}/s`);

    // a backlog queued while the mail server was down, delivered when it is back
    o.log(`notifications: ${n0(o.count)} e-mails queued while the mail server is down…`);
    sink.greetAtOnce(true);
    await database.db.updateTable('email_config').set({ smtpPort: await closedPort() }).where('id', '=', 1).execute();
    const outageBase = sink.received();
    const outageStart = performance.now();
    const outage = await queueReports(Math.ceil(o.count / E_MAILS_PER_REPORT));
    const outageEmails = outage.damageIds.length * E_MAILS_PER_REPORT;
    // every one of them waiting for the server (the process found it unreachable)
    for (const until = Date.now() + DEADLINE_MS; ;) {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from notification
        where channel = 'email' and event = 'damageReported' and "entityId" = any(${outage.damageIds}::int[]) and state = 'queued' and "lastError" = 'SMTP_DOWN'`.execute(database.db);
      if (rows[0].n === outageEmails) break;
      if (Date.now() > until) throw new Error(`notifications: ${rows[0].n} of ${outageEmails} e-mails wait for the mail server`);
      await sleep(500);
    }
    const waitedSeconds = (performance.now() - outageStart) / 1000;
    const backAt = performance.now();
    await database.db.updateTable('email_config').set({ smtpPort: sink.port }).where('id', '=', 1).execute();
    const [, backlogSamples] = await tableWhile(arrived(outageBase + outageEmails, DEADLINE_MS));
    const backlogTable = latency(backlogSamples);
    const backlogSeconds = (sink.last() - backAt) / 1000;
    o.log(`  ${n0(outageEmails)} queued and waiting in ${f1(waitedSeconds)} s; delivered ${f1(backlogSeconds)} s after the server came back (${f1(outageEmails / backlogSeconds)}/s); the table's p95 meanwhile ${f1(backlogTable.p95)} ms`);

    const row = (label: string, b: Batch) => [
      `| ${label}: damage reports through the API (${CLIENTS} clients) | ${n0(b.reports)} in ${f1(b.queueSeconds)} s: ${f1(b.reports / b.queueSeconds)}/s${b.failedReports ? `, **${b.failedReports} failed**` : ''} |`,
      `| ${label}: e-mails delivered, first report to last e-mail | ${n0(b.delivered)} in ${f1(b.totalSeconds)} s: **${f1(rate(b))} messages/s** (${n0(b.duringQueueing)} while the reports arrived; the rest alone at ${f1(backlogRate(b))}/s) |`,
    ];
    return ['', `### E-mail notifications: ${n0(main.delivered)} queued and delivered to a local SMTP server`, '',
      `The server in a process of its own (\`server/main.ts\` with the flags of \`npm start\`), one process, its delivery worker as it comes (screens/notifications.json \`delivery\`: 16 e-mails rendered at once, sent over 5 pooled SMTP connections, jobs fetched in batches; pg-boss 12 on the portal's PostgreSQL), on a schema of its own (\`${o.schema}\`: the demo seed, created for the run and dropped after). The notifications are queued as the app queues them: a driver reports damages through \`POST /api/damage/add\` from ${CLIENTS} concurrent clients, each report writing in its own transaction the damage, an e-mail and an in-app notification to each of the client's two fleet managers, and the e-mails' jobs. Each e-mail is rendered for its recipient when it is sent (ACCESS.md judged then): a text and an HTML part with the variant's logo inline. The mail server is smtp-server in the bench process on 127.0.0.1 (plain SMTP), keeping only each message's Message-ID, so a message that arrived twice is counted. smtp-server waits 100 ms before it greets a connection (its check for clients that talk too early); a local relay greets at once, as the sink does for the main figures; the second batch keeps smtp-server's delay (paid once per pooled connection now, not per e-mail). Then a backlog: the e-mail configuration pointed at a closed port (the server down), the same number of e-mails queued by damage reports and left waiting (SMTP_DOWN), the port put back, and the time to the last e-mail measured. Meanwhile a fleet manager's vehicles table is called every ${TABLE_PAUSE_MS} ms, and its p95 compared with the same calls on the idle server.`, '',
      '| figure | value |', '|---|---|',
      ...row('greeting at once', main),
      `| greeting at once: Message-IDs that arrived twice (both batches) | ${sink.duplicates()} |`,
      `| greeting at once: the batch's e-mail rows afterwards | ${states.map((s) => `${s.state} ${n0(s.n)}`).join(', ')} |`,
      `| server resident size: before (warm, idle) / peak during the batch (VmHWM) / after (2 s idle) | ${f1(rssBefore)} / ${f1(peak)} / ${f1(rssAfter)} MB |`,
      `| load (1 min) at the start / end of the batch | ${loadAtStart} / ${loadAtEnd} |`,
      ...row('greeting after 100 ms (smtp-server as it comes)', slow),
      `| a backlog queued while the mail server was down (${n0(outageEmails)} e-mails, all waiting as SMTP_DOWN after ${f1(waitedSeconds)} s): the server back to the last e-mail | **${f1(backlogSeconds)} s** (${f1(outageEmails / backlogSeconds)}/s, the probe every ${PROBE_SECONDS} s included) |`,
      `| a fleet manager's vehicles table (\`POST /api/car/table2\`, 30 rows, a call every ${TABLE_PAUSE_MS} ms), p95: idle (${idle.n} calls) / while the main batch was reported and delivered (${busy.n} calls) / while the backlog alone was delivered (${backlogTable.n} calls) | ${f1(idle.p95)} / ${f1(busy.p95)} / ${f1(backlogTable.p95)} ms (medians ${f1(idle.median)} / ${f1(busy.median)} / ${f1(backlogTable.median)} ms): **${f1(busy.p95 / idle.p95)}× / ${f1(backlogTable.p95 / idle.p95)}×** |`,
      `| duplicates over all batches (Message-IDs that arrived twice) | ${sink.duplicates()} |`];
  } finally {
    await database.close();
    await server.stop();
    await sink.close();
    await dropSchema({ databaseUrl: o.databaseUrl, schema: o.schema });
    await dropSchema({ databaseUrl: o.databaseUrl, schema: jobSchema });
  }
}

// alone: node --import tsx tools/bench/notifications.ts [--count N] [--schema S] [--quick]
if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const { values } = parseArgs({ options: { count: { type: 'string' }, schema: { type: 'string' }, quick: { type: 'boolean' } } });
  const quick = values.quick || Boolean(process.env.BENCH_QUICK);
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
  notificationFigures({
    root,
    databaseUrl: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
    schema: values.schema ?? 'bench_notifications',
    count: values.count ? Number(values.count) : quick ? 1_000 : NOTIFICATIONS,
    log: (m) => console.log(m),
  }).then((lines) => console.log(lines.join('\n')), (error) => {
    console.error(error instanceof Error ? error.stack : error);
    process.exit(1);
  });
}
