/**
 * `npm start`'s server stops gracefully on SIGTERM: it stops accepting connections, finishes the
 * requests in flight, closes the database and exits 0. The child process runs the application
 * with main.ts's signal handling (server/shutdown.ts) on a throwaway database
 * (tests/support/shutdown-child.ts; a fresh PGlite folder for main.ts itself would cost a slow
 * first migration and seed).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect, createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import { DEMO, ROOT } from '../support/test-app.ts';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts connections on the port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('stopping the server with SIGTERM', () => {
  let child: ChildProcess;
  let port: number;
  let exited: Promise<number | null>;
  beforeAll(async () => {
    port = await freePort();
    child = spawn(process.execPath, ['--import', 'tsx', 'tests/support/shutdown-child.ts'], {
      cwd: ROOT,
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.on('data', (chunk) => String(chunk).includes('listening') && resolve());
      child.once('exit', (code) => reject(new Error(`the server exited during start-up with ${code}`)));
    });
  });
  afterAll(() => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
  });

  it('finishes a request in flight, refuses new connections, then exits 0', async () => {
    const name = (await (await fetch(`http://127.0.0.1:${port}/api/init/pre-config`)).json()).name;
    const body = JSON.stringify(DEMO.manager);
    const nonce = makeNonce();
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
    // a sign-in whose body is only half sent when the signal comes
    socket.write(
      `POST /api/user/auth HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`
      + `X-Nonce: ${nonce}\r\nX-Signature: ${signBody(name, nonce, body)}\r\n\r\n${body.slice(0, 10)}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    child.kill('SIGTERM');
    // the listening socket closes first: new connections are refused
    while (await accepts(port)) await new Promise((r) => setTimeout(r, 50));
    expect(child.exitCode).toBeNull();
    socket.write(body.slice(10));
    await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    expect(answer).toContain('id_token');
    expect(await exited).toBe(0);
  });
});
