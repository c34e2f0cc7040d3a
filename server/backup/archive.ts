/**
 * The backup file is a plain tar archive (POSIX ustar): `manifest.json` first, then the database
 * itself (`pglite-data.tar.gz` or `postgres.dump`). Plain tar so that an operator can look into
 * a backup, and take the PostgreSQL dump out for pg_restore, with the tools already on the machine
 * (`tar -tvf`, `tar -xf … postgres.dump`), and so that reading the manifest needs only the first
 * blocks of the file. No tar package is a dependency of the portal; writing and reading the two
 * or three regular files of a backup is this module.
 *
 * Sizes above 8 GiB (a large PostgreSQL dump) use the base-256 size field that GNU tar and bsdtar
 * read.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';

const BLOCK = 512;
const OCTAL_SIZE_MAX = 0o77777777777; // 11 octal digits

/** One file of the archive: its bytes, or a file on disk streamed into it. */
export interface ArchiveInput {
  name: string;
  content: Buffer | { path: string };
}

/** Where an entry's bytes are in the archive file. */
export interface ArchiveEntry {
  name: string;
  size: number;
  /** Offset of the first byte of the content. */
  offset: number;
}

/** The file is not a tar archive (or is cut short). */
export class NotAnArchiveError extends Error {}

function header(name: string, size: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK, 0);
  if (Buffer.byteLength(name) > 100) throw new Error(`archive entry name too long: ${name}`);
  h.write(name, 0, 100, 'utf8');
  h.write('0000600\0', 100, 8, 'ascii'); // mode
  h.write('0000000\0', 108, 8, 'ascii'); // uid
  h.write('0000000\0', 116, 8, 'ascii'); // gid
  if (size <= OCTAL_SIZE_MAX) {
    h.write(`${size.toString(8).padStart(11, '0')}\0`, 124, 12, 'ascii');
  } else {
    // base-256: high bit of the first byte set, the size big-endian in the remaining 11 bytes
    h[124] = 0x80;
    let rest = BigInt(size);
    for (let i = 135; i > 124; i--) {
      h[i] = Number(rest & 0xffn);
      rest >>= 8n;
    }
  }
  h.write(`${Math.floor(mtime.getTime() / 1000).toString(8).padStart(11, '0')}\0`, 136, 12, 'ascii');
  h.write('        ', 148, 8, 'ascii'); // checksum counted as spaces
  h.write('0', 156, 1, 'ascii'); // regular file
  h.write('ustar\0', 257, 6, 'ascii');
  h.write('00', 263, 2, 'ascii');
  let sum = 0;
  for (const byte of h) sum += byte;
  h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 8, 'ascii');
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK, 0);

/** Writes the archive to `file` (replacing it). */
export async function writeArchive(file: string, inputs: ArchiveInput[], mtime = new Date()): Promise<void> {
  const sizes = await Promise.all(inputs.map(async (i) => (Buffer.isBuffer(i.content) ? i.content.byteLength : (await stat(i.content.path)).size)));
  async function* blocks() {
    for (const [n, input] of inputs.entries()) {
      yield header(input.name, sizes[n], mtime);
      if (Buffer.isBuffer(input.content)) yield input.content;
      else yield* createReadStream(input.content.path);
      yield padding(sizes[n]);
    }
    yield Buffer.alloc(2 * BLOCK, 0); // end of archive
  }
  await pipeline(Readable.from(blocks()), createWriteStream(file, { mode: 0o600 }));
}

function parseSize(field: Buffer): number {
  if (field[0] & 0x80) {
    let size = 0n;
    for (let i = 1; i < field.length; i++) size = (size << 8n) | BigInt(field[i]);
    return Number(size);
  }
  const text = field.toString('ascii').replace(/[\0 ]+$/, '').trim();
  if (!/^[0-7]+$/.test(text)) throw new NotAnArchiveError('bad size field');
  return parseInt(text, 8);
}

function validHeader(h: Buffer): boolean {
  if (h.toString('ascii', 257, 262) !== 'ustar') return false;
  const stored = parseInt(h.toString('ascii', 148, 156).replace(/[\0 ]+$/, '').trim(), 8);
  let sum = 0;
  for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 0x20 : h[i];
  return sum === stored;
}

/** The regular files of the archive, in order, without reading their contents. */
export async function listArchive(file: string): Promise<ArchiveEntry[]> {
  const handle = await open(file, 'r');
  try {
    const { size: total } = await handle.stat();
    const entries: ArchiveEntry[] = [];
    const h = Buffer.alloc(BLOCK);
    let at = 0;
    for (;;) {
      const { bytesRead } = await handle.read(h, 0, BLOCK, at);
      if (bytesRead < BLOCK) throw new NotAnArchiveError(entries.length ? 'the file is cut short' : 'the file is too short');
      if (h.every((b) => b === 0)) return entries;
      if (!validHeader(h)) throw new NotAnArchiveError(entries.length ? 'the file is damaged' : 'it is not a tar archive');
      const name = h.toString('utf8', 0, 100).replace(/\0.*$/s, '');
      const size = parseSize(h.subarray(124, 136));
      const offset = at + BLOCK;
      if (offset + size > total) throw new NotAnArchiveError('the file is cut short');
      if (h.toString('ascii', 156, 157) === '0' || h[156] === 0) entries.push({ name, size, offset });
      at = offset + size + padding(size).length;
    }
  } finally {
    await handle.close();
  }
}

/** An entry's bytes, read whole (the manifest; the PGlite tarball, which PGlite loads from memory anyway). */
export async function readEntry(file: string, entry: ArchiveEntry): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.alloc(entry.size);
    let done = 0;
    while (done < entry.size) {
      const { bytesRead } = await handle.read(buffer, done, entry.size - done, entry.offset + done);
      if (bytesRead === 0) throw new NotAnArchiveError('the file is cut short');
      done += bytesRead;
    }
    return buffer;
  } finally {
    await handle.close();
  }
}

/** An entry copied into a file of its own (the PostgreSQL dump, for pg_restore). */
export async function extractEntry(file: string, entry: ArchiveEntry, to: string): Promise<void> {
  const source = entry.size === 0 ? Readable.from([]) : createReadStream(file, { start: entry.offset, end: entry.offset + entry.size - 1 });
  await pipeline(source, createWriteStream(to, { mode: 0o600 }));
}
