import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signBody } from '../../runtime/core/signing.ts';
import { DEMO, startTestApp, type TestApp } from '../support/test-app.ts';

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
    const rows = await t.app.db.selectFrom('used_nonce').select('nonce').where('nonce', '=', nonce).execute();
    expect(rows).toHaveLength(1); // kept in the database, which every process shares
  });

  it('signs the sign-in call too', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/user/auth', payload: JSON.stringify(DEMO.manager), headers: { 'content-type': 'application/json' } });
    expect(res.statusCode).toBe(400);
  });
});
