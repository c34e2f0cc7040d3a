/**
 * A report's file (issue 46): xlsx (exceljs; numbers stay numbers with the reader's language's units, a
 * header naming the report, the period and the filters, the totals row last) or PDF (A4, DejaVu
 * Sans through server/pdf/document.ts, the variant's logo at the head and its primary colour in the
 * title and the header rule, its name as author, page numbers in the footer).
 */
import { lazyModule } from '../lazy-module.ts';
import type { BrandLogo } from '../config/branding.ts';
import { renderPdf } from '../pdf/document.ts';
import type { ReportResult } from './engine.ts';
import { XLSX_MIME } from '../downloads/excel-sheet.ts';

/** The header's texts: the report, its period and filters, the brand, the totals row's label, when it was made. */
export interface ExportHead {
  title: string; period: string; filters: string; brand: string; total: string; generatedAt: string;
  /** The variant's logo and primary colour (config/branding.ts), for the PDF's head. */
  logo?: BrandLogo; accent?: string;
  /**
   * How the reader's language writes a column format's number (file.ts: his locale, the configured
   * currency): the Excel file takes the words before and after the number from these (zł, PLN,
   * км, л), so a cell reads as the PDF and the Raporty screen write it. A format without one has
   * no words.
   */
  numbers?: Readonly<Record<string, Intl.NumberFormat>>;
}

/** The digits of each column format in the Excel file (Excel writes them by the reader's own settings). */
const DIGITS: Record<string, string> = {
  money: '#,##0.00', km: '#,##0', litres: '#,##0.00', ratio: '#,##0.00', kg: '#,##0.00', count: '#,##0',
};

/** A month dimension's YYYY-MM value as the first day of that month (UTC midnight: the sheet's date of that day); null for anything else. */
export function monthStart(value: unknown): Date | null {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})$/.exec(value) : null;
  return m && +m[2] >= 1 && +m[2] <= 12 ? new Date(Date.UTC(+m[1], +m[2] - 1, 1)) : null;
}

/** A text as a literal of an Excel format code (a quote inside is dropped). */
const literal = (text: string) => (text ? `"${text.replace(/"/g, '')}"` : '');

/**
 * An Excel number format for `digits` with the words `number` writes around a number in its
 * language: "1234,50 zł" → `#,##0.00" zł"`, "PLN 1,234.50" → `"PLN "#,##0.00`, "1 234 км" → `#,##0" км"`.
 */
export function excelFormat(digits: string, number?: Intl.NumberFormat): string {
  if (!number) return digits;
  const parts = number.formatToParts(1234.5);
  const isNumber = (type: string) => ['integer', 'group', 'decimal', 'fraction'].includes(type);
  const first = parts.findIndex((p) => isNumber(p.type));
  const last = parts.length - 1 - [...parts].reverse().findIndex((p) => isNumber(p.type));
  const words = (from: number, to: number) => parts.slice(from, to).filter((p) => p.type !== 'minusSign' && p.type !== 'plusSign').map((p) => p.value).join('');
  return `${literal(words(0, first))}${digits}${literal(words(last + 1, parts.length))}`;
}

/** exceljs, loaded on the first export (server/lazy-module.ts). */
const excelJs = lazyModule(async () => (await import('exceljs')).default);

export async function reportXlsx(result: ReportResult, head: ExportHead): Promise<Buffer> {
  const ExcelJS = await excelJs();
  const book = new ExcelJS.Workbook();
  book.creator = head.brand;
  const sheet = book.addWorksheet(head.title.slice(0, 31).replace(/[\\/*?:[\]]/g, ' '));
  sheet.addRow([head.title]).font = { bold: true, size: 14 };
  sheet.addRow([head.period]);
  if (head.filters) sheet.addRow([head.filters]);
  sheet.addRow([]);
  const header = sheet.addRow(result.columns.map((c) => c.label));
  header.font = { bold: true };
  const firstData = sheet.rowCount + 1;
  // a month is a date of the sheet (its first day) shown as month and year: Excel sorts and filters it as one
  const cell = (c: ReportResult['columns'][number], value: unknown) => (c.format === 'month' ? monthStart(value) ?? value ?? null : value ?? null);
  for (const row of result.rows) sheet.addRow(result.columns.map((c) => cell(c, row.values[c.id])));
  const totals = sheet.addRow(result.columns.map((c, i) => (i === 0 ? head.total : c.kind === 'measure' ? result.totals[c.id] ?? null : null)));
  totals.font = { bold: true };
  result.columns.forEach((c, i) => {
    const column = sheet.getColumn(i + 1);
    column.width = Math.max(12, Math.min(40, c.label.length + 4));
    if (c.format === 'month') {
      for (let r = firstData; r <= sheet.rowCount; r++) sheet.getCell(r, i + 1).numFmt = 'mmm yyyy';
    } else if (c.format && DIGITS[c.format]) {
      const numFmt = excelFormat(DIGITS[c.format], head.numbers?.[c.format]);
      for (let r = firstData; r <= sheet.rowCount; r++) sheet.getCell(r, i + 1).numFmt = numFmt;
    }
  });
  return Buffer.from(await book.xlsx.writeBuffer());
}

export async function reportPdf(result: ReportResult, head: ExportHead, shown: (value: unknown, format?: string) => string): Promise<Buffer> {
  const n = result.columns.length;
  const first = Math.min(0.34, 2 / (n + 1));
  const widths = result.columns.map((_, i) => (i === 0 ? first : (1 - first) / Math.max(1, n - 1)));
  const right = result.columns.map((c, i) => (c.kind === 'measure' ? i : -1)).filter((i) => i >= 0);
  const rows = [
    result.columns.map((c) => c.label),
    ...result.rows.map((r) => result.columns.map((c) => shown(r.values[c.id], c.format))),
    result.columns.map((c, i) => (i === 0 ? head.total : c.kind === 'measure' ? shown(result.totals[c.id], c.format) : '')),
  ];
  return renderPdf({
    title: head.title,
    author: head.brand,
    logo: head.logo,
    accent: head.accent,
    blocks: [
      { kind: 'title', text: head.title },
      { kind: 'paragraph', text: [head.period, head.filters].filter(Boolean).join('\n') },
      { kind: 'table', widths, rows, alignRight: right, totalsLast: true },
    ],
    footer: `${head.brand} · ${head.generatedAt}`,
  });
}

export { XLSX_MIME };
