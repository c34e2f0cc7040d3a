/**
 * How `npm run backup` asks the running portal for a copy of its embedded database, and how
 * `npm run restore` learns that the portal is running (docs/decisions.md, "Backup and restore").
 *
 * The portal that serves on PGlite listens on 127.0.0.1, on a port the system chooses, and writes
 * the port with a random token into `<DATA_DIR>/.portal-backup-channel.json` (mode 0600). Only who
 * may read DATA_DIR (and so could read the database's files anyway) learns the token; nothing
 * listens on a public interface, and the HTTP API has no new route. A request is one JSON line
 * `{"token": …, "command": "ping" | "backup"}`; the answer is one JSON line, for a backup followed
 * by the gzip tarball of the data folder. The folder, not the file's place beside it, because the
 * folder is what the portal's user owns in any installation (the parent may be root's), and a
 * socket file inside the data folder would break PGlite's copy of it.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, connect, type Socket } from 'node:net';
import { readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatabaseHandle } from '../db/connect.ts';
import { copyPGlite } from './pglite.ts';
import { BackupError } from './manifest.ts';

export const CHANNEL_FILE = '.portal-backup-channel.json';
/** A request line longer than this is not one of ours. */
const MAX_REQUEST = 4096;
/** A connection that sends no request within this is closed (nobody waits on the portal's side). */
const IDLE_MS = 30_000;

interface ChannelFile {
  pid: number;
  port: number;
  token: string;
}

export interface ChannelAnswer {
  ok: boolean;
  error?: string;
  pid?: number;
  migration?: string;
  serverVersion?: string;
  heldMs?: number;
  bytes?: number;
}

function sameToken(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Reads one request line; undefined when the peer sends something that is not one. */
function readLine(socket: Socket, max: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    let buffer = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      const end = buffer.indexOf(0x0a);
      if (end >= 0) {
        socket.off('data', onData);
        const rest = buffer.subarray(end + 1);
        if (rest.length) socket.unshift(rest);
        resolve(buffer.subarray(0, end).toString('utf8'));
      } else if (buffer.length > max) {
        socket.off('data', onData);
        resolve(undefined);
      }
    };
    socket.on('data', onData);
    socket.once('end', () => resolve(undefined));
    socket.once('close', () => resolve(undefined));
  });
}

export interface BackupChannel {
  close(): Promise<void>;
}

/**
 * The running portal's side: answers pings and copies of its database until closed. Copies are
 * taken one at a time (each holds the database and a copy of it in memory).
 */
export async function openBackupChannel(options: { dataDir: string; database: DatabaseHandle }): Promise<BackupChannel> {
  const token = randomBytes(32).toString('hex');
  let queue: Promise<unknown> = Promise.resolve();
  const inFlight = new Set<Promise<unknown>>();

  const serve = async (socket: Socket) => {
    socket.setTimeout(IDLE_MS, () => socket.destroy());
    socket.on('error', () => undefined);
    const line = await readLine(socket, MAX_REQUEST);
    let request: { token?: unknown; command?: unknown } | undefined;
    try {
      request = line === undefined ? undefined : JSON.parse(line);
    } catch {
      request = undefined;
    }
    const reply = (answer: ChannelAnswer, body?: Buffer) => {
      socket.write(`${JSON.stringify(answer)}\n`);
      if (body) socket.end(body);
      else socket.end();
    };
    if (!request || typeof request.token !== 'string' || !sameToken(request.token, token)) return reply({ ok: false, error: 'not allowed' });
    socket.setTimeout(0);
    if (request.command === 'ping') return reply({ ok: true, pid: process.pid });
    if (request.command !== 'backup') return reply({ ok: false, error: `unknown command ${String(request.command)}` });
    const copying = queue.then(() => copyPGlite(options.database));
    queue = copying.catch(() => undefined);
    try {
      const copy = await copying;
      reply({ ok: true, pid: process.pid, migration: copy.migration, serverVersion: copy.serverVersion, heldMs: Math.round(copy.heldMs), bytes: copy.tarball.length }, copy.tarball);
    } catch (err) {
      reply({ ok: false, error: (err as Error).message ?? String(err) });
    }
  };

  const server = createServer((socket) => {
    const work = serve(socket).catch(() => socket.destroy());
    inFlight.add(work);
    void work.finally(() => inFlight.delete(work));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  const { port } = server.address() as { port: number };
  const file = join(options.dataDir, CHANNEL_FILE);
  const temporary = `${file}.${process.pid}`;
  // written whole, then renamed: a tool never reads half a file
  await writeFile(temporary, JSON.stringify({ pid: process.pid, port, token } satisfies ChannelFile), { mode: 0o600 });
  await rename(temporary, file);

  return {
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await Promise.allSettled([...inFlight]);
      // only our own file: a portal started after this one (it should not be) keeps its own
      const current = await readChannelFile(options.dataDir);
      if (current?.token === token) await rm(file, { force: true });
    },
  };
}

async function readChannelFile(dataDir: string): Promise<ChannelFile | undefined> {
  try {
    const parsed = JSON.parse(await readFile(join(dataDir, CHANNEL_FILE), 'utf8'));
    return Number.isInteger(parsed?.port) && typeof parsed?.token === 'string' ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sends one request; the answer line and, for a backup, the bytes after it. */
function ask(channel: ChannelFile, command: 'ping' | 'backup'): Promise<{ answer: ChannelAnswer; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port: channel.port });
    const chunks: Buffer[] = [];
    socket.once('connect', () => socket.write(`${JSON.stringify({ token: channel.token, command })}\n`));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.once('error', reject);
    socket.once('end', () => {
      const all = Buffer.concat(chunks);
      const end = all.indexOf(0x0a);
      try {
        if (end < 0) throw new Error('no answer');
        resolve({ answer: JSON.parse(all.subarray(0, end).toString('utf8')), body: all.subarray(end + 1) });
      } catch (err) {
        reject(err);
      }
    });
  });
}

export interface RunningPortal {
  pid: number;
  channel: ChannelFile;
}

/**
 * The portal serving on `dataDir`, when one answers on its channel. A file left by a portal that
 * died is ignored: its process is gone, or nothing (or something else) answers on its port.
 */
export async function runningPortal(dataDir: string): Promise<RunningPortal | undefined> {
  const channel = await readChannelFile(dataDir);
  if (!channel || !alive(channel.pid)) return undefined;
  try {
    const { answer } = await ask(channel, 'ping');
    return answer.ok && typeof answer.pid === 'number' ? { pid: answer.pid, channel } : undefined;
  } catch {
    return undefined;
  }
}

/** A copy of the running portal's database, taken by the portal itself. */
export async function copyFromRunningPortal(portal: RunningPortal): Promise<{ tarball: Buffer; migration: string; serverVersion: string; heldMs: number }> {
  const { answer, body } = await ask(portal.channel, 'backup');
  if (!answer.ok) throw new BackupError(`The running portal (process ${portal.pid}) could not copy its database: ${answer.error}`);
  if (body.length !== answer.bytes) throw new BackupError(`The copy from the running portal (process ${portal.pid}) arrived incomplete (${body.length} of ${answer.bytes} bytes); try again.`);
  return { tarball: body, migration: answer.migration!, serverVersion: answer.serverVersion ?? '', heldMs: answer.heldMs ?? 0 };
}
