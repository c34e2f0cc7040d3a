/**
 * The portal as operators run it, for the tests of several processes: `server/main.ts` started as
 * a process of its own (tsx, so no build is needed), on PostgreSQL, with WORKERS and INSTANCE_ID,
 * answering with `X-Served-By: <instance>:<pid>` so a test sees which process served a call; and
 * a small HTTP client that signs like the runtime and opens a connection per call (so that a
 * proxy balances each call, and no kept-alive socket outlives a killed process).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { ROOT } from './test-app.ts';

export const TEST_POSTGRES_URL = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  /** `<instance>:<pid>` of the process that answered (X-Served-By). */
  servedBy: string;
  json(): any;
}

/** One call on a new connection; POST and PUT are signed with the pre-configuration name. */
export function call(port: number, method: string, path: string, options: { token?: string; body?: unknown; raw?: { bytes: Buffer; contentType: string }; signingName?: string } = {}): Promise<Answer> {
  const headers: Record<string, string> = { connection: 'close' };
  let payload: Buffer | undefined;
  if (options.raw) {
    payload = options.raw.bytes;
    headers['content-type'] = options.raw.contentType;
  } else if (options.body !== undefined) {
    payload = Buffer.from(JSON.stringify(options.body));
    headers['content-type'] = 'application/json';
  }
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if ((method === 'POST' || method === 'PUT') && options.signingName) {
    const nonce = makeNonce();
    headers['x-nonce'] = nonce;
    headers['x-signature'] = signBody(options.signingName, nonce, payload ?? '');
  }
  if (payload) headers['content-length'] = String(payload.length);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = Buffer.concat(chunks);
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body,
          servedBy: String(res.headers['x-served-by'] ?? ''),
          json: () => JSON.parse(body.toString('utf8')),
        });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(payload);
  });
}

export interface PortalProcess {
  port: number;
  child: ChildProcess;
  /** Everything the process wrote, for the failure message of a test. */
  output(): string;
  /** Resolves with the exit code (or the signal's name) once the process has ended. */
  exited: Promise<number | string>;
  /**
   * Waits until /api/health answers 200: one process, or the first worker of several. With
   * WORKERS=N, waits also for the primary's "all N workers listening" (the others may still start).
   */
  ready(): Promise<void>;
  stop(signal?: NodeJS.Signals): Promise<number | string>;
}

export function startPortal(env: Record<string, string>): PortalProcess {
  const port = Number(env.PORT);
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    // Shedding load after 2 s of event-loop lag (the product's default) measures the test machine
    // here: these processes run beside the test workers on CI's two saturated cores, and one of them
    // answered the pre-configuration 503 while the other seeded. 10 s still catches a stalled
    // process; shedding has tests of its own (tests/api/bounded-waiting.test.ts).
    env: { ...process.env, LOG: 'off', MAX_EVENT_LOOP_DELAY_MS: '10000', SECOND_FACTOR_OPTIONAL: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c) => { output += c; });
  child.stderr!.on('data', (c) => { output += c; });
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  let ended = false;
  void exited.then(() => { ended = true; });
  return {
    port,
    child,
    output: () => output,
    exited,
    async ready() {
      for (;;) {
        if (ended) throw new Error(`the portal on port ${port} ended before it was ready:\n${output}`);
        const answer = await call(port, 'GET', '/api/health').catch(() => undefined);
        const workers = /^\d+$/.test(env.WORKERS ?? '') ? Number(env.WORKERS) : 0;
        if (answer?.status === 200 && (workers < 2 || output.includes(`all ${workers} workers listening`))) return;
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stop(signal = 'SIGTERM') {
      if (!ended) child.kill(signal);
      return exited;
    },
  };
}
