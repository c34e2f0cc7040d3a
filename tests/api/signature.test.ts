import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../runtime/core/signing.ts';
import { buildApp } from '../../server/app.ts';
import { openTestDatabase } from '../../server/seed/testing.ts';
import { DEMO, ROOT, startTestApp, type TestApp } from '../support/test-app.ts';

describe('signed writes', () => {
  let t: TestApp;
  let token: string;
  const body = JSON.stringify({ startRow: 0, endRow: 30 });
  const post = (headers: Record<string, string>, payload = body) =>
    t.app.inject({ method: 'POST', url: '/api/car/table2', payload, headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers } });

  beforeAll(async () => {
    t = await startTestApp();
    token = await t.signIn('manager');
  }, 60_000);
  afterAll(async () => t?.close());

  it('accepts a correctly signed write', async () => {
    const nonce = `${Date.now()}.0a1b`;
    const res = await post({ 'x-nonce': nonce, 'x-signature': signBody(t.preConfigName, nonce, body) });
    expect(res.statusCode).toBe(200);
  });

  it('refuses an unsigned write', async () => {
    const res = await post({});
    expect(res.statusCode).toBe(400);
    expect(res.json().detail).toMatch(/Brak podpisu żądania/);
  });

  it('refuses a write signed with the wrong key or over another body', async () => {
    const nonce = `${Date.now()}.0a2b`;
    const wrongKey = await post({ 'x-nonce': nonce, 'x-signature': signBody('inna-nazwa', nonce, body) });
    expect(wrongKey.statusCode).toBe(400);
    expect(wrongKey.json().code).toBe('SIGNATURE_MISMATCH');
    const nonce2 = `${Date.now()}.0a3b`;
    const tampered = await post({ 'x-nonce': nonce2, 'x-signature': signBody(t.preConfigName, nonce2, body) }, JSON.stringify({ startRow: 0, endRow: 60 }));
    expect(tampered.json().code).toBe('SIGNATURE_MISMATCH');
  });

  it('refuses a stale nonce, more than 5 minutes from the server clock', async () => {
    const nonce = `${Date.now() - 6 * 60 * 1000}`;
    const res = await post({ 'x-nonce': nonce, 'x-signature': signBody(t.preConfigName, nonce, body) });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('SIGNATURE_STALE');
  });

  it('refuses a replayed nonce, even through another server process on the same database', async () => {
    const nonce = `${Date.now()}.0a4b`;
    const headers = { 'x-nonce': nonce, 'x-signature': signBody(t.preConfigName, nonce, body) };
    expect((await post(headers)).statusCode).toBe(200);
    const replay = await post(headers);
    expect(replay.statusCode).toBe(400);
    expect(replay.json()).toMatchObject({ code: 'SIGNATURE_REPLAYED', detail: 'Ten podpis żądania został już użyty' });
    // a table block records its nonce beside its read: the rows it read are not sent
    expect(replay.json().rows).toBeUndefined();
    const rows = await t.app.db.selectFrom('used_nonce').select('nonce').where('nonce', '=', nonce).execute();
    expect(rows).toHaveLength(1); // kept in the database, which every process shares
  });

  it('refuses a replayed write before it writes: the note is added once', async () => {
    const db = t.app.db;
    const car = await db.selectFrom('car').select('pojazdId').where('rejestr', '=', 'WZ12345').executeTakeFirstOrThrow();
    const order = (await db.selectFrom('service_order').select('autId').where('pojazdId', '=', car.pojazdId).orderBy('autId').executeTakeFirstOrThrow()).autId;
    const note = JSON.stringify({ zrodlo: 'AUTORY', zrodloId: order, tresc: 'Notatka wysłana dwa razy' });
    const nonce = `${Date.now()}.0a5b`;
    const send = () => t.app.inject({
      method: 'POST', url: '/api/note', payload: note,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'x-nonce': nonce, 'x-signature': signBody(t.preConfigName, nonce, note) },
    });
    expect((await send()).statusCode).toBe(200);
    const replay = await send();
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('SIGNATURE_REPLAYED');
    const notes = await db.selectFrom('note').select('id').where('tresc', '=', 'Notatka wysłana dwa razy').execute();
    expect(notes).toHaveLength(1);
  });

  it('refuses a replayed read sent twice at once: one answer has the rows, the other is refused', async () => {
    const nonce = `${Date.now()}.0a6b`;
    const headers = { 'x-nonce': nonce, 'x-signature': signBody(t.preConfigName, nonce, body) };
    const answers = await Promise.all([post(headers), post(headers)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400]);
    const refused = answers.find((a) => a.statusCode === 400)!;
    expect(refused.json()).toMatchObject({ code: 'SIGNATURE_REPLAYED' });
    expect(refused.json().rows).toBeUndefined();
  });

  it('signs the sign-in call too', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/auth', payload: JSON.stringify(DEMO.manager), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
  });

  /** A write with any content type, signed by the caller over `signed` (the bytes it claims to send). */
  const raw = (url: string, contentType: string, payload: Buffer | string, signed: Buffer | string) => {
    const nonce = `${Date.now()}.${Math.random().toString(16).slice(2, 10)}`;
    return t.app.inject({
      method: 'POST', url, payload,
      headers: { 'content-type': contentType, authorization: `Bearer ${token}`, 'x-nonce': nonce, 'x-signature': signBody(t.preConfigName, nonce, signed) },
    });
  };

  it('checks the signature over the bytes received whatever the content type: a text/plain body signed over nothing is refused', async () => {
    // POST /api/terms/accept-current takes no body, so only the signature can refuse this
    const res = await raw('/api/terms/accept-current', 'text/plain', 'smuggled', '');
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('SIGNATURE_MISMATCH');
  });

  it('refuses a multipart or form body signed over nothing, and refuses a correctly signed body of a type the route does not take (415)', async () => {
    const multipart = '--b\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--b--\r\n';
    for (const [type, body] of [['multipart/form-data; boundary=b', multipart], ['application/x-www-form-urlencoded', 'a=1'], ['application/octet-stream', Buffer.from([0, 1, 2, 255])]] as const) {
      const unsigned = await raw('/api/terms/accept-current', type, body, '');
      expect(unsigned.statusCode, type).toBe(400);
      expect(unsigned.json().code, type).toBe('SIGNATURE_MISMATCH');
      const signed = await raw('/api/terms/accept-current', type, body, Buffer.isBuffer(body) ? body : Buffer.from(body));
      expect(signed.statusCode, type).toBe(415);
      expect(signed.json().code, type).toBe('UNSUPPORTED_MEDIA_TYPE');
    }
  });

  it('signs JSON as its UTF-8 bytes, so Polish letters verify and a re-encoded body does not', async () => {
    const text = JSON.stringify({ name: 'Zażółć', tablename: 'ORDER_TABLE', columnorder: ['autNr'] });
    const ok = await raw('/api/user-table-view', 'application/json', Buffer.from(text, 'utf8'), Buffer.from(text, 'utf8'));
    expect(ok.statusCode, ok.body).toBe(200);
    const latin1 = Buffer.from(text.replace('Zażółć', 'Zazolc'), 'latin1');
    const reencoded = await raw('/api/user-table-view', 'application/json', latin1, Buffer.from(text, 'utf8'));
    expect(reencoded.json().code).toBe('SIGNATURE_MISMATCH');
  });
});

describe('a signed route and a body it cannot verify', () => {
  it('refuses a body that a parser other than the raw-bytes ones consumed (as a multipart plugin would)', async () => {
    const database = await openTestDatabase({ seed: false });
    const version = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version;
    const app = await buildApp({ db: database.db, root: ROOT, version });
    try {
      // a parser that hands over the body without keeping its bytes
      app.addContentTypeParser('application/x-streamed', (_request, payload, done) => {
        payload.resume();
        payload.on('end', () => done(null, { streamed: true }));
      });
      app.post('/api/test-streamed', {
        config: { access: 'public', bodyTypes: ['application/x-streamed'], operation: { resource: 'init', action: 'testStreamed', summary: 'A route of this test' } },
      }, async () => ({ accepted: true }));
      await app.ready();
      const nonce = `${Date.now()}.0c1d`;
      const res = await app.inject({
        method: 'POST', url: '/api/test-streamed', payload: 'anything',
        headers: { 'content-type': 'application/x-streamed', 'x-nonce': nonce, 'x-signature': signBody(app.config.bundle.app.name, nonce, '') },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('SIGNATURE_UNVERIFIABLE');
    } finally {
      await app.close();
      await database.close();
    }
  }, 120_000);
});
