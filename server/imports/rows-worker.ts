/**
 * The thread an import run's rows are read and checked on (rows-thread.ts starts it; docs/decisions.md
 * "Imports (issue 34)", "The row thread"): the file's bytes come from the run's connection on the main
 * thread, chunk after chunk as the parser asks; the rows go back in batches ready for the staging table
 * (COPY text lines on PostgreSQL, values on PGlite) with the rows in error beside them. The main thread
 * only moves bytes, so the other users' requests never wait behind a row being checked. One run at a
 * time; a thread whose run read its file to the end is kept for the next ('start').
 */
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { translatorFor } from '../config/translator.ts';
import { copyField } from './copy-text.ts';
import { ImportFileError, openRows, type Cell } from './read-file.ts';
import { checkRow, compiledChecks } from './row-check.ts';
import type { RowsBatch, RowsThreadData, RowsThreadInput, ToMain, ToWorker } from './rows-thread.ts';

const port = parentPort!;
const send = (message: ToMain) => port.postMessage(message);

// Linux keeps a nice value per thread: this lowers the row thread alone, so the requests of the
// process's main thread and the database's other sessions go first when the cores are busy.
try {
  setPriority((workerData as RowsThreadData).nice);
} catch {
  // not allowed here (or not Linux): the row thread runs at the process's priority
}

/** The run in progress (one at a time): what its messages from the main thread resolve. */
interface Run {
  input: RowsThreadInput;
  chunkArrived?: (chunk: Uint8Array | null) => void;
  mappingArrived?: (columns: { index: [string, number][]; headings: [string, string][] }) => void;
  credit: number;
  creditArrived?: () => void;
}
let current: Run | undefined;

port.on('message', (message: ToWorker) => {
  if (message.type === 'start') {
    const started: Run = { input: message.input, credit: message.input.batchesAhead };
    current = started;
    run(started).catch((error: unknown) => {
      if (error instanceof ImportFileError) send({ type: 'fail', key: error.key, vars: error.vars });
      else send({ type: 'error', message: String((error as Error)?.message ?? error), code: (error as { code?: string })?.code });
    });
    return;
  }
  if (!current) return;
  if (message.type === 'chunk') current.chunkArrived?.(message.chunk);
  else if (message.type === 'columns') current.mappingArrived?.(message);
  else if (message.type === 'next') {
    current.credit++;
    current.creditArrived?.();
  }
});

/** The stored file, a chunk at a time, asked of the main thread when the parser needs more. */
async function* file(r: Run): AsyncIterable<Buffer> {
  for (;;) {
    const chunk = await new Promise<Uint8Array | null>((resolve) => {
      r.chunkArrived = resolve;
      send({ type: 'chunk' });
    });
    if (!chunk) return;
    yield Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  }
}

/** What a cell shows, for the file of rows to fix. */
function shown(cell: Cell): string {
  if (cell === null) return '';
  if (cell instanceof Date) return cell.toISOString().slice(0, 10);
  if (typeof cell === 'object') return '';
  return String(cell);
}

const emptyBatch = (): RowsBatch => ({ type: 'batch', total: 0, copyText: '', values: [], errors: [] });

/** Hands a batch over, waiting while the main thread is `batchesAhead` batches behind. */
async function hand(r: Run, batch: RowsBatch) {
  while (r.credit === 0) await new Promise<void>((resolve) => (r.creditArrived = resolve));
  r.credit--;
  send(batch);
}

async function run(r: Run) {
  const { input } = r;
  const compiled = compiledChecks(input.plan);
  // the run's caller's language (issue 48): a function does not cross to the thread, so it is made here from the same texts
  const t = await translatorFor(input.locales, input.language.id);
  const { head, rows } = await openRows(file(r), input.format, input.fileName);
  const columns = await new Promise<{ index: [string, number][]; headings: [string, string][] }>((resolve) => {
    r.mappingArrived = resolve;
    send({ type: 'head', head });
  });
  const columnIndex = new Map(columns.index);
  const columnOf = new Map(columns.headings);
  let total = 0;
  let batch = emptyBatch();
  let good = 0; // the lines of batch.copyText
  for await (const row of rows) {
    total++;
    if (total > input.maxRows) throw new ImportFileError('import:errors.tooManyRows', { limit: input.maxRows.toLocaleString(input.language.locale) });
    const cellsJson = JSON.stringify(row.cells.map(shown));
    const checked = checkRow(compiled, row.cells, columnIndex, columnOf, t);
    if (checked.errors.length) {
      for (const e of checked.errors) batch.errors.push([row.rowNo, e.column, e.message, cellsJson]);
    } else {
      const dataJson = JSON.stringify(checked.data);
      if (input.copyText) {
        batch.copyText += `${row.rowNo}\t${copyField(dataJson)}\t${copyField(cellsJson)}\n`;
        good++;
      }
      else batch.values.push([row.rowNo, dataJson, cellsJson]);
    }
    if (good + batch.values.length + batch.errors.length >= input.batchRows) {
      batch.total = total;
      await hand(r, batch);
      batch = emptyBatch();
      good = 0;
    }
  }
  batch.total = total;
  await hand(r, batch);
  send({ type: 'done', total });
}
