/**
 * A multipart/form-data body built byte by byte, as the runtime builds its upload, so it can be
 * signed like every POST (spec §7: HMAC over the raw body) and sent through fastify.inject.
 */
import { randomBytes } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import { makeNonce, signBody } from '../../runtime/core/signing.ts';
import type { TestApp } from './test-app.ts';

export type FormPart =
  | { name: string; value: string }
  | { name: string; filename: string; content: Buffer | string; type?: string; /** the raw Content-Disposition filename parameter(s), for odd names */ rawFilename?: string };

export function multipartBody(parts: FormPart[]): { body: Buffer; contentType: string } {
  const boundary = `----portal${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    if ('value' in part) {
      chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n`, 'utf8'), Buffer.from(part.value, 'utf8'));
    } else {
      const filename = part.rawFilename ?? `filename="${part.filename}"`;
      chunks.push(
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; ${filename}\r\nContent-Type: ${part.type ?? 'application/octet-stream'}\r\n\r\n`, 'utf8'),
        typeof part.content === 'string' ? Buffer.from(part.content, 'utf8') : part.content,
      );
    }
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A signed multipart POST (or a wrongly signed one, with `signature`). */
export function postMultipart(t: TestApp, url: string, token: string | undefined, parts: FormPart[], options: { signature?: string; headers?: Record<string, string> } = {}): Promise<LightMyRequestResponse> {
  const { body, contentType } = multipartBody(parts);
  const nonce = makeNonce();
  const headers: Record<string, string> = {
    'content-type': contentType,
    'x-nonce': nonce,
    'x-signature': options.signature ?? signBody(t.preConfigName, nonce, body),
  };
  if (token) headers.authorization = `Bearer ${token}`;
  return t.app.inject({ method: 'POST', url, headers: { ...headers, ...options.headers }, payload: body });
}
