import { describe, expect, it } from 'vitest';
import { acceptOf, extensionOf, fileLimitsOf, fileProblem, multipartParts } from './file-checks';

const decl = { extensionsFrom: 'attachmentExtensions', maxSizeKbFrom: 'attachmentMaxSizeKb', wrongExtension: 'a:wrong', tooLarge: 'a:large' };
const config = { attachmentExtensions: ['pdf', 'JPG', '.png'], attachmentMaxSizeKb: 10240 };

describe('the file field', () => {
  it('reads its limits from the configuration: extensions, and the size in KB shown in MB', () => {
    expect(fileLimitsOf(decl, config)).toEqual({ extensions: ['pdf', 'jpg', 'png'], maxBytes: 10240 * 1024, mb: 10 });
    expect(fileLimitsOf(decl, { ...config, attachmentMaxSizeKb: 1500 }).mb).toBe(1.46);
    expect(acceptOf(fileLimitsOf(decl, config))).toBe('.pdf,.jpg,.png');
  });

  it('refuses a wrong extension naming the allowed ones, and a file over the limit naming it in MB', () => {
    const limits = fileLimitsOf(decl, config);
    expect(fileProblem({ name: 'umowa.PDF', size: 1000 }, limits, decl)).toBeNull();
    expect(fileProblem({ name: 'skrypt.exe', size: 10 }, limits, decl)).toEqual({ key: 'a:wrong', vars: { extensions: 'pdf, jpg, png' } });
    expect(fileProblem({ name: 'bez-rozszerzenia', size: 10 }, limits, decl)?.key).toBe('a:wrong');
    expect(fileProblem({ name: 'zdjecie.jpg', size: 10240 * 1024 }, limits, decl)).toBeNull();
    expect(fileProblem({ name: 'zdjecie.jpg', size: 10240 * 1024 + 1 }, limits, decl)).toEqual({ key: 'a:large', vars: { mb: 10 } });
    expect(extensionOf('.bashrc')).toBe('');
  });

  it('sends the values as text parts and the chosen file as a file part', async () => {
    const file = new File([new Uint8Array([37, 80, 68, 70])], 'Protokół.pdf', { type: 'application/pdf' });
    const parts = await multipartParts({ id: 7, group: 'SA_POJA', tytul: 'T', file: 'Protokół.pdf', empty: undefined }, new Set(['file']), new Map([['file', file]]));
    expect(parts.slice(0, 3)).toEqual([{ name: 'id', value: '7' }, { name: 'group', value: 'SA_POJA' }, { name: 'tytul', value: 'T' }]);
    expect(parts[3]).toMatchObject({ name: 'file', filename: 'Protokół.pdf', type: 'application/pdf' });
    expect([...(parts[3] as { content: Uint8Array }).content]).toEqual([37, 80, 68, 70]);
    // a file field left empty sends no file
    expect(await multipartParts({ tytul: 'T' }, new Set(['file']), new Map([['file', file]]))).toEqual([{ name: 'tytul', value: 'T' }]);
  });
});
