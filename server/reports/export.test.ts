import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { excelFormat, reportXlsx, type ExportHead } from './export.ts';
import type { ReportResult } from './engine.ts';
import { reportNumberFormats } from './file.ts';

/** The number formats file.ts gives a reader of `locale` (the configured currency PLN). */
const numbersOf = (locale: string) => reportNumberFormats(locale, 'PLN');

const result: ReportResult = {
  columns: [
    { id: 'vehicle', label: 'Pojazd', kind: 'dimension' },
    { id: 'cost', label: 'Koszt', kind: 'measure', format: 'money' },
    { id: 'km', label: 'Km', kind: 'measure', format: 'km' },
    { id: 'litres', label: 'Litry', kind: 'measure', format: 'litres' },
    { id: 'co2', label: 'CO2', kind: 'measure', format: 'kg' },
    { id: 'ratio', label: 'zł/km', kind: 'measure', format: 'ratio' },
  ],
  rows: [{ keys: { vehicle: 1 }, values: { vehicle: 'WZ12345', cost: 1234.5, km: 1500, litres: 120.25, co2: 280.5, ratio: 0.82 } }],
  totals: { cost: 1234.5, km: 1500, litres: 120.25, co2: 280.5, ratio: 0.82 },
  rowCount: 1,
};

async function formatsOfRow(head: ExportHead): Promise<string[]> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load((await reportXlsx(result, head)) as unknown as ArrayBuffer);
  const sheet = book.worksheets[0];
  // title, period, an empty row, the header, then the row
  // a space of the language's may be a no-break one (Intl's choice per locale)
  return [2, 3, 4, 5, 6].map((column) => String(sheet.getCell(5, column).numFmt).replace(/\u00a0/g, ' '));
}

const head = (locale?: string): ExportHead => ({
  title: 'Koszty', period: '01.11.2026 – 30.11.2026', filters: '', brand: 'Portal', total: 'Razem', generatedAt: '',
  numbers: locale ? numbersOf(locale) : undefined,
});

describe('a report\'s Excel file writes units in the reader\'s language (issue 48)', () => {
  it('in Ukrainian: PLN, км, л, кг, as the PDF and the Raporty screen write them', async () => {
    const [money, km, litres, kg, ratio] = await formatsOfRow(head('uk-UA'));
    expect(money).toBe('#,##0.00" PLN"');
    expect(km).toBe('#,##0" км"');
    expect(litres).toBe('#,##0.00" л"');
    expect(kg).toBe('#,##0.00" кг"');
    expect(ratio).toBe('#,##0.00');
  });

  it('in English the currency comes first, in Polish it is zł after the number', async () => {
    const [money, km] = await formatsOfRow(head('en-GB'));
    expect(money).toBe('"PLN "#,##0.00');
    expect(km).toBe('#,##0" km"');
    expect((await formatsOfRow(head('pl-PL')))[0]).toBe('#,##0.00" zł"');
  });

  it('without the reader\'s formats a number keeps its digits and no words', async () => {
    expect(await formatsOfRow(head())).toEqual(['#,##0.00', '#,##0', '#,##0.00', '#,##0.00', '#,##0.00']);
    expect(excelFormat('#,##0', undefined)).toBe('#,##0');
  });
});

describe('a report\'s numbers in its PDF (what file.ts writes)', () => {
  it('have the same decimals on every row, as the Excel file and the screen: 562,80 kg under 447,56 kg, 97,50 l', () => {
    const formats = reportNumberFormats('pl-PL', 'PLN');
    const text = (f: string, n: number) => formats[f].format(n).replace(/\u00a0/g, ' ');
    expect([text('kg', 447.56), text('kg', 562.8), text('kg', 1000)]).toEqual(['447,56 kg', '562,80 kg', '1000,00 kg']);
    expect([text('litres', 167), text('litres', 97.5)]).toEqual(['167,00 l', '97,50 l']);
    expect(text('km', 1500.4)).toBe('1500 km');
  });
});
