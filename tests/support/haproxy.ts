/**
 * Debian's haproxy in front of the portal's processes, as docs/deployment.md configures it: round
 * robin without stickiness, a health check on /api/health every 250 ms, and a call that cannot
 * reach a process (connection refused, or the process died before it answered) tried again on
 * another. Its admin socket tells the tests what the proxy thinks of each server.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Proxy {
  port: number;
  /** haproxy's view of each backend server: name → UP, DOWN, … */
  states(): Promise<Record<string, string>>;
  /** Waits until haproxy sees each named server in the given state (UP, DOWN). */
  until(expected: Record<string, string>): Promise<void>;
  stop(): Promise<void>;
}

export function haproxyConfig(port: number, servers: Record<string, number>, socket: string): string {
  return `global
  stats socket ${socket} mode 600 level admin
  maxconn 512

defaults
  mode http
  timeout connect 2s
  timeout client 30s
  timeout server 30s
  timeout check 2s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response response-timeout

frontend portal
  bind 127.0.0.1:${port}
  default_backend portal

backend portal
  balance roundrobin
  option httpchk GET /api/health
  http-check expect status 200
  default-server inter 250ms fall 2 rise 2
${Object.entries(servers).map(([name, p]) => `  server ${name} 127.0.0.1:${p} check`).join('\n')}
`;
}

export async function startHaproxy(port: number, servers: Record<string, number>): Promise<Proxy> {
  const dir = mkdtempSync(join(tmpdir(), 'portal-haproxy-'));
  const socket = join(dir, 'admin.sock');
  const file = join(dir, 'haproxy.cfg');
  writeFileSync(file, haproxyConfig(port, servers, socket));
  const child: ChildProcess = spawn('haproxy', ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c) => { output += c; });
  child.stderr!.on('data', (c) => { output += c; });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  const ask = (command: string) => new Promise<string>((resolve, reject) => {
    const s = connect(socket);
    let answer = '';
    s.on('connect', () => s.end(`${command}\n`));
    s.on('data', (c) => { answer += c; });
    s.on('end', () => resolve(answer));
    s.on('error', reject);
  });
  const states = async () => {
    // CSV of `show stat`: pxname,svname,…,status (column 18)
    const csv = await ask('show stat');
    const header = csv.split('\n')[0].replace(/^# /, '').split(',');
    const status = header.indexOf('status');
    const result: Record<string, string> = {};
    for (const line of csv.split('\n').slice(1)) {
      const cells = line.split(',');
      if (cells[0] === 'portal' && servers[cells[1]] !== undefined) result[cells[1]] = cells[status];
    }
    return result;
  };
  // ready when its admin socket answers
  for (let i = 0; ; i++) {
    try {
      await states();
      break;
    } catch (e) {
      if (child.exitCode !== null || i > 100) throw new Error(`haproxy did not start: ${output || (e as Error).message}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    port,
    states,
    async until(expected) {
      for (;;) {
        const now = await states();
        if (Object.entries(expected).every(([name, state]) => now[name] === state)) return;
        await new Promise((r) => setTimeout(r, 100));
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}
