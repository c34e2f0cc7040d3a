/**
 * Real, readable PDF documents with Polish text (terms of service, privacy policy, invoices):
 * pdf-lib with DejaVu Sans embedded (the built-in PDF fonts have no Polish letters). A document is
 * a list of blocks; text wraps to the page width and flows onto new A4 pages.
 */
import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import type fontkitModule from '@pdf-lib/fontkit';
import type { PDFFont, PDFPage, RGB } from 'pdf-lib';
import { lazyModule } from '../lazy-module.ts';
import { DEFAULT_LOCALE } from '../config/locale.ts';

const require = createRequire(import.meta.url);
const fontFile = (name: string) => readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${name}`));

let fonts: { regular: Buffer; bold: Buffer } | null = null;
const fontBytes = () => (fonts ??= { regular: fontFile('DejaVuSans.ttf'), bold: fontFile('DejaVuSans-Bold.ttf') });

/**
 * Rendering dozens of documents in a row (the seed's invoices) spent its time in two places that
 * do not depend on the document: parsing the font file (pdf-lib parses it again for every
 * document) and OpenType shaping of the same strings (labels, headers, words) again and again.
 * The parsed font is read-only for pdf-lib (each document makes its own subset of it), and a
 * shaped run is only read (glyph ids and advances), so both are kept: one parse per font file, and
 * a bounded memo of shaped runs per font.
 */
type ParsedFont = ReturnType<typeof fontkitModule.create>;
const parsedFonts = new Map<Uint8Array, ParsedFont>();
const LAYOUT_MEMO_LIMIT = 20_000;

function memoiseLayout(font: ParsedFont): ParsedFont {
  const layout = font.layout.bind(font);
  const memo = new Map<string, ReturnType<ParsedFont['layout']>>();
  font.layout = ((text: string, features?: unknown) => {
    const key = features === undefined ? text : `${JSON.stringify(features)}\u0000${text}`;
    let run = memo.get(key);
    if (!run) {
      if (memo.size >= LAYOUT_MEMO_LIMIT) memo.clear();
      memo.set(key, (run = layout(text, features as Parameters<ParsedFont['layout']>[1])));
    }
    return run;
  }) as ParsedFont['layout'];
  return font;
}

const cachingFontkit = (fontkit: typeof fontkitModule) => ({
  create(buffer: Uint8Array, postscriptName?: string) {
    if (postscriptName !== undefined) return fontkit.create(buffer, postscriptName);
    let font = parsedFonts.get(buffer);
    if (!font) parsedFonts.set(buffer, (font = memoiseLayout(fontkit.create(buffer))));
    return font;
  },
});

export type PdfBlock =
  | { kind: 'title'; text: string }
  | { kind: 'heading'; text: string }
  | { kind: 'paragraph'; text: string }
  /** Rows of cells; the first row is the header. Widths are fractions of the text width; a long cell wraps. */
  | { kind: 'table'; widths: number[]; rows: string[][]; alignRight?: number[]; totalsLast?: boolean };

export interface PdfDocumentSpec {
  title: string;
  author?: string;
  blocks: PdfBlock[];
  /** Small text at the bottom of every page, e.g. the document's version. */
  footer?: string;
  /** A logo (PNG or JPEG, config/branding.ts) at the head of the first page. */
  logo?: { content: Buffer; contentType: 'image/png' | 'image/jpeg'; width: number; height: number };
  /** A colour (#rgb or #rrggbb) for the title and the tables' header rule: the variant's primary colour. */
  accent?: string;
}

/** The logo's height at the head of the first page, in points (its width follows its proportions, within the text width). */
const LOGO_HEIGHT = 36;
/** pdf-lib and fontkit, loaded for the first document (server/lazy-module.ts), with the caching fontkit above. */
const pdfModules = lazyModule(async () => {
  const [pdfLib, fontkit] = await Promise.all([import('pdf-lib'), import('@pdf-lib/fontkit')]);
  return { pdfLib, fontkit: cachingFontkit(fontkit.default) };
});

/** '#1e6b3a' or '#1e6' as pdf-lib's colour. */
function colourOf(rgb: (red: number, green: number, blue: number) => RGB, hex: string | undefined) {
  if (!hex) return undefined;
  const full = hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex;
  const n = Number.parseInt(full.slice(1), 16);
  return Number.isNaN(n) || full.length !== 7 ? undefined : rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

const A4: [number, number] = [595.28, 841.89];
const MARGIN = 56;
const WIDTH = A4[0] - 2 * MARGIN;

/**
 * Greedy line breaking. A line's width is the sum of its words' widths and the spaces between
 * them (kerning across a space is negligible), so each word is measured once instead of measuring
 * every growing line again.
 */
function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const space = font.widthOfTextAtSize(' ', size);
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    let line = '';
    let lineWidth = 0;
    for (const word of paragraph.split(/\s+/).filter(Boolean)) {
      const wordWidth = font.widthOfTextAtSize(word, size);
      if (line && lineWidth + space + wordWidth > width) {
        lines.push(line);
        line = word;
        lineWidth = wordWidth;
      } else if (line) {
        line = `${line} ${word}`;
        lineWidth += space + wordWidth;
      } else {
        line = word;
        lineWidth = wordWidth;
      }
    }
    lines.push(line);
  }
  return lines;
}

export async function renderPdf(spec: PdfDocumentSpec): Promise<Buffer> {
  const { pdfLib: { PDFDocument, rgb }, fontkit } = await pdfModules();
  const INK = rgb(0.1, 0.1, 0.12);
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  // subsetting keeps each file small (tens of kB instead of the whole font)
  const regular = await doc.embedFont(fontBytes().regular, { subset: true });
  const bold = await doc.embedFont(fontBytes().bold, { subset: true });
  doc.setTitle(spec.title);
  if (spec.author) doc.setAuthor(spec.author);
  doc.setLanguage(DEFAULT_LOCALE);
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
  const accent = colourOf(rgb, spec.accent);
  if (spec.logo && spec.logo.height > 0) {
    const image = spec.logo.contentType === 'image/png' ? await doc.embedPng(spec.logo.content) : await doc.embedJpg(spec.logo.content);
    const width = Math.min(WIDTH, (spec.logo.width / spec.logo.height) * LOGO_HEIGHT);
    const height = (width / spec.logo.width) * spec.logo.height;
    page.drawImage(image, { x: MARGIN, y: y - height, width, height });
    y -= height + 14;
  }
  const write = (text: string, font: PDFFont, size: number, gapAfter: number, color = INK, x = MARGIN, width = WIDTH) => {
    for (const line of wrap(text, font, size, width)) {
      ensure(size * 1.4);
      page.drawText(line, { x, y: y - size, size, font, color });
      y -= size * 1.4;
    }
    y -= gapAfter;
  };

  for (const block of spec.blocks) {
    if (block.kind === 'title') write(block.text, bold, 18, 10, accent ?? INK);
    else if (block.kind === 'heading') write(block.text, bold, 12, 4);
    else if (block.kind === 'paragraph') write(block.text, regular, 10, 6);
    else {
      const size = 9;
      const lineHeight = size * 1.3;
      for (const [r, row] of block.rows.entries()) {
        // the header, and a totals row (a report's "Razem"), in bold
        const font = r === 0 || (block.totalsLast && r === block.rows.length - 1) ? bold : regular;
        // a long cell (an invoice position's description) wraps within its column; the row grows
        const cells = row.map((cell, c) => wrap(cell, font, size, block.widths[c] * WIDTH - 4));
        const lines = Math.max(1, ...cells.map((l) => l.length));
        ensure(size * 2 + (lines - 1) * lineHeight);
        let x = MARGIN;
        for (const [c, cellLines] of cells.entries()) {
          const width = block.widths[c] * WIDTH;
          // numbers and their headers line up on the right
          const right = block.alignRight?.includes(c);
          for (const [k, text] of cellLines.entries()) {
            const tx = right ? x + width - 4 - font.widthOfTextAtSize(text, size) : x;
            page.drawText(text, { x: tx, y: y - size - k * lineHeight, size, font });
          }
          x += width;
        }
        y -= size * 1.8 + (lines - 1) * lineHeight;
        if (r === 0) page.drawLine({ start: { x: MARGIN, y: y + 4 }, end: { x: MARGIN + WIDTH, y: y + 4 }, thickness: accent ? 1.2 : 0.5, ...(accent ? { color: accent } : {}) });
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
