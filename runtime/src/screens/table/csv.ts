/**
 * The CSV file of a table without an export endpoint (spec §7: "a CSV with separator ; is
 * produced"). Pure: texts in, file text out.
 *
 * - `;` separates fields (what Excel expects in a Polish locale), CRLF ends records, and a field
 *   is quoted as RFC 4180 says: when it holds the separator, a quote or a line break, with quotes
 *   doubled;
 * - the text starts with a UTF-8 byte order mark, without which Excel reads Polish letters as
 *   Windows-1250 garbage;
 * - a text that a spreadsheet would run as a formula (starting with =, +, -, @, a tab or a carriage
 *   return, OWASP "CSV injection") gets a leading apostrophe, unless it is a negative number as the
 *   grid shows it in any language (-12,5; -1 234,50 zł; -1,234.50 km), which must stay a number.
 */

export const CSV_SEPARATOR = ';';
const BOM = '\uFEFF';
const NEEDS_QUOTES = /[;"\r\n]/;
const FORMULA_START = /^[=+\-@\t\r]/;
/**
 * A negative number as format.ts writes it in the language's locale (-1 234,50; -1,234.50), maybe
 * with a short unit after it (the currency's symbol or code, km, l): letters only, no formula.
 */
const NEGATIVE_NUMBER = /^-\d[\d\s\u00a0\u202f.,']*(?:[\s\u00a0\u202f][\p{L}\p{Sc}]{1,4}\.?)?$/u;

export function csvField(text: string): string {
  const safe = FORMULA_START.test(text) && !NEGATIVE_NUMBER.test(text) ? `'${text}` : text;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The whole file: the header row, then one record per row (every row as many fields as the header). */
export function csvDocument(header: readonly string[], rows: Iterable<readonly string[]>): string {
  const lines = [header.map(csvField).join(CSV_SEPARATOR)];
  for (const row of rows) lines.push(row.map(csvField).join(CSV_SEPARATOR));
  return BOM + lines.join('\r\n') + '\r\n';
}
