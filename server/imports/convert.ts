/**
 * A cell as the field's declared type reads it: Polish dates (DD.MM.RRRR, as Excel writes them in
 * Poland) and ISO dates, decimal commas with spaces as thousands separators, Excel's date serials
 * and Date cells, tak/nie. The result is the JSON value the entity schema checks (a date is
 * YYYY-MM-DD, a moment YYYY-MM-DD HH:MM:SS in the portal's time zone), or a message key.
 */
import type { Cell } from './read-file.ts';
import type { FieldType } from '../config/import-declaration.ts';

export const EMPTY = Symbol('empty');
export type Converted = { value: string | number | boolean | typeof EMPTY } | { error: string };

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

function validDate(y: number, m: number, d: number): boolean {
  const date = new Date(Date.UTC(y, m - 1, d));
  return y >= 1000 && y <= 9999 && date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

/** Excel's serial day (1 = 1900-01-01, with its 1900 leap-year quirk) as a UTC date. */
function fromSerial(serial: number): Date {
  return new Date(Math.round((serial - 25569) * 86400 * 1000));
}

/** A Date cell is the wall time Excel showed, carried as UTC by the reader. */
const dateParts = (d: Date) => ({ y: d.getUTCFullYear(), m: d.getUTCMonth() + 1, d: d.getUTCDate(), h: d.getUTCHours(), mi: d.getUTCMinutes(), s: d.getUTCSeconds() });

const DATE_PL = /^(\d{1,2})[.\-/](\d{1,2})[.\-/](\d{4})(?:[ T,]+(\d{1,2}):(\d{2})(?::(\d{2}))?)?$/;
const DATE_ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;

function parseMoment(cell: Cell): { y: number; m: number; d: number; h: number; mi: number; s: number } | undefined {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? undefined : dateParts(cell);
  if (typeof cell === 'number') return cell > 0 && cell < 2958466 ? dateParts(fromSerial(cell)) : undefined;
  if (typeof cell !== 'string') return undefined;
  const text = cell.trim();
  let m = DATE_PL.exec(text);
  if (m) return { y: +m[3], m: +m[2], d: +m[1], h: +(m[4] ?? 0), mi: +(m[5] ?? 0), s: +(m[6] ?? 0) };
  m = DATE_ISO.exec(text);
  if (m) return { y: +m[1], m: +m[2], d: +m[3], h: +(m[4] ?? 0), mi: +(m[5] ?? 0), s: +(m[6] ?? 0) };
  return undefined;
}

/** A number as Excel in Poland writes it: "1 234,56", "1234,5", "1.234,56"; or a plain "1234.5". */
export function parsePolishNumber(text: string): number | undefined {
  let t = text.replace(/[\s\u00a0\u202f']/g, '');
  if (!t) return undefined;
  if (t.includes(',')) {
    t = t.replace(/\./g, '').replace(',', '.');
  }
  if (!/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i.test(t)) return undefined;
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

const TRUE = new Set(['tak', 't', 'true', '1', 'prawda', 'x', 'y', 'yes']);
const FALSE = new Set(['nie', 'n', 'false', '0', 'fałsz', 'falsz', 'no']);

export function convertCell(cell: Cell, type: FieldType, upper = false): Converted {
  if (cell === null || (typeof cell === 'string' && cell.trim() === '')) return { value: EMPTY };
  if (typeof cell === 'object' && !(cell instanceof Date)) return { error: 'import:errors.formula' };
  switch (type) {
    case 'text': {
      let text = cell instanceof Date ? `${cell.getUTCFullYear()}-${pad(cell.getUTCMonth() + 1)}-${pad(cell.getUTCDate())}` : String(cell).trim();
      if (upper) text = text.toUpperCase();
      return { value: text };
    }
    case 'integer': {
      const n = typeof cell === 'number' ? cell : typeof cell === 'string' ? parsePolishNumber(cell) : undefined;
      return n !== undefined && Number.isInteger(n) ? { value: n } : { error: 'import:errors.integer' };
    }
    case 'decimal': {
      const n = typeof cell === 'number' ? cell : typeof cell === 'string' ? parsePolishNumber(cell) : undefined;
      return n !== undefined ? { value: n } : { error: 'import:errors.number' };
    }
    case 'boolean': {
      if (typeof cell === 'boolean') return { value: cell };
      const t = String(cell).trim().toLowerCase();
      return TRUE.has(t) ? { value: true } : FALSE.has(t) ? { value: false } : { error: 'import:errors.boolean' };
    }
    case 'date':
    case 'datetime': {
      const p = parseMoment(cell);
      if (!p) return { error: `import:errors.${type}` };
      // the format is right but the calendar has no such day (31.02) or the clock no such time: say so (issue 49)
      if (!validDate(p.y, p.m, p.d)) return { error: 'import:errors.noSuchDate' };
      if (p.h > 23 || p.mi > 59 || p.s > 59) return { error: 'import:errors.noSuchTime' };
      const day = `${pad(p.y, 4)}-${pad(p.m)}-${pad(p.d)}`;
      return { value: type === 'date' ? day : `${day} ${pad(p.h)}:${pad(p.mi)}:${pad(p.s)}` };
    }
  }
}
