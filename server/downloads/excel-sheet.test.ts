// The test reads the file back with the xlsx package to see what Excel would see; the server never does.
import * as XLSX from 'xlsx';
import { describe, expect, it } from 'vitest';
import { createSheetBuilder, excelSerial, numberFormats, sheetName, type ExportColumn } from './excel-sheet.ts';

const texts = {
  yes: 'Tak', no: 'Nie', units: { money: 'zł', km: 'km', litres: 'l', mm: 'mm' }, defaultSheetName: 'Arkusz1', timeZone: 'Europe/Warsaw', datePattern: 'DD.MM.YYYY',
};
const NUMBER_FORMATS = numberFormats(texts.units, texts.datePattern);

function read(buffer: Buffer) {
  const book = XLSX.read(buffer, { type: 'buffer', cellNF: true, cellStyles: true, cellDates: false });
  const sheet = book.Sheets[book.SheetNames[0]];
  return { book, sheet, cell: (ref: string) => sheet[ref] as XLSX.CellObject | undefined };
}

describe('the export sheet', () => {
  const columns: ExportColumn[] = [
    { field: 'nr', header: 'Nr zlecenia', format: 'text' },
    { field: 'day', header: 'Data', format: 'date' },
    { field: 'at', header: 'Data zgłoszenia', format: 'datetime' },
    { field: 'netto', header: 'Netto', format: 'money' },
    { field: 'km', header: 'Przebieg', format: 'km' },
    { field: 'tread', header: 'Bieżnik', format: 'decimal1' },
    { field: 'ok', header: 'Sukces', format: 'boolean' },
    { field: 'role', header: 'Rola', format: 'text', labels: { MANAGER: 'Fleet Manager' } },
    { field: 'flag', header: 'Wina', format: 'tn' },
  ];

  it('writes the headers in order, then one row per record with typed, formatted cells', async () => {
    const builder = createSheetBuilder(columns, texts);
    builder.addRows([
      { nr: 'Z/1', day: '2024-03-05', at: '2024-07-01T10:15:00.000Z', netto: 1234.5, km: 150000, tread: 6.5, ok: true, role: 'MANAGER', flag: 'T' },
    ]);
    builder.addRows([{ nr: 'Z/2', day: '1900-01-01', at: null, netto: '12.3', km: null, tread: 7, ok: false, role: 'SOMEONE', flag: 'N' }]);
    const { sheet, cell } = read(await builder.finish('Zlecenia'));
    expect(XLSX.utils.sheet_to_json(sheet, { header: 1 })[0]).toEqual(columns.map((c) => c.header));
    expect(sheet['!ref']).toBe('A1:I3');
    expect(cell('A2')).toMatchObject({ t: 's', v: 'Z/1' });
    expect(cell('B2')).toMatchObject({ t: 'n', v: excelSerial({ y: 2024, m: 3, d: 5, hh: 0, mm: 0, ss: 0 }), z: NUMBER_FORMATS.date });
    // 10:15 UTC in July is 12:15 in Warsaw (summer time)
    expect(cell('C2')).toMatchObject({ t: 'n', z: NUMBER_FORMATS.datetime, w: '01.07.2024 12:15' });
    expect(cell('D2')).toMatchObject({ t: 'n', v: 1234.5, z: NUMBER_FORMATS.money });
    expect(cell('E2')).toMatchObject({ t: 'n', v: 150000, z: NUMBER_FORMATS.km });
    expect(cell('F2')).toMatchObject({ t: 'n', v: 6.5, z: NUMBER_FORMATS.decimal1 });
    expect(cell('G2')).toMatchObject({ t: 's', v: 'Tak' });
    expect(cell('H2')).toMatchObject({ t: 's', v: 'Fleet Manager' });
    expect(cell('I2')).toMatchObject({ t: 's', v: 'Tak' });
    // the back office's "no date", an empty value: no cell; a numeric text is a number; an unknown code as it is
    expect(cell('B3')).toBeUndefined();
    expect(cell('C3')).toBeUndefined();
    expect(cell('E3')).toBeUndefined();
    expect(cell('D3')).toMatchObject({ t: 'n', v: 12.3 });
    expect(cell('G3')).toMatchObject({ v: 'Nie' });
    expect(cell('H3')).toMatchObject({ v: 'SOMEONE' });
    expect(cell('I3')).toMatchObject({ v: 'Nie' });
  });

  it("formats date cells by the reader's language: 31/12/2024 for an English reader, the slash kept whatever Windows says", async () => {
    expect(numberFormats(texts.units, 'DD/MM/YYYY').date).toBe('dd\\/mm\\/yyyy');
    expect(numberFormats(texts.units, 'DD.MM.YYYY').datetime).toBe('dd\\.mm\\.yyyy hh:mm');
    const builder = createSheetBuilder([{ field: 'at', header: 'A', format: 'datetime' }, { field: 'at', header: 'B', format: 'date' }], { ...texts, datePattern: 'DD/MM/YYYY' });
    builder.addRows([{ at: '2024-12-31T10:30:00Z' }]);
    const { cell } = read(await builder.finish('X'));
    expect(cell('A2')?.w).toBe('31/12/2024 11:30');
    expect(cell('B2')?.w).toBe('31/12/2024');
  });

  it('writes a year as a number without grouping (2020, not 2,020)', async () => {
    const builder = createSheetBuilder([{ field: 'rok', header: 'Rok produkcji', format: 'year' }, { field: 'rok', header: 'Liczba', format: 'number' }], texts);
    builder.addRows([{ rok: 2020 }]);
    const { cell } = read(await builder.finish('X'));
    expect(cell('A2')).toMatchObject({ t: 'n', v: 2020, w: '2020' });
    expect(cell('B2')?.w).toBe('2,020');
  });

  it('shows date-times in Warsaw time in winter too, and a date as a whole day', async () => {
    const builder = createSheetBuilder([{ field: 'at', header: 'A', format: 'datetime' }, { field: 'at', header: 'B', format: 'date' }], texts);
    builder.addRows([{ at: '2024-12-31T23:30:00Z' }]);
    const { cell } = read(await builder.finish('X'));
    expect(cell('A2')?.w).toBe('01.01.2025 00:30');
    expect(cell('B2')).toMatchObject({ v: excelSerial({ y: 2025, m: 1, d: 1, hh: 0, mm: 0, ss: 0 }), w: '01.01.2025' });
  });

  it('puts an autofilter over the data and sizes the columns', async () => {
    const builder = createSheetBuilder([{ field: 'a', header: 'Krótki', format: 'text' }, { field: 'b', header: 'B', format: 'text' }], texts);
    builder.addRows([{ a: 'x'.repeat(30), b: 'y'.repeat(500) }]);
    const { sheet, book } = read(await builder.finish('Zlecenia'));
    expect(sheet['!autofilter']).toEqual({ ref: 'A1:B2' });
    expect(sheet['!cols']?.map((c) => c.wch)).toEqual([32, 60]);
    expect(book.SheetNames).toEqual(['Zlecenia']);
  });

  it('names the sheet within Excel\'s rules', () => {
    expect(sheetName('Faktury: 2024/25 [kopia]', 'Arkusz1')).toBe('Faktury 2024 25 kopia');
    expect(sheetName('Jednostki organizacyjne i inne długie nazwy', 'Arkusz1').length).toBeLessThanOrEqual(31);
    expect(sheetName('///', 'Arkusz1')).toBe('Arkusz1');
  });

  it('counts Excel days as Excel does, including its 29.02.1900', () => {
    expect(excelSerial({ y: 1900, m: 1, d: 1, hh: 0, mm: 0, ss: 0 })).toBe(1);
    expect(excelSerial({ y: 1900, m: 3, d: 1, hh: 0, mm: 0, ss: 0 })).toBe(61);
    expect(excelSerial({ y: 2024, m: 1, d: 1, hh: 12, mm: 0, ss: 0 })).toBe(45292.5);
  });
});
