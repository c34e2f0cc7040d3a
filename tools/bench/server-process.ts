/**
 * The portal's server in a process of its own, as an operator runs it (server/main.ts, or `npm
 * start` whole for the start-up times): the bench's load generator then does not share the
 * server's event loop, its resident size is the server's alone, and the restart drill can see
 * whether the process outlives its database.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { constants } from 'node:os';

/** The V8 flags `npm start` gives the server (package.json "start"), read from there so the bench runs it alike. */
export const SERVING_NODE_FLAGS = (/node ((?:--[\w-]+(?:=\S+)? )+)dist-server/.exec(JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).scripts.start)?.[1] ?? '')
  .trim().split(/\s+/).filter((f) => f && f !== '--enable-source-maps');

export interface ServerProcess {
  baseUrl: string;
  child: ChildProcess;
  /** Milliseconds from spawning to the first 200 of /api/health. */
  msToHealthy: number;
  alive(): boolean;
  /** The server's node process (under `npm start`, the deepest of its group). */
  pid(): number;
  /** Resident size of the server's node process, MB (Linux /proc). */
  rssMb(): number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      s.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * The servers started here and not yet stopped, by process group. Each is a group of its own
 * (`detached`, so that `stop` reaches npm's children too), which a Ctrl-C or a kill of the bench does
 * not reach: an interrupted bench left its server serving and loading the next run. They are stopped
 * when this process exits or is told to by a signal.
 */
const running = new Set<number>();
let guarded = false;
function stopWithThisProcess(group: number): void {
  running.add(group);
  if (guarded) return;
  guarded = true;
  const stopAll = () => {
    for (const pid of running) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  };
  process.on('exit', stopAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.once(signal, () => {
      stopAll();
      process.exit(128 + constants.signals[signal]);
    });
  }
}

/**
 * Starts `node <the flags of npm start> --import tsx server/main.ts` (the server's own process), or `npm start` (build if
 * stale, then the server: a process group, whose node process is found for the resident size).
 */
export async function startServer(root: string, env: Record<string, string>, how: 'main' | 'npm start' = 'main'): Promise<ServerProcess> {
  const port = await freePort();
  // the benches sign in as the demo administrator with a password alone: a second factor is not what they measure
  // BENCH_SERVER_LOG=<file>: the server's log (at LOG, default info) goes there, to read why a run failed; otherwise off
  const logFile = process.env.BENCH_SERVER_LOG;
  const fullEnv = { ...process.env, PORT: String(port), HOST: '127.0.0.1', LOG: logFile ? process.env.LOG ?? 'info' : 'off', SECOND_FACTOR_OPTIONAL: '1', ...env };
  const out = logFile ? openSync(logFile, 'a') : 'ignore';
  const started = performance.now();
  const child = how === 'main'
    ? spawn(process.execPath, [...SERVING_NODE_FLAGS, ...(process.env.BENCH_SERVER_FLAGS ?? '').split(' ').filter(Boolean), '--import', 'tsx', 'server/main.ts'], { cwd: root, env: fullEnv, stdio: ['ignore', out, 'pipe'], detached: true })
    : spawn('npm', ['start'], { cwd: root, env: fullEnv, stdio: ['ignore', out, 'pipe'], detached: true });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + d).slice(-4000)));
  let exited = false;
  stopWithThisProcess(child.pid!);
  child.on('exit', () => {
    exited = true;
    running.delete(child.pid!);
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  for (;;) {
    if (exited) throw new Error(`the server exited before it was healthy:\n${stderr}`);
    const ok = await fetch(`${baseUrl}/api/health`).then((r) => r.ok, () => false);
    if (ok) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  const msToHealthy = performance.now() - started;
  const serverPid = () => (how === 'main' ? child.pid! : nodeListeningOn(child.pid!));
  return {
    baseUrl, child, msToHealthy,
    alive: () => !exited,
    pid: serverPid,
    rssMb: () => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${serverPid()}/status`, 'utf8'))![1]) / 1024,
    async stop() {
      if (exited) return;
      const done = new Promise((r) => child.once('exit', r));
      process.kill(-child.pid!, 'SIGTERM');
      await done;
    },
  };
}

/** The node process of an `npm start` group: the deepest descendant (npm → sh → tsx → node). */
function nodeListeningOn(pid: number): number {
  const children = (p: number) => {
    try {
      return readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      return [];
    }
  };
  let current = pid;
  for (let next = children(current); next.length; next = children(current)) current = next[next.length - 1];
  return current;
}
