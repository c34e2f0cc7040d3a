import { resolve } from 'node:path';
import iconv from 'iconv-lite';
import { describe, expect, it } from 'vitest';
import { loadBundle } from '../config/load-bundle.ts';
import { fieldColumns } from './engine.ts';
import { ImportFileError } from './read-file.ts';
import { checkPlanFor } from './row-check.ts';
import { openCheckedRows, type RowsBatch, type RowsThreadInput } from './rows-thread.ts';

const bundle = loadBundle({ root: resolve(import.meta.dirname, '../..'), variant: 'default' });
const decl = bundle.imports.car;
const input = (over: Partial<RowsThreadInput> = {}): RowsThreadInput => ({
  format: 'csv', fileName: 'pojazdy.csv', plan: checkPlanFor(bundle, decl), locales: bundle.locales, language: { id: 'pl', locale: 'pl-PL' }, maxRows: 1000,
  copyText: true, batchRows: 2, batchesAhead: 1, nice: 5, ...over,
});
const mapping = { VIN: 'nrPodw', 'Nr rejestracyjny': 'rejestr', 'Data przeglądu': 'dataPrzeg' };

/** The file in pieces of `size` bytes, as the run's stored chunks come. */
async function* pieces(bytes: Buffer, size = 7): AsyncIterable<Buffer> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function readAll(bytes: Buffer, over: Partial<RowsThreadInput> = {}) {
  const rows = await openCheckedRows(pieces(bytes), input(over));
  try {
    const { columnIndex, columnOf } = fieldColumns(decl, rows.head.columns, mapping);
    const batches: RowsBatch[] = [];
    for await (const batch of rows.batches(columnIndex, columnOf)) batches.push(batch);
    return { head: rows.head, batches };
  } finally {
    await rows.close();
  }
}

describe('the row thread of an import run', () => {
  it('reads a Windows-1250 file handed over in small chunks and answers checked batches, the bad rows in Polish beside the good', async () => {
    const csv = 'VIN;Nr rejestracyjny;Data przeglądu\nvf1aaa;wz1;01.02.2026\nVF1BBB;WZ2;31.02.2026\nVF1CCC;WZ3;\n';
    const { head, batches } = await readAll(iconv.encode(csv, 'windows-1250'));
    expect(head).toEqual({ format: 'csv', encoding: 'windows-1250', delimiter: ';', columns: ['VIN', 'Nr rejestracyjny', 'Data przeglądu'] });
    // batches of 2 rows: the running total grows with each
    expect(batches.map((b) => b.total)).toEqual([2, 3]);
    expect(batches.map((b) => b.copyText)).toEqual([
      '2\t{"nrPodw":"VF1AAA","rejestr":"WZ1","dataPrzeg":"2026-02-01"}\t["vf1aaa","wz1","01.02.2026"]\n',
      '4\t{"nrPodw":"VF1CCC","rejestr":"WZ3","dataPrzeg":null}\t["VF1CCC","WZ3",""]\n',
    ]);
    expect(batches.flatMap((b) => b.errors)).toEqual([
      [3, 'Data przeglądu', 'Taki dzień nie istnieje w kalendarzu', '["VF1BBB","WZ2","31.02.2026"]'],
    ]);
  });

  it('answers values for INSERTs where the database takes no COPY (PGlite)', async () => {
    const { batches } = await readAll(Buffer.from('VIN;Nr rejestracyjny\nVF1AAA;WZ1\n'), { copyText: false });
    expect(batches.flatMap((b) => b.values)).toEqual([[2, '{"nrPodw":"VF1AAA","rejestr":"WZ1"}', '["VF1AAA","WZ1"]']]);
    expect(batches.map((b) => b.copyText)).toEqual(['']);
  });

  it('stops at the row limit with the limit in words, as the run then says', async () => {
    const csv = 'VIN;Nr rejestracyjny\n' + Array.from({ length: 4 }, (_, i) => `VF1${i};WZ${i}\n`).join('');
    const error = await readAll(Buffer.from(csv), { maxRows: 3 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ImportFileError);
    expect(error).toMatchObject({ key: 'import:errors.tooManyRows', vars: { limit: '3' } });
  });

  it('refuses a file that is not what its name says before any row', async () => {
    const error = await openCheckedRows(pieces(Buffer.from('%PDF-1.7 not a table')), input()).catch((e: unknown) => e);
    expect(error).toMatchObject({ key: 'import:errors.notWhatItSays' });
  });

  it('passes on a failure to read the stored file', async () => {
    async function* broken(): AsyncIterable<Buffer> {
      yield Buffer.from('VIN;Nr rejestracyjny\n');
      throw Object.assign(new Error('connection terminated'), { code: '57P01' });
    }
    const error = await openCheckedRows(broken(), input()).then(async (rows) => {
      try {
        const { columnIndex, columnOf } = fieldColumns(decl, rows.head.columns, mapping);
        for await (const _ of rows.batches(columnIndex, columnOf)) { /* read on */ }
      } finally {
        await rows.close();
      }
    }).catch((e: unknown) => e);
    expect(error).toMatchObject({ message: 'connection terminated', code: '57P01' });
  });

  it('keeps a thread that read its file to the end for the next run, and never one that failed', async () => {
    const run = async (bytes: Buffer) => {
      const rows = await openCheckedRows(pieces(bytes), input());
      try {
        const { columnIndex, columnOf } = fieldColumns(decl, rows.head.columns, mapping);
        for await (const _ of rows.batches(columnIndex, columnOf)) { /* read on */ }
        return rows.threadId;
      } finally {
        await rows.close();
      }
    };
    const good = Buffer.from('VIN;Nr rejestracyjny\nVF1AAA;WZ1\n');
    const first = await run(good);
    expect(await run(good)).toBe(first);
    // a run that fails stops its thread: the next one gets another
    const tooMany = Buffer.from('VIN;Nr rejestracyjny\n' + 'VF1AAA;WZ1\n'.repeat(1001));
    const failed = await openCheckedRows(pieces(tooMany, 4096), input());
    const failedThread = failed.threadId;
    expect(failedThread).toBe(first);
    const { columnIndex, columnOf } = fieldColumns(decl, failed.head.columns, mapping);
    await expect((async () => { for await (const _ of failed.batches(columnIndex, columnOf)) { /* read on */ } })()).rejects.toMatchObject({ key: 'import:errors.tooManyRows' });
    await failed.close();
    expect(await run(good)).not.toBe(failedThread);
  });
});
