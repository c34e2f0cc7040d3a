import { describe, expect, it } from 'vitest';
import { csvDocument, csvField } from './csv';

describe('the CSV writer', () => {
  it('separates with ; and ends records with CRLF, after a UTF-8 byte order mark', () => {
    const text = csvDocument(['Użytkownik', 'Data akceptacji'], [['kierowca', '05.03.2024 12:15'], ['admin', '']]);
    expect(text).toBe('\uFEFFUżytkownik;Data akceptacji\r\nkierowca;05.03.2024 12:15\r\nadmin;\r\n');
    expect(new TextEncoder().encode(text).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  it('quotes a field holding the separator, a quote or a line break, doubling quotes (RFC 4180)', () => {
    expect(csvField('Kowalski; Jan')).toBe('"Kowalski; Jan"');
    expect(csvField('Regulamin "A"')).toBe('"Regulamin ""A"""');
    expect(csvField('dwie\nlinie')).toBe('"dwie\nlinie"');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
    expect(csvField('zwykły tekst, z przecinkiem')).toBe('zwykły tekst, z przecinkiem');
    expect(csvDocument(['a'], [['x;y']])).toBe('\uFEFFa\r\n"x;y"\r\n');
  });

  it('keeps a spreadsheet from running a text as a formula, but leaves numbers alone', () => {
    expect(csvField('=HYPERLINK("http://x")')).toBe(`"'=HYPERLINK(""http://x"")"`);
    expect(csvField('+48 600 100 200')).toBe("'+48 600 100 200");
    expect(csvField('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvField('-12,5')).toBe('-12,5');
    expect(csvField('-1\u00a0234,50\u00a0zł')).toBe('-1\u00a0234,50\u00a0zł');
    expect(csvField('-')).toBe("'-");
  });
});
