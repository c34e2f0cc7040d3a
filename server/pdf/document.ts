/**
 * Real, readable PDF documents with Polish text (terms of service, privacy policy, invoices):
 * pdf-lib with DejaVu Sans embedded (the built-in PDF fonts have no Polish letters). A document is
 * a list of blocks; text wraps to the page width and flows onto new A4 pages.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

const require = createRequire(import.meta.url);
const fontFile = (name: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));

let fonts: { regular: Buffer; bold: Buffer } | null = null;
const fontBytes = () => (fonts ??= { regular: fontFile('DejaVuSans.ttf'), bold: fontFile('DejaVuSans-Bold.ttf') });

export type PdfBlock =
  | { kind: 'title'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  /** Rows of cells; the first row is the header. Widths are fractions of the text width. */
  | { kind: 'table'; widths: number[]; rows: string[][]; alignRight?: number[] };

export interface PdfDocumentSpec {
  title: string;
  author?: string;
  blocks: PdfBlock[];
  /** Small text at the bottom of every page, e.g. the document's version. */
  footer?: string;
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const WIDTH = A4[0] - 2 * MARGIN;

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (line && font.widthOfTextAtSize(candidate, size) > width) {
        lines.push(line);
        line = word;
      } else line = candidate;
    }
    lines.push(line);
  }
  return lines;
}

export async function renderPdf(spec: PdfDocumentSpec): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  // subsetting keeps each file small (tens of kB instead of the whole font)
  const regular = await doc.embedFont(fontBytes().regular, { subset: true });
  const bold = await doc.embedFont(fontBytes().bold, { subset: true });
  doc.setTitle(spec.title);
  if (spec.author) doc.setAuthor(spec.author);
  doc.setLanguage('pl-PL');
  // fixed dates keep the seed deterministic
  doc.setCreationDate(new Date(Date.UTC(2026, 0, 1)));
  doc.setModificationDate(new Date(Date.UTC(2026, 0, 1)));

  let page: PDFPage = doc.addPage(A4);
  let y = A4[1] - MARGIN;
  const ensure = (height: number) => {
    if (y - height < MARGIN + 20) {
      page = doc.addPage(A4);
      y = A4[1] - MARGIN;
    }
  };
  const write = (text: string, font: PDFFont, size: number, gapAfter: number, x = MARGIN, width = WIDTH) => {
    for (const line of wrap(text, font, size, width)) {
      ensure(size * 1.4);
      page.drawText(line, { x, y: y - size, size, font, color: rgb(0.1, 0.1, 0.12) });
      y -= size * 1.4;
    }
    y -= gapAfter;
  };

  for (const block of spec.blocks) {
    if (block.kind === 'title') write(block.text, bold, 18, 10);
    else if (block.kind === 'heading') write(block.text, bold, 12, 4);
    else if (block.kind === 'paragraph') write(block.text, regular, 10, 6);
    else {
      const size = 9;
      for (const [r, row] of block.rows.entries()) {
        ensure(size * 2);
        let x = MARGIN;
        for (const [c, cell] of row.entries()) {
          const width = block.widths[c] * WIDTH;
          const font = r === 0 ? bold : regular;
          const text = wrap(cell, font, size, width - 4)[0] ?? '';
          const right = r > 0 && block.alignRight?.includes(c);
          const tx = right ? x + width - 4 - font.widthOfTextAtSize(text, size) : x;
          page.drawText(text, { x: tx, y: y - size, size, font });
          x += width;
        }
        y -= size * 1.8;
        if (r === 0) page.drawLine({ start: { x: MARGIN, y: y + 4 }, end: { x: MARGIN + WIDTH, y: y + 4 }, thickness: 0.5 });
      }
      y -= 6;
    }
  }

  if (spec.footer) {
    const pages = doc.getPages();
    pages.forEach((p, i) => {
      const text = `${spec.footer} — ${i + 1}/${pages.length}`;
      p.drawText(text, { x: MARGIN, y: MARGIN / 2, size: 8, font: regular, color: rgb(0.4, 0.4, 0.45) });
    });
  }
  return Buffer.from(await doc.save());
}
