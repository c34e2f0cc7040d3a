/**
 * An import file as rows, read as it streams (never whole): CSV (UTF-8 with or without BOM, or
 * Windows-1250; `;`, `,` or tab), xlsx (exceljs's streaming reader: the first sheet, cell values —
 * a formula's cached result, never its text) and JSON lines. The first 64 KB decide the format's
 * details (encoding, delimiter) and whether the file is what its name says.
 */
import { Readable } from 'node:stream';
import { createInterface } from 'node:readline';
import { parse } from 'csv-parse';
import iconv from 'iconv-lite';

export type ImportFormat = 'csv' | 'xlsx' | 'ndjson';

/** A cell as the file gives it: text (CSV), or the typed value xlsx and JSON carry. */
export type Cell = string | number | boolean | Date | null | { formula: string };

export interface FileHead {
  format: ImportFormat;
  encoding: string | null;
  delimiter: string | null;
  columns: string[];
}

export interface SourceRow {
  /** The row's number as a spreadsheet shows it (the heading is row 1). */
  rowNo: number;
  cells: Cell[];
}

/** A file that cannot be read as an import at all; `key` is a message of locales/pl/import.json. */
export class ImportFileError extends Error {
  constructor(public readonly key: string, public readonly vars: Record<string, unknown> = {}) {
    super(key);
  }
}

const SNIFF_BYTES = 64 * 1024;

/** The format a file name (or the request's content type) announces. */
export function formatOf(fileName: string, contentType?: string): ImportFormat | undefined {
  if (contentType && /ndjson|jsonl|json-seq/.test(contentType)) return 'ndjson';
  const ext = fileName.toLowerCase().split('.').pop() ?? '';
  if (ext === 'csv' || ext === 'txt') return 'csv';
  if (ext === 'xlsx') return 'xlsx';
  if (ext === 'jsonl' || ext === 'ndjson' || ext === 'json') return 'ndjson';
  return undefined;
}

/** Reads the first bytes of a stream and gives back a stream of the whole content again. */
async function peek(source: AsyncIterable<Buffer>): Promise<{ head: Buffer; all: Readable }> {
  const iterator = source[Symbol.asyncIterator]();
  const taken: Buffer[] = [];
  let size = 0;
  let done = false;
  while (size < SNIFF_BYTES) {
    const next = await iterator.next();
    if (next.done) {
      done = true;
      break;
    }
    taken.push(next.value);
    size += next.value.length;
  }
  async function* rest() {
    yield* taken;
    if (done) return;
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      yield next.value;
    }
  }
  return { head: Buffer.concat(taken), all: Readable.from(rest(), { objectMode: false }) };
}

function isUtf8(bytes: Buffer): boolean {
  try {
    // stream: a character cut at the end of the sample is not an error
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/** UTF-8 (a BOM, or valid UTF-8), else Windows-1250; UTF-16 and binary content is refused. */
export function detectEncoding(head: Buffer): 'utf-8' | 'windows-1250' {
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return 'utf-8';
  if ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff) || head.includes(0)) throw new ImportFileError('import:errors.encoding');
  return isUtf8(head) ? 'utf-8' : 'windows-1250';
}

/** The delimiter of the heading line: the most frequent of `;`, `,` and tab outside quotes. */
export function detectDelimiter(text: string): string {
  const line = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0] ?? '';
  const counts: Record<string, number> = { ';': 0, ',': 0, '\t': 0 };
  let quoted = false;
  for (const ch of line) {
    if (ch === '"') quoted = !quoted;
    else if (!quoted && ch in counts) counts[ch]++;
  }
  return Object.entries(counts).sort((a, b) => b[1] - a[1])[0][1] > 0 ? Object.entries(counts).sort((a, b) => b[1] - a[1])[0][0] : ';';
}

const looksZip = (b: Buffer) => b.length >= 4 && b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04;
const looksBinary = (b: Buffer) => looksZip(b) || b.subarray(0, 5).toString('latin1') === '%PDF-' || (b[0] === 0xd0 && b[1] === 0xcf);

/** Opens the file: its heading and its rows as they stream. */
export async function openRows(source: AsyncIterable<Buffer>, format: ImportFormat, fileName: string): Promise<{ head: FileHead; rows: AsyncIterable<SourceRow> }> {
  const { head, all } = await peek(source);
  if (head.length === 0) throw new ImportFileError('import:errors.emptyFile');
  const ext = fileName.split('.').pop() ?? format;
  if (format === 'xlsx') {
    if (!looksZip(head)) throw new ImportFileError('import:errors.notWhatItSays', { ext });
    return xlsxRows(all);
  }
  if (looksBinary(head)) throw new ImportFileError('import:errors.notWhatItSays', { ext });
  const encoding = detectEncoding(head);
  const decoded = all.pipe(iconv.decodeStream(encoding, { stripBOM: true }) as unknown as NodeJS.WritableStream) as unknown as Readable;
  if (format === 'ndjson') return ndjsonRows(decoded, encoding);
  const delimiter = detectDelimiter(iconv.decode(head.subarray(0, 8192), encoding));
  return csvRows(decoded, encoding, delimiter);
}

async function csvRows(text: Readable, encoding: string, delimiter: string) {
  const parser = text.pipe(parse({ delimiter, relax_column_count: true, skip_empty_lines: true, info: true, trim: false, bom: true }));
  const iterator = parser[Symbol.asyncIterator]() as AsyncIterator<{ record: string[]; info: { lines: number } }>;
  const first = await iterator.next().catch((e) => {
    throw new ImportFileError('import:errors.format', { reason: String(e) });
  });
  if (first.done) throw new ImportFileError('import:errors.emptyFile');
  const columns = first.value.record.map((c) => c.trim());
  if (!columns.some(Boolean)) throw new ImportFileError('import:errors.noHeader');
  async function* rows(): AsyncIterable<SourceRow> {
    for (;;) {
      const next = await iterator.next();
      if (next.done) return;
      const { record, info } = next.value;
      if (record.every((c) => c.trim() === '')) continue;
      // info.lines is the line the record ends on; a record with line breaks in a cell still gets one number
      yield { rowNo: info.lines, cells: record };
    }
  }
  return { head: { format: 'csv' as const, encoding, delimiter, columns }, rows: rows() };
}

async function ndjsonRows(text: Readable, encoding: string) {
  const lines = createInterface({ input: text, crlfDelay: Infinity })[Symbol.asyncIterator]();
  let lineNo = 0;
  let firstObject: Record<string, unknown> | undefined;
  let firstLine = 0;
  while (!firstObject) {
    const next = await lines.next();
    if (next.done) throw new ImportFileError('import:errors.emptyFile');
    lineNo++;
    if (!next.value.trim()) continue;
    const parsed = parseObject(next.value);
    if (!parsed) throw new ImportFileError('import:errors.badJson');
    firstObject = parsed;
    firstLine = lineNo;
  }
  const columns = Object.keys(firstObject);
  const cellsOf = (object: Record<string, unknown>): Cell[] => columns.map((c) => jsonCell(object[c]));
  async function* rows(): AsyncIterable<SourceRow> {
    yield { rowNo: firstLine, cells: cellsOf(firstObject!) };
    for (;;) {
      const next = await lines.next();
      if (next.done) return;
      lineNo++;
      if (!next.value.trim()) continue;
      const parsed = parseObject(next.value);
      // a line that is no object: every cell in error (the engine says which row)
      yield { rowNo: lineNo, cells: parsed ? cellsOf(parsed) : columns.map(() => ({ formula: '' })) };
    }
  }
  return { head: { format: 'ndjson' as const, encoding, delimiter: null, columns }, rows: rows() };
}

function parseObject(line: string): Record<string, unknown> | undefined {
  try {
    const value = JSON.parse(line);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

function jsonCell(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value);
}

/** An xlsx cell's value: what Excel shows, never a formula's text. */
function xlsxCell(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value instanceof Date) return value;
  const v = value as Record<string, unknown>;
  if ('formula' in v || 'sharedFormula' in v) {
    const result = v.result;
    if (result === undefined || result === null || (typeof result === 'object' && !(result instanceof Date))) return { formula: String(v.formula ?? v.sharedFormula) };
    return result as Cell;
  }
  if (Array.isArray(v.richText)) return v.richText.map((part: { text: string }) => part.text).join('');
  if ('text' in v) return String(v.text);
  if ('error' in v) return { formula: String(v.error) };
  return String(value);
}

/** A sheet of a workbook read as a stream (exceljs's type; the module itself is loaded only for an xlsx file). */
type WorksheetReader = import('exceljs').stream.xlsx.WorksheetReader;

async function xlsxRows(stream: Readable) {
  // loaded for an xlsx file only: exceljs takes ~0.5 s to load, and every run's row thread loads this module
  const { default: ExcelJS } = await import('exceljs');
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(stream, { sharedStrings: 'cache', hyperlinks: 'ignore', styles: 'cache', worksheets: 'emit', entries: 'emit' });
  const sheets = reader[Symbol.asyncIterator]();
  let sheet: IteratorResult<WorksheetReader>;
  try {
    sheet = await sheets.next();
  } catch {
    throw new ImportFileError('import:errors.notWhatItSays', { ext: 'xlsx' });
  }
  if (sheet.done) throw new ImportFileError('import:errors.emptyFile');
  const rowsOfSheet = sheet.value[Symbol.asyncIterator]();
  let header: Cell[] | undefined;
  for (;;) {
    const next = await rowsOfSheet.next();
    if (next.done) throw new ImportFileError('import:errors.emptyFile');
    const values = (next.value.values as unknown[]).slice(1).map(xlsxCell);
    if (values.some((v) => v !== null && String(v).trim() !== '')) {
      header = values;
      break;
    }
  }
  const columns = header!.map((c) => (c === null ? '' : String(c instanceof Object && 'formula' in c ? '' : c).trim()));
  async function* rows(): AsyncIterable<SourceRow> {
    for (;;) {
      const next = await rowsOfSheet.next();
      if (next.done) break;
      const cells = (next.value.values as unknown[]).slice(1).map(xlsxCell);
      if (cells.every((v) => v === null || (typeof v === 'string' && v.trim() === ''))) continue;
      yield { rowNo: next.value.number as number, cells };
    }
    // the remaining sheets are not read: drain the reader so the zip stream ends
    for (;;) {
      const more = await sheets.next();
      if (more.done) return;
      for await (const _row of more.value) { /* skipped */ }
    }
  }
  return { head: { format: 'xlsx' as const, encoding: null, delimiter: null, columns }, rows: rows() };
}
