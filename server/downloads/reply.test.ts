import { describe, expect, it } from 'vitest';
import { contentDisposition } from './reply.ts';

describe('contentDisposition', () => {
  it('keeps Polish letters in filename* and gives old clients a plain fallback', () => {
    expect(contentDisposition('Zlecenia łódź 2026.xlsx')).toBe(
      `attachment; filename="Zlecenia_lodz_2026.xlsx"; filename*=UTF-8''Zlecenia%20%C5%82%C3%B3d%C5%BA%202026.xlsx`,
    );
  });

  it('cannot be broken out of by quotes or separators in the name', () => {
    const header = contentDisposition('a"; filename="evil.exe');
    expect(header.startsWith('attachment; filename="a_filename_evil.exe"; ')).toBe(true);
    expect(header).not.toContain('"evil');
  });

  it('shows a PDF in the window when asked', () => {
    expect(contentDisposition('FV 1.pdf', true)).toMatch(/^inline; /);
  });
});
