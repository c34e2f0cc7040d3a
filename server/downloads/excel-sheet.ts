/**
 * The Excel file of a table export (spec §7, DESIGN.md §3), written with the `xlsx` package (write
 * only: the server never parses a spreadsheet). Rows are added block by block and turned into
 * cells at once, so the source rows of a block can be dropped before the next is read; the sheet
 * is kept dense (an array per row, not an object keyed "A1", "B1" …) because that is what bounds
 * the memory of a 20 000-row export.
 *
 * A cell shows what the grid shows, but stays usable in Excel:
 * - dates and date-times are real Excel dates (numbers) formatted by the reader's language's date
 *   pattern (DD.MM.YYYY or DD/MM/YYYY, and HH:mm),
 *   date-times in the configured zone's wall-clock time (config.timeZone) whatever the server's own zone; dates before
 *   1900-01-02 are the back office's "no date" and stay empty (as in runtime/src/format.ts);
 * - money, kilometres and numbers are numbers with a number format (2 decimals and the money unit of locales/pl/app.json excel.units);
 * - yes/no fields and coded values are their Polish labels (sent by the runtime from the column
 *   declarations, or Tak/Nie from locales for a yes/no field without labels).
 * The header row carries an autofilter (the community edition of `xlsx` writes no cell styles, so
 * it is not bold), and each column is as wide as its longest text, within limits.
 */
import type * as XLSXTypes from 'xlsx';
import { lazyModule } from '../lazy-module.ts';
import type { ExcelExportRequest } from '../../runtime/core/generated/api.ts';
import { phoneText } from '../../runtime/core/format-kind.ts';

export type ExportFormat = NonNullable<NonNullable<ExcelExportRequest['columnFormats']>[number]>;

export interface ExportColumn {
  /** Entity field the values come from. */
  field: string;
  /** Header text as the grid shows it. */
  header: string;
  format: ExportFormat;
  /** Value (as text) → label, for coded columns; a value without one is written as it is. */
  labels?: Readonly<Record<string, string>> | null;
}

/** What the sheet writes in words, from the configuration (locales/pl/app.json excel.*, screens/app.json config.timeZone). */
export interface SheetTexts {
  yes: string;
  no: string;
  /** Unit shown after a number in its number format: money (zł), km, litres (l), mm. */
  units: { money: string; km: string; litres: string; mm: string };
  /** The sheet's name when the title leaves nothing Excel allows. */
  defaultSheetName: string;
  /** The zone whose wall-clock time date-times are written in (IANA name). */
  timeZone: string;
  /** How the reader's language writes a day (DD.MM.YYYY, DD/MM/YYYY: runtime/core/date-text.ts). */
  datePattern: string;
}

/**
 * A date pattern as an Excel format code: dd, mm, yyyy, each separator escaped — a bare "/" or "."
 * would be replaced by the separator of the reader's Windows settings, a dot read as a decimal point.
 */
export const excelDateCode = (pattern: string): string => pattern.replace(/YYYY|MM|DD|./g, (token) => (token.length > 1 ? token.toLowerCase() : `\\${token}`));

/** A unit as a literal of an Excel format code (a quote inside is doubled away). */
const literal = (unit: string) => `"${unit.replace(/"/g, '')}"`;

/**
 * Excel number format codes per column format (the file's own codes, independent of the reader's
 * locale); the units come from the configuration's texts.
 */
export function numberFormats(units: SheetTexts['units'], datePattern: string) {
  return {
    date: excelDateCode(datePattern),
    datetime: `${excelDateCode(datePattern)} hh:mm`,
    money: `#,##0.00 ${literal(units.money)}`,
    km: `#,##0 ${literal(units.km)}`,
    litres: `#,##0.## ${literal(units.litres)}`,
    mm: `0.0 ${literal(units.mm)}`,
    integer: '#,##0',
    fraction: '#,##0.00',
    decimal1: '0.0',
    year: '0',
  } as const;
}

const MIN_WIDTH = 8;
const MAX_WIDTH = 60;
const DAY_MS = 86_400_000;
/** Days from Excel's day 0 (1899-12-30 in its 1900 system) to 1970-01-01. */
const EXCEL_EPOCH_OFFSET = 25_569;

interface WallClock {
  y: number;
  m: number;
  d: number;
  hh: number;
  mm: number;
  ss: number;
}

const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * The wall-clock time of instants in a zone (screens/app.json config.timeZone). The zone's offset
 * only changes on a whole UTC hour, so it is computed once per hour that occurs (an export covers
 * few distinct hours per row).
 */
function wallClock(timeZone: string) {
  const format = new Intl.DateTimeFormat('en-GB', {
    timeZone, hourCycle: 'h23',
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
  });
  const offsets = new Map<number, number>();
  const offsetAt = (ms: number) => {
    const hour = Math.floor(ms / 3_600_000);
    let offset = offsets.get(hour);
    if (offset === undefined) {
      const p = Object.fromEntries(format.formatToParts(new Date(hour * 3_600_000)).map((x) => [x.type, x.value]));
      offset = Date.UTC(+p.year, +p.month - 1, +p.day, +p.hour, +p.minute, +p.second) - hour * 3_600_000;
      offsets.set(hour, offset);
    }
    return offset;
  };
  return (ms: number): WallClock => {
    const local = new Date(ms + offsetAt(ms));
    return {
      y: local.getUTCFullYear(), m: local.getUTCMonth() + 1, d: local.getUTCDate(),
      hh: local.getUTCHours(), mm: local.getUTCMinutes(), ss: local.getUTCSeconds(),
    };
  };
}

/** Excel's serial number of a wall-clock time (days since 1899-12-30, the time as the fraction). */
export function excelSerial(c: WallClock): number {
  const serial = Date.UTC(c.y, c.m - 1, c.d, c.hh, c.mm, c.ss) / DAY_MS + EXCEL_EPOCH_OFFSET;
  // Excel counts a 29.02.1900 that never was: days before 1.03.1900 are one lower
  return serial < 61 ? serial - 1 : serial;
}

const isNoDate = (c: WallClock) => c.y < 1900 || (c.y === 1900 && c.m === 1 && c.d < 2);

function toNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  return null;
}

/** Excel forbids : \ / ? * [ ] in a sheet name and allows 31 characters. */
export function sheetName(title: string, fallback: string): string {
  const clean = title.replace(/[:\\/?*[\]]/g, ' ').replace(/\s+/g, ' ').trim().slice(0, 31).trim();
  return clean || fallback;
}

type Cell = XLSXTypes.CellObject;

/** The xlsx library, loaded for the first file written (server/lazy-module.ts). */
export const xlsxLibrary = lazyModule(() => import('xlsx'));

/**
 * Builds one sheet: `addRows` for each block in order, then `finish` for the file's bytes.
 * `finish` may be called once.
 */
export function createSheetBuilder(columns: readonly ExportColumn[], texts: SheetTexts) {
  const clock = wallClock(texts.timeZone);
  const NUMBER_FORMATS = numberFormats(texts.units, texts.datePattern);
  const widths = columns.map((c) => Math.max(MIN_WIDTH, c.header.length + 2));
  // dense sheet: rows[r][c]; the xlsx writer accepts an array with the sheet's "!" keys set on it
  const rows: Cell[][] = [columns.map((c) => ({ t: 's', v: c.header }))];

  const text = (v: string): Cell => ({ t: 's', v });
  const number = (v: number, z?: string): Cell => (z ? { t: 'n', v, z } : { t: 'n', v });

  const wallClockOf = (value: unknown): WallClock | null => {
    if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : clock(value.getTime());
    if (typeof value !== 'string') return null;
    const m = ISO.exec(value.trim());
    if (!m) return null;
    // an instant (with a zone) is shown in Warsaw; a value without a zone is already wall-clock time
    if (m[7]) return clock(Date.parse(value.trim()));
    return { y: +m[1], m: +m[2], d: +m[3], hh: +(m[4] ?? 0), mm: +(m[5] ?? 0), ss: +(m[6] ?? 0) };
  };

  function cellOf(value: unknown, column: ExportColumn): Cell | undefined {
    if (value === null || value === undefined || (typeof value === 'string' && value.trim() === '')) return undefined;
    if (column.labels) return text(column.labels[String(value)] ?? String(value));
    switch (column.format) {
      case 'date':
      case 'datetime': {
        const c = wallClockOf(value);
        if (!c) return text(String(value));
        if (isNoDate(c)) return undefined;
        if (column.format === 'date') return number(excelSerial({ ...c, hh: 0, mm: 0, ss: 0 }), NUMBER_FORMATS.date);
        return number(excelSerial({ ...c, ss: 0 }), NUMBER_FORMATS.datetime);
      }
      case 'money':
      case 'km':
      case 'litres':
      case 'mm':
      case 'number':
      case 'decimal1':
      case 'year': {
        const n = toNumber(value);
        if (n === null) return text(String(value));
        if (column.format === 'number') return number(n, Number.isInteger(n) ? NUMBER_FORMATS.integer : NUMBER_FORMATS.fraction);
        return number(n, NUMBER_FORMATS[column.format]);
      }
      case 'boolean':
        return typeof value === 'boolean' ? text(value ? texts.yes : texts.no) : text(String(value));
      case 'phone':
        return text(phoneText(String(value)));
      case 'tn':
        if (value === 'T' || value === 't') return text(texts.yes);
        if (value === 'N' || value === 'n') return text(texts.no);
        return text(String(value));
      default:
        if (typeof value === 'number') return number(value);
        return text(typeof value === 'string' ? value : typeof value === 'boolean' ? (value ? texts.yes : texts.no) : JSON.stringify(value));
    }
  }

  /** Roughly how many characters the cell shows, for the column width. */
  function shownLength(cell: Cell, column: ExportColumn): number {
    if (cell.t === 's') return String(cell.v).length;
    if (column.format === 'date') return 10;
    if (column.format === 'datetime') return 16;
    const digits = String(Math.round(Math.abs(cell.v as number))).length;
    const grouped = digits + Math.floor((digits - 1) / 3);
    return grouped + (column.format === 'money' ? 6 : column.format === 'km' ? 3 : 3);
  }

  return {
    addRows(block: readonly Record<string, unknown>[]) {
      for (const source of block) {
        const row: Cell[] = [];
        columns.forEach((column, c) => {
          const cell = cellOf(source[column.field], column);
          if (!cell) return;
          row[c] = cell;
          const length = shownLength(cell, column);
          if (length + 2 > widths[c]) widths[c] = Math.min(MAX_WIDTH, length + 2);
        });
        rows.push(row);
      }
    },

    get rowCount() {
      return rows.length - 1;
    },

    async finish(title: string): Promise<Buffer> {
      const XLSX = await xlsxLibrary();
      const sheet = rows as unknown as XLSXTypes.WorkSheet;
      const range = XLSX.utils.encode_range({ s: { r: 0, c: 0 }, e: { r: rows.length - 1, c: columns.length - 1 } });
      sheet['!ref'] = range;
      sheet['!cols'] = widths.map((wch) => ({ wch }));
      sheet['!autofilter'] = { ref: range };
      const book = XLSX.utils.book_new();
      XLSX.utils.book_append_sheet(book, sheet, sheetName(title, texts.defaultSheetName));
      book.Props = { Title: title };
      return XLSX.write(book, { type: 'buffer', bookType: 'xlsx', bookSST: true, compression: true }) as Buffer;
    },
  };
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
