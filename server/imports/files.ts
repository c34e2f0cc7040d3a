/**
 * An import of files instead of rows (a declaration with `files`: an invoice's PDFs), from a zip of
 * them or one file at a time. The upload is stored like every import file (import_file_chunk, 1 MB
 * pieces); a zip is read in place with yauzl through a reader of those pieces (only the byte ranges
 * it asks for are fetched), and each file streams, inflated, into a staging table in pieces of
 * 1 MB: neither the zip nor a file is ever whole in this process's memory. The database then puts
 * each file together (string_agg of its pieces) into the file table, as the seed and the invoice
 * screens keep them (invoice_file: one file per invoice and kind, its bytes in `content`).
 *
 * Each file is a row of the run: its number is its place in the zip, its "column" its name. A name
 * that names no invoice (or another client's, for a key limited to some clients), a file that is not
 * what the declaration takes (not a PDF), or two files for one invoice and kind are errors of that
 * file; the rest follows the run's rules (all or nothing, or the valid files; dry run rolled back).
 * A file with the same bytes and name as the stored one is not rewritten (a second run changes nothing).
 */
import { Readable } from 'node:stream';
import yauzl from 'yauzl';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { ImportDecl } from '../config/import-declaration.ts';
import { ImportFileError } from './read-file.ts';
import type { ImportSession } from './session.ts';

/** The parts of a run (engine.ts's RunRow) read here; not imported, so that the engine and this module do not import each other. */
interface RunRow {
  id: number; fileName: string; format: string; mode: 'dryRun' | 'import'; onError: 'allOrNothing' | 'validRows'; clients: string[] | null;
  beforeCommit?: (counts: { new: number; changed: number; unchanged: number; deactivated: number; errors: number }, total: number) => Promise<void>;
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;
const lit = (text: string) => `'${text.replace(/'/g, "''")}'`;
const PIECE_BYTES = 1024 * 1024;

interface Piece { seq: number; start: number; length: number }

/** yauzl's random access over the stored pieces of the upload: each range read is a substring of one or two rows. */
class StoredZip extends yauzl.RandomAccessReader {
  constructor(private readonly session: ImportSession, private readonly runId: number, private readonly pieces: Piece[]) {
    super();
  }

  _readStreamForRange(start: number, end: number): Readable {
    const { session, runId, pieces } = this;
    return Readable.from((async function* () {
      for (const p of pieces) {
        if (p.start + p.length <= start || p.start >= end) continue;
        const from = Math.max(start, p.start) - p.start;
        const to = Math.min(end, p.start + p.length) - p.start;
        const { rows } = await session.query<{ d: Uint8Array }>(
          'select substring("data" from $3 for $4) as d from import_file_chunk where "runId" = $1 and "seq" = $2', [runId, p.seq, from + 1, to - from]);
        yield Buffer.from(rows[0].d);
      }
    })(), { objectMode: false });
  }
}

interface FileEntry { name: string; open: () => Promise<AsyncIterable<Buffer>> }

async function* storedPieces(session: ImportSession, runId: number, pieces: Piece[]): AsyncIterable<Buffer> {
  for (const p of pieces) {
    const { rows } = await session.query<{ d: Uint8Array }>('select "data" as d from import_file_chunk where "runId" = $1 and "seq" = $2', [runId, p.seq]);
    yield Buffer.from(rows[0].d);
  }
}

/** The files of the upload: the one PDF, or the zip's entries (folders and the zip's own metadata skipped). */
async function* filesOf(session: ImportSession, run: RunRow): AsyncIterable<FileEntry> {
  const { rows } = await session.query<{ seq: number; n: string }>('select "seq", length("data") as n from import_file_chunk where "runId" = $1 order by "seq"', [run.id]);
  let start = 0;
  const pieces = rows.map((r) => {
    const piece = { seq: Number(r.seq), start, length: Number(r.n) };
    start += piece.length;
    return piece;
  });
  if ((run.format as string) === 'pdf') {
    if (start > 0) yield { name: run.fileName, open: async () => storedPieces(session, run.id, pieces) };
    return;
  }
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(new StoredZip(session, run.id, pieces), start, { lazyEntries: true, autoClose: false, decodeStrings: true });
  } catch {
    throw new ImportFileError(start === 0 ? 'import:errors.emptyFile' : 'import:errors.zip');
  }
  try {
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (name.endsWith('/') || name.startsWith('__MACOSX/') || /(^|\/)\.[^/]*$/.test(name)) continue;
      yield { name: name.split('/').pop()!, open: async () => zip.openReadStreamPromise(entry) };
    }
  } catch (error) {
    if (error instanceof ImportFileError) throw error;
    throw new ImportFileError('import:errors.zip');
  } finally {
    zip.close();
  }
}

/** The number and kind a file's name gives (the first declared pattern that matches), or null. */
/** The format of a file an import of files takes, by its name. */
export function fileFormatOf(fileName: string): 'zip' | 'pdf' | undefined {
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  return ext === 'zip' ? 'zip' : ext === 'pdf' ? 'pdf' : undefined;
}

export function numberOf(decl: ImportDecl, fileName: string): { number: string; kind: string } | null {
  const stem = fileName.replace(/\.[^.]*$/, '').trim();
  for (const k of decl.files!.kinds) {
    const m = new RegExp(k.pattern, 'iu').exec(stem);
    if (m?.[1]) return { number: m[1].trim(), kind: k.kind };
  }
  return null;
}

export async function executeFileRun(session: ImportSession, run: RunRow, decl: ImportDecl, t: Translate): Promise<{
  state: 'succeeded' | 'failed'; message: string; counts: { new: number; changed: number; unchanged: number; deactivated: number; errors: number };
  total: number; unknownColumns: string[]; encoding: string | null; delimiter: string | null;
}> {
  const files = decl.files!;
  const format = run.format as string;
  if (format !== 'zip' && format !== 'pdf') throw new ImportFileError('import:errors.filesOnly');
  const column = t('import:fields.fileName');
  await session.query('update import_run set "columns" = $2 where "id" = $1', [run.id, JSON.stringify([column])]);
  const meta = `import_files_${run.id}`;
  const pieces = `import_file_pieces_${run.id}`;
  await session.query(`drop table if exists ${meta}`);
  await session.query(`drop table if exists ${pieces}`);
  await session.query(`create temporary table ${meta} ("_row" integer primary key, "name" text not null, "number" text, "kind" text, "_cells" jsonb not null, "parentId" bigint)`);
  await session.query(`create temporary table ${pieces} ("_row" integer not null, "seq" integer not null, "data" bytea not null)`);
  const magic = files.magic ? Buffer.from(files.magic, 'latin1') : null;

  let total = 0;
  const fileError = (rowNo: number, name: string, message: string) =>
    session.query('insert into import_error ("runId", "rowNo", "column", "message", "cells") values ($1, $2, $3, $4, $5)', [run.id, rowNo, name, message, JSON.stringify([name])]);
  for await (const file of filesOf(session, run)) {
    const rowNo = ++total;
    const found = numberOf(decl, file.name);
    await session.query(`insert into ${meta} ("_row", "name", "number", "kind", "_cells") values ($1, $2, $3, $4, $5)`,
      [rowNo, file.name, found?.number ?? null, found?.kind ?? null, JSON.stringify([file.name])]);
    if (!found) await fileError(rowNo, file.name, t('import:errors.fileName'));
    let seq = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let head = Buffer.alloc(0);
    let badHead = false;
    const flush = async () => {
      if (!pendingBytes) return;
      await session.query(`insert into ${pieces} ("_row", "seq", "data") values ($1, $2, $3)`, [rowNo, seq++, Buffer.concat(pending)]);
      pending = [];
      pendingBytes = 0;
    };
    try {
      for await (const chunk of await file.open()) {
        if (magic && head.length < magic.length) head = Buffer.concat([head, chunk.subarray(0, magic.length - head.length)]);
        if (badHead || !found) continue; // read to its end (the zip goes on), nothing kept
        if (magic && head.length >= magic.length && !head.equals(magic)) {
          badHead = true;
          continue;
        }
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= PIECE_BYTES) await flush();
      }
    } catch {
      throw new ImportFileError('import:errors.zip');
    }
    if (found && (badHead || (magic && !head.equals(magic)))) {
      await fileError(rowNo, file.name, t('import:errors.fileNotPdf'));
      await session.query(`delete from ${pieces} where "_row" = $1`, [rowNo]);
    } else {
      await flush();
    }
    await session.query('update import_run set "progressRows" = $2 where "id" = $1', [run.id, total]);
  }
  if (total === 0) throw new ImportFileError('import:errors.emptyFile');
  await session.query('update import_run set "progressRows" = $2, "progressTotal" = $2 where "id" = $1', [run.id, total]);

  // the parent each name gives: its number as a file name writes it (nameOf), of the run's clients
  const p = files.parent;
  let asName = `p.${q(p.number)}`;
  for (const [from, to] of Object.entries(files.nameOf ?? {})) asName = `replace(${asName}, ${lit(from)}, ${lit(to)})`;
  const clientFilter = run.clients && p.client ? ` and p.${q(p.client)} = any($1::text[])` : '';
  await session.query(`
    update ${meta} m set "parentId" = x."id" from (
      select m2."_row", p.${q(p.id)} as "id" from ${meta} m2 join ${q(p.table)} p on ${asName} = m2."number"${clientFilter}) x
    where m."_row" = x."_row"`, run.clients && p.client ? [run.clients] : []);
  const addErrors = (from: string, message: string) => session.query(`
    insert into import_error ("runId", "rowNo", "column", "message", "cells")
    select ${run.id}, x."_row", x."name", ${message}, x."_cells" from (${from}) x`);
  const noParent = t('import:errors.fileNoParent', { number: '{{number}}' });
  await addErrors(`select m.*, replace(${lit(noParent)}, '{{number}}', m."number") as "message" from ${meta} m where m."number" is not null and m."parentId" is null`, 'x."message"');
  const duplicate = t('import:errors.fileDuplicate', { rows: '{{rows}}' });
  await addErrors(`
    select m.*, replace(${lit(duplicate)}, '{{rows}}', d."rows") as "message" from ${meta} m join (
      select "parentId", "kind", array_to_string(array_agg("_row" order by "_row"), ', ') as "rows" from ${meta}
      where "parentId" is not null group by "parentId", "kind" having count(*) > 1) d on d."parentId" = m."parentId" and d."kind" = m."kind"`, 'x."message"');
  const errorCount = Number((await session.query<{ n: string }>('select count(distinct "rowNo") as n from import_error where "runId" = $1', [run.id])).rows[0].n);
  await session.query(`delete from ${meta} m using (select distinct "rowNo" from import_error where "runId" = $1) e where e."rowNo" = m."_row"`, [run.id]);
  const valid = Number((await session.query<{ n: string }>(`select count(*) as n from ${meta}`)).rows[0].n);

  const into = files.into;
  const commit = run.mode === 'import' && (errorCount === 0 || run.onError === 'validRows');
  const counts = { new: 0, changed: 0, unchanged: 0, deactivated: 0, errors: errorCount };
  const whole = `(select m."parentId", m."kind", m."name", coalesce(string_agg(c."data", ''::bytea order by c."seq"), ''::bytea) as "content"
    from ${meta} m left join ${pieces} c on c."_row" = m."_row" group by m."_row", m."parentId", m."kind", m."name")`;
  const mimeSet = into.mime && files.mime ? `, ${q(into.mime)} = ${lit(files.mime)}` : '';
  await session.query('begin');
  try {
    const changed = await session.query(`
      update ${q(decl.table)} f set ${q(into.content)} = x."content", ${q(into.name)} = x."name"${mimeSet}
      from ${whole} x where f.${q(into.parent)} = x."parentId" and f.${q(into.kind)} = x."kind"
        and (f.${q(into.content)} <> x."content" or f.${q(into.name)} <> x."name")`);
    counts.changed = changed.rowCount;
    const columns = [into.parent, into.kind, into.name, into.content, ...(into.mime && files.mime ? [into.mime] : [])];
    const inserted = await session.query(`
      insert into ${q(decl.table)} (${columns.map(q).join(', ')})
      select x."parentId", x."kind", x."name", x."content"${into.mime && files.mime ? `, ${lit(files.mime)}` : ''} from ${whole} x
      where not exists (select 1 from ${q(decl.table)} f where f.${q(into.parent)} = x."parentId" and f.${q(into.kind)} = x."kind")`);
    counts.new = inserted.rowCount;
    counts.unchanged = valid - counts.new - counts.changed;
    if (commit) await run.beforeCommit?.(counts, total);
    await session.query(commit ? 'commit' : 'rollback');
  } catch (error) {
    await session.query('rollback').catch(() => undefined);
    throw error;
  }
  await session.query(`drop table if exists ${meta}`);
  await session.query(`drop table if exists ${pieces}`);
  const rowsInvalid = run.mode === 'import' && !commit;
  return {
    state: rowsInvalid ? 'failed' : 'succeeded',
    message: rowsInvalid ? t('import:errors.rowsInvalid', { count: errorCount }) : t(run.mode === 'dryRun' ? 'import:messages.dryRunDone' : 'import:messages.done', { ...counts }),
    counts,
    total,
    unknownColumns: [],
    encoding: null,
    delimiter: null,
  };
}
