/**
 * The backup's tar archive: what it writes, tar reads (and the other way round), so that an
 * operator can open a backup with the tools of the machine; a file that is not a tar archive, or
 * is cut short, is told apart.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, truncateSync, writeFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { extractEntry, listArchive, NotAnArchiveError, readEntry, writeArchive } from './archive.ts';

const dir = mkdtempSync(join(tmpdir(), 'portal-archive-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the backup archive', () => {
  const manifest = Buffer.from('{"portal":"fleet-portal"}\n');
  const payload = Buffer.alloc(70_001, 7); // not a multiple of the 512-byte block

  it('is a tar archive that tar lists and extracts, with each file whole', async () => {
    const source = join(dir, 'payload.bin');
    writeFileSync(source, payload);
    const file = join(dir, 'a.backup');
    await writeArchive(file, [{ name: 'manifest.json', content: manifest }, { name: 'postgres.dump', content: { path: source } }]);
    expect(execFileSync('tar', ['-tf', file], { encoding: 'utf8' }).trim().split('\n')).toEqual(['manifest.json', 'postgres.dump']);
    expect(execFileSync('tar', ['-xOf', file, 'manifest.json'])).toEqual(manifest);
    expect(Buffer.compare(execFileSync('tar', ['-xOf', file, 'postgres.dump'], { maxBuffer: 1 << 20 }), payload)).toBe(0);

    const entries = await listArchive(file);
    expect(entries.map((e) => [e.name, e.size])).toEqual([['manifest.json', manifest.length], ['postgres.dump', payload.length]]);
    expect(await readEntry(file, entries[0])).toEqual(manifest);
    await extractEntry(file, entries[1], join(dir, 'out.bin'));
    expect(statSync(join(dir, 'out.bin')).size).toBe(payload.length);
  });

  it('reads an archive that tar wrote', async () => {
    writeFileSync(join(dir, 'manifest.json'), manifest);
    const file = join(dir, 'by-tar.tar');
    execFileSync('tar', ['--format=ustar', '-cf', file, '-C', dir, 'manifest.json']);
    const entries = await listArchive(file);
    expect(entries.map((e) => e.name)).toEqual(['manifest.json']);
    expect(await readEntry(file, entries[0])).toEqual(manifest);
  });

  it('tells a file that is not an archive, and one cut short', async () => {
    const text = join(dir, 'text.txt');
    writeFileSync(text, 'x'.repeat(2048));
    await expect(listArchive(text)).rejects.toThrow(new NotAnArchiveError('it is not a tar archive'));
    const short = join(dir, 'short.backup');
    await writeArchive(short, [{ name: 'manifest.json', content: manifest }, { name: 'pglite-data.tar.gz', content: payload }]);
    truncateSync(short, 4096);
    await expect(listArchive(short)).rejects.toThrow(new NotAnArchiveError('the file is cut short'));
  });
});
