import Busboy from '@fastify/busboy';
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { buildMultipart, quoteParameter, signedMultipart, type MultipartPart } from './multipart';

/** What a multipart parser of the kind the server uses reads from the body. */
function parse(body: Uint8Array, contentType: string): Promise<{ fields: Record<string, string>; files: { name: string; filename: string; type: string; content: Buffer }[] }> {
  return new Promise((resolve, reject) => {
    const fields: Record<string, string> = {};
    const files: { name: string; filename: string; type: string; content: Buffer }[] = [];
    const bb = new Busboy({ headers: { 'content-type': contentType }, defParamCharset: 'utf8' } as any);
    bb.on('field', (name: string, value: string) => (fields[name] = value));
    bb.on('file', (name: string, stream: NodeJS.ReadableStream, filename: string, _enc: string, type: string) => {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => files.push({ name, filename, type, content: Buffer.concat(chunks) }));
    });
    bb.on('finish', () => resolve({ fields, files }));
    bb.on('error', reject);
    bb.end(Buffer.from(body));
  });
}

const pdf = new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x0d, 0x0a, 0x00, 0xff, 0x2d, 0x2d]);
const parts: MultipartPart[] = [
  { name: 'id', value: '1' },
  { name: 'group', value: 'SA_POJA' },
  { name: 'tytul', value: 'Umowa najmu' },
  { name: 'opis', value: 'Zażółć gęślą jaźń\r\nz nową linią' },
  { name: 'file', filename: 'Protokół „zdawczy”.pdf', content: pdf, type: 'application/pdf' },
];

describe('a signed multipart body', () => {
  it('carries every field and the file byte for byte, Polish names included', async () => {
    const { body, contentType } = buildMultipart(parts);
    const { fields, files } = await parse(body, contentType);
    expect(fields).toEqual({ id: '1', group: 'SA_POJA', tytul: 'Umowa najmu', opis: 'Zażółć gęślą jaźń\r\nz nową linią' });
    expect(files).toHaveLength(1);
    expect(files[0]).toMatchObject({ name: 'file', filename: 'Protokół „zdawczy”.pdf', type: 'application/pdf' });
    expect([...files[0].content]).toEqual([...pdf]);
  });

  it('is signed over exactly the bytes sent (HMAC-SHA256 keyed by name + nonce, base64)', () => {
    const nonce = '1763790000000.abcd';
    const signed = signedMultipart('portal', parts, { nonce, boundary: '----portalfixed' });
    expect(signed.headers['Content-Type']).toBe('multipart/form-data; boundary=----portalfixed');
    expect(signed.headers['X-Nonce']).toBe(nonce);
    const expected = createHmac('sha256', 'portal' + nonce).update(signed.body).digest('base64');
    expect(signed.headers['X-Signature']).toBe(expected);
    // the same parts under another boundary are other bytes, so another signature
    expect(signedMultipart('portal', parts, { nonce, boundary: '----portalother' }).headers['X-Signature']).not.toBe(expected);
  });

  it('escapes quotes and line breaks in a file name as browsers do, so a name cannot add headers or parts', async () => {
    expect(quoteParameter('a"b\r\nc')).toBe('a%22b%0D%0Ac');
    const { body, contentType } = buildMultipart([{ name: 'file', filename: 'x"\r\nX-Evil: 1\r\n\r\n.pdf', content: pdf }]);
    const { fields, files } = await parse(body, contentType);
    expect(fields).toEqual({});
    expect(files.map((f) => [f.filename, f.type])).toEqual([['x%22%0D%0AX-Evil: 1%0D%0A%0D%0A.pdf', 'application/octet-stream']]);
  });

  it('uses a fresh boundary each time', () => {
    const a = buildMultipart(parts).contentType;
    expect(a).toMatch(/^multipart\/form-data; boundary=----portal[0-9a-f]{24}$/);
    expect(buildMultipart(parts).contentType).not.toBe(a);
  });
});
