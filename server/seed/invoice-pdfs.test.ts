import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { renderPdf } from '../pdf/document.ts';
import { amountInWords, attachmentDocument, invoiceDocument, invoicePositions, type InvoiceFacts } from './invoice-pdfs.ts';

const facts: InvoiceFacts = {
  faktId: 14, faktNrCaly: 'FV/2025/03/000014', faktDataWyst: '2025-03-14', dokument: 'Faktura VAT', korFaktNrCaly: null,
  ogNetto: 12345.67, ogVat: 2839.5, ogBrutto: 15185.17, dataZap: null, klientNazwa: 'Mleczpol S.A.', nip: '6762345678', miejscow: 'Kraków',
};
const fleet = [
  { rejestr: 'KR12345', markaOpis: 'Škoda', modelOpis: 'Octavia' },
  { rejestr: 'KK55555', markaOpis: 'Toyota', modelOpis: 'Corolla' },
  { rejestr: 'KWI1234', markaOpis: 'Kia', modelOpis: 'Ceed' },
];
/** Amounts are grouped with a no-break space, as Polish number formatting does. */
const pln = (text: string) => text.replace(/ /g, '\u00a0');
const cellsOf = (spec: ReturnType<typeof invoiceDocument>) => spec.blocks.flatMap((b) => (b.kind === 'table' ? b.rows.flat() : [b.text]));

describe('demo invoice documents', () => {
  it('splits the net total over the billed vehicles to the grosz, and each position into lease, service and insurance', () => {
    for (let faktId = 1; faktId < 60; faktId++) {
      const positions = invoicePositions({ faktId, ogNetto: 300.01 + faktId * 123.45 }, fleet);
      expect(positions.length).toBeGreaterThanOrEqual(1);
      expect(positions.length).toBeLessThanOrEqual(fleet.length);
      expect(positions.reduce((a, p) => a + p.netCents, 0)).toBe(Math.round((300.01 + faktId * 123.45) * 100));
      for (const p of positions) {
        expect(p.netCents).toBeGreaterThan(0);
        expect(p.leaseCents + p.serviceCents + p.insuranceCents).toBe(p.netCents);
      }
    }
  });

  it('prints the invoice’s number, dates, client, totals and the amount in words, in Polish', () => {
    const cells = cellsOf(invoiceDocument(facts, fleet));
    expect(cells).toContain('Faktura VAT nr FV/2025/03/000014');
    expect(cells).toEqual(expect.arrayContaining(['14.03.2025', '28.03.2025', 'Mleczpol S.A.', 'NIP: 6762345678', pln('12 345,67'), pln('2 839,50'), pln('15 185,17')]));
    expect(cells).toContain('Słownie: piętnaście tysięcy sto osiemdziesiąt pięć złotych 17/100.');
    const correction = cellsOf(invoiceDocument({ ...facts, dokument: 'Faktura korygująca', korFaktNrCaly: 'FV/2025/02/000013' }, fleet));
    expect(correction.some((c) => c.startsWith('Dotyczy faktury nr FV/2025/02/000013'))).toBe(true);
  });

  it('specifies the billed vehicles in the attachment, adding up to the invoice’s net total', () => {
    const cells = cellsOf(attachmentDocument(facts, fleet));
    expect(cells).toContain('Załącznik do faktury nr FV/2025/03/000014');
    expect(cells).toContain(pln('12 345,67'));
    expect(cells.filter((c) => fleet.some((v) => v.rejestr === c)).length).toBeGreaterThan(0);
  });

  it('renders a PDF titled after the invoice', async () => {
    const pdf = await renderPdf(invoiceDocument(facts, fleet));
    expect((await PDFDocument.load(pdf)).getTitle()).toBe('Faktura VAT nr FV/2025/03/000014');
  });

  it('writes amounts in words with the right Polish forms', () => {
    expect(amountInWords(100)).toBe('jeden złoty 00/100');
    expect(amountInWords(200)).toBe('dwa złote 00/100');
    expect(amountInWords(1215)).toBe('dwanaście złotych 15/100');
    expect(amountInWords(2200)).toBe('dwadzieścia dwa złote 00/100');
    expect(amountInWords(100100)).toBe('tysiąc jeden złotych 00/100');
    expect(amountInWords(123456)).toBe('tysiąc dwieście trzydzieści cztery złote 56/100');
    expect(amountInWords(2213400)).toBe('dwadzieścia dwa tysiące sto trzydzieści cztery złote 00/100');
    expect(amountInWords(1800000)).toBe('osiemnaście tysięcy złotych 00/100');
    expect(amountInWords(15)).toBe('zero złotych 15/100');
  });
});
