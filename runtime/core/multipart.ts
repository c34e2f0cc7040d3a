/**
 * A multipart/form-data body built byte by byte and signed (spec §7: every POST carries X-Nonce and
 * X-Signature = HMAC over the exact body sent). The browser's own FormData cannot be signed: its
 * bytes (and boundary) are only known once fetch has sent them. So the runtime builds the body
 * itself, signs those bytes and sends them as they are; the server checks the HMAC over the bytes
 * it streams (server/attachments/streamed-signature.ts). No DOM, no Node: plain bytes.
 */
import { makeNonce, signBody } from './signing';

export type MultipartPart =
  | { name: string; value: string }
  | { name: string; filename: string; content: Uint8Array; type?: string };

const encoder = new TextEncoder();

/** A name or file name inside a quoted header parameter, escaped as browsers do (HTML's form-data encoding). */
export function quoteParameter(value: string): string {
  return value.replace(/\r/g, '%0D').replace(/\n/g, '%0A').replace(/"/g, '%22');
}

/** A boundary no part contains (random, 24 hex characters after the prefix). */
export function makeBoundary(): string {
  const random = new Uint8Array(12);
  globalThis.crypto.getRandomValues(random);
  return `----portal${Array.from(random, (b) => b.toString(16).padStart(2, '0')).join('')}`;
}

export function buildMultipart(parts: MultipartPart[], boundary: string = makeBoundary()): { body: Uint8Array; contentType: string } {
  const chunks: Uint8Array[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoteParameter(part.name)}"`;
    if ('filename' in part) head += `; filename="${quoteParameter(part.filename)}"\r\nContent-Type: ${part.type || 'application/octet-stream'}`;
    chunks.push(encoder.encode(`${head}\r\n\r\n`));
    chunks.push('filename' in part ? part.content : encoder.encode(part.value));
    chunks.push(encoder.encode('\r\n'));
  }
  chunks.push(encoder.encode(`--${boundary}--\r\n`));
  const body = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    body.set(c, at);
    at += c.byteLength;
  }
  return { body, contentType: `multipart/form-data; boundary=${boundary}` };
}

/** The body and the headers that go with it: its content type and the signature over exactly these bytes. */
export function signedMultipart(preConfigName: string, parts: MultipartPart[], options: { nonce?: string; boundary?: string } = {}) {
  const { body, contentType } = buildMultipart(parts, options.boundary);
  const nonce = options.nonce ?? makeNonce();
  return { body, headers: { 'Content-Type': contentType, 'X-Nonce': nonce, 'X-Signature': signBody(preConfigName, nonce, body) } };
}
