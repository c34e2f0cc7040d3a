/**
 * Excel export of 20 000 orders (issue 4: under 3 s and under 200 MB peak memory, with the
 * limit raised): POST /order/excel/prepare as the runtime sends it — the orders table's visible
 * columns, a sort, a status filter, endRow 20000 — then GET of the one-time link, the file read to its end. The
 * SQL side is the count and the keyset blocks the server ran for it, replayed directly.
 *
 * Memory: measured in a process of its own (export-memory.ts), so that nothing of the bench
 * itself is counted: the resident size before the exports and its high-water mark during them.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Api } from './http.ts';
import type { Measurement } from './measure.ts';

export const EXPORT_ROWS = 20_000;

/**
 * A configuration root that is the project's own plus a client variant raising the export limit:
 * the way an implementer would raise it (client-variants/<name>/variant.json), not a code path.
 */
export function configRootWithExportLimit(root: string, limit: number): { root: string; variant: string } {
  const dir = mkdtempSync(join(tmpdir(), 'portal-bench-config-'));
  for (const entry of ['screens', 'schemas', 'locales', 'package.json']) symlinkSync(join(root, entry), join(dir, entry));
  const variant = 'bench';
  mkdirSync(join(dir, 'client-variants', variant), { recursive: true });
  writeFileSync(
    join(dir, 'client-variants', variant, 'variant.json'),
    JSON.stringify({
      $schema: '../../schemas/meta/variant.schema.json',
      schemaVersion: 1,
      name: 'Benchmark',
      description: 'npm run bench: the default configuration with the Excel export limit raised to the rows it measures.',
      app: { config: { excelExportLimit: limit } },
    }),
  );
  return { root: dir, variant };
}

/** The orders table's columns as the runtime sends them (field, Polish header, format). */
const COLUMNS: [field: string, header: string, format: string | null][] = [
  ['status', 'Stan', null], ['statusZnaczenie', 'Status', null], ['autNr', 'Nr zlecenia', null], ['zgloData', 'Data zgłoszenia', 'datetime'],
  ['rejestr', 'Nr rejestracyjny', null], ['markaOpis', 'Marka', null], ['modelOpis', 'Model', null], ['stanLicz', 'Stan licznika', 'km'],
  ['zgloFirma', 'Firma zgłaszająca', null], ['zgloKto', 'Zgłaszający', null], ['autTyp', 'Typ zlecenia', null], ['stru1', 'Struktura 1', null],
];

/** Where the export-memory process connects, and with which configuration. */
export interface MemoryRun {
  databaseUrl: string;
  schema: string;
  config: { root: string; variant: string };
}

/**
 * Resident size before the exports and its high-water mark during them (MB), from a process of its
 * own. The child writes its figures to file descriptor 3, a pipe of their own: whatever a library
 * prints to standard output (kysely's deprecation notes did) goes to the terminal, not into them.
 */
function exportMemory(run: MemoryRun, body: unknown, repetitions: number): { before: number; peak: number } {
  const script = join(dirname(fileURLToPath(import.meta.url)), 'export-memory.ts');
  const child = spawnSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, run.databaseUrl, run.schema, run.config.root, run.config.variant, JSON.stringify(body), String(repetitions)],
    { encoding: 'utf8', stdio: ['ignore', 'inherit', 'inherit', 'pipe'] },
  );
  if (child.status !== 0) throw new Error(`export-memory.ts exited with ${child.status ?? child.signal}`);
  return JSON.parse(String(child.output[3]));
}

export function exportMeasurement(api: Api, baseUrl: string, token: string, repetitions: number, memoryRun: MemoryRun): Measurement {
  const body = {
    fieldNames: COLUMNS.map((c) => c[0]),
    columnNames: COLUMNS.map((c) => c[1]),
    columnFormats: COLUMNS.map((c) => c[2]),
    // a filter the count can answer exactly (a count beyond the cap is an estimate, which the
    // export refuses): the orders waiting for someone, about 79 000 rows, the first 20 000 of them
    rowParams: { startRow: 0, endRow: EXPORT_ROWS, sortModel: [{ colId: 'zgloData', sort: 'desc' }], filterModel: { status: { filterType: 'set', values: [1, 9, 10] } } },
  };
  let bytes = 0;
  return {
    section: `Excel export of ${EXPORT_ROWS.toLocaleString('en-US')} orders, ADMIN`,
    name: `prepare + download (${COLUMNS.length} columns, status 1, 9, 10, sorted by date)`,
    target: { p95Ms: 3000 },
    repetitions,
    warmup: 1,
    async call() {
      const { data } = await api.post<{ data: string }>('/order/excel/prepare', body, token);
      const res = await fetch(baseUrl + data);
      if (!res.ok) throw new Error(`download: ${res.status}`);
      bytes = (await res.arrayBuffer()).byteLength;
      return bytes;
    },
    check(size: number) {
      if (size < 100_000) throw new Error(`the export of ${EXPORT_ROWS} rows is only ${size} bytes`);
    },
    extras: () => {
      const memory = exportMemory(memoryRun, body, 3);
      const growth = memory.peak - memory.before;
      return [
        { label: 'file size', value: `${(bytes / 2 ** 20).toFixed(1)} MB` },
        {
          label: 'peak memory of an export (the server in a process of its own: high-water mark of its resident size during 3 exports, over its size before them)',
          value: `${growth.toFixed(0)} MB (peak ${memory.peak.toFixed(0)} MB, before ${memory.before.toFixed(0)} MB)`,
          target: '< 200 MB',
          met: growth < 200,
        },
      ];
    },
    whenMissed: 'Building the sheet: the xlsx package holds the whole sheet before it writes the file.',
  };
}
