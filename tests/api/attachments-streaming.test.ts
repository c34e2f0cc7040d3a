/**
 * An oversized upload over a real socket (issue 13: "a too-large upload is cut off and refused
 * without being held in memory whole"): the server answers 400 as soon as the file crosses the
 * configured limit, while the client is still sending, and closes the connection instead of
 * reading the rest.
 */
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeNonce } from '../../runtime/core/signing.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

describe('an oversized upload over a socket', () => {
  let t: TestApp;
  let token: string;
  let port: number;
  let carId: number;

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.signIn('manager');
    carId = (await t.app.db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow()).pojazdId;
    (t.app.config.bundle.config as { attachmentMaxSizeKb: number }).attachmentMaxSizeKb = 256;
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  }, 120_000);
  afterAll(async () => t?.close());

  it('is refused while it streams: the answer comes long before the client has sent its 64 MB, and nothing is stored', async () => {
    const boundary = '----portalstream';
    const head = Buffer.from(
      [`id`, String(carId), `group`, 'SA_POJA', `tytul`, 'Duży', `opis`, 'Za duży plik']
        .reduce<string[]>((acc, v, i, all) => (i % 2 ? acc : [...acc, `--${boundary}\r\nContent-Disposition: form-data; name="${v}"\r\n\r\n${all[i + 1]}\r\n`]), [])
        .join('') + `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="duzy.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4\n`,
    );
    const total = 64 * 1024 * 1024;
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    const before = (await t.app.db.selectFrom('attachment').select('zalaczId').execute()).length;
    let sent = 0;
    const answer = await new Promise<{ status: number; body: string; sentWhenAnswered: number }>((resolve, reject) => {
      const nonce = makeNonce();
      const req = request({
        host: '127.0.0.1', port, method: 'POST', path: '/api/attachment/upload',
        // the signature cannot be right for a body not yet sent; the size refusal comes first
        headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'x-nonce': nonce, 'x-signature': 'AAAA', 'content-length': String(head.length + total) },
      });
      req.on('response', (res) => {
        const sentWhenAnswered = sent;
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode!, body, sentWhenAnswered }));
      });
      req.on('error', (e) => (sent > 0 ? undefined : reject(e)));
      req.write(head);
      const pump = () => {
        while (sent < total) {
          sent += chunk.length;
          if (!req.write(chunk)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({ code: 'ATTACHMENT_TOO_LARGE', errors: [{ field: 'file', message: 'Plik jest za duży. Maksymalny rozmiar pliku to 0.25 MB' }] });
    expect(answer.sentWhenAnswered).toBeLessThan(total);
    expect((await t.app.db.selectFrom('attachment').select('zalaczId').execute()).length).toBe(before);
  });
});
