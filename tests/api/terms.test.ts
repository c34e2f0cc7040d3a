import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO, startTestApp, type TestApp } from '../support/test-app.ts';

describe('terms of service', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
    // this file is about the terms gate; the first-sign-in password gate has its own tests (session-follows-account)
    await t.app.db.updateTable('app_user').set({ firstLogin: false }).where('login', 'in', ['nowy.kierowca', 'nowy.manager']).execute();
  }, 60_000);
  afterAll(async () => t?.close());

  it('tells a first-time driver that both current documents are still to accept', async () => {
    const token = await t.signIn('nowyKierowca');
    const res = await t.call('GET', '/api/terms/status', { token });
    expect(res.statusCode).toBe(200);
    const status = res.json();
    expect(status.allAccepted).toBe(false);
    expect(status.documents.map((d: any) => [d.name, d.accepted, d.acceptedAt])).toEqual([
      ['Regulamin Portalu Klienta', false, null],
      ['Polityka prywatności', false, null],
    ]);
  });

  it('refuses the data calls of a user who has not accepted, with a clear reason, and leaves the terms and password calls open', async () => {
    const token = await t.signIn('nowyKierowca');
    const car = await t.call('GET', '/api/car/single-car', { token });
    expect(car.statusCode).toBe(403);
    expect(car.json()).toMatchObject({ code: 'TERMS_NOT_ACCEPTED', detail: 'Zaakceptuj regulamin i politykę prywatności, aby korzystać z portalu.' });
    const table = await t.call('POST', '/api/order/table2', { token, body: { startRow: 0, endRow: 30 } });
    expect(table.statusCode).toBe(403);
    expect((await t.call('GET', '/api/terms/status', { token })).statusCode).toBe(200);
    // the password change is open (it answers on the merits, not with the terms refusal)
    const change = await t.call('POST', '/api/password/change-password', { token, body: { currentPassword: 'zle', newPassword: 'x' } });
    expect(change.json().code).not.toBe('TERMS_NOT_ACCEPTED');
  });

  it('serves the next document as a real PDF naming its template, one after the other, then 204', async () => {
    const token = await t.signIn('nowyKierowca');
    const seen: string[] = [];
    for (;;) {
      const next = await t.call('GET', '/api/terms/next', { token });
      if (next.statusCode === 204) break;
      expect(next.statusCode).toBe(200);
      expect(next.headers['content-type']).toBe('application/pdf');
      expect(next.rawPayload.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const templateId = Number(next.headers['x-template-id']);
      seen.push(decodeURIComponent(String(next.headers['x-template-name'])));
      const accepted = await t.call('POST', '/api/terms/accept', { token, body: { templateId } });
      expect(accepted.statusCode).toBe(200);
      expect(accepted.json().documents.find((d: any) => d.templateId === templateId).accepted).toBe(true);
      expect(seen.length).toBeLessThan(5);
    }
    expect(seen).toEqual(['Regulamin Portalu Klienta', 'Polityka prywatności']);
    const status = (await t.call('GET', '/api/terms/status', { token })).json();
    expect(status.allAccepted).toBe(true);
    expect(status.documents.every((d: any) => typeof d.acceptedAt === 'string')).toBe(true);
    // and now the data calls answer
    expect((await t.call('GET', '/api/car/single-car', { token })).statusCode).toBe(200);
  });

  it('asks everyone again when a new version of a document is published, and serves the latest version of a group', async () => {
    const token = await t.signIn('manager');
    expect((await t.call('GET', '/api/car/single-car', { token })).statusCode).not.toBe(403);
    const old = await t.app.db.selectFrom('terms_template').select(['id', 'grupa', 'name', 'pdf']).where('grupa', '=', 'POLITYKA_PRYWATNOSCI').executeTakeFirstOrThrow();
    const v2 = await t.app.db.transaction().execute(async (trx) => {
      await trx.updateTable('terms_template').set({ current: false }).where('id', '=', old.id).execute();
      return trx.insertInto('terms_template').values({ name: old.name, grupa: old.grupa, version: 2, current: true, pdf: old.pdf })
        .returning('id').executeTakeFirstOrThrow();
    });
    const table = await t.call('POST', '/api/car/table2', { token, body: { startRow: 0, endRow: 30 } });
    expect(table.json().code).toBe('TERMS_NOT_ACCEPTED');
    const latest = await t.call('GET', `/api/terms/latest?templateId=${old.id}`, { token });
    expect(latest.statusCode).toBe(200);
    expect(Number(latest.headers['x-template-id'])).toBe(v2.id);
    // accepting the old version does not count
    const stale = await t.call('POST', '/api/terms/accept', { token, body: { templateId: old.id } });
    expect(stale.statusCode).toBe(400);
    expect(stale.json().errors).toEqual([{ field: 'templateId', message: 'Ten dokument nie jest aktualną wersją regulaminu' }]);
    const all = await t.call('POST', '/api/terms/accept-current', { token });
    expect(all.json().allAccepted).toBe(true);
    expect((await t.call('POST', '/api/car/table2', { token, body: { startRow: 0, endRow: 30 } })).statusCode).toBe(200);
  });

  it('does not hold back an administrator or an advisor (spec §4: only USER and MANAGER must accept)', async () => {
    await t.app.db.deleteFrom('terms_acceptance').execute();
    for (const account of ['admin', 'doradca'] as const) {
      const token = await t.signIn(account);
      expect((await t.call('GET', '/api/car/single-car', { token })).statusCode, account).not.toBe(403);
      expect((await t.call('POST', '/api/car/table2', { token, body: { startRow: 0, endRow: 30 } })).statusCode, account).toBe(200);
    }
  });

  it('validates the accept request and refuses calls without a session', async () => {
    const token = await t.signIn('kierowca');
    const bad = await t.call('POST', '/api/terms/accept', { token, body: { templateId: 'pierwszy' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors[0].field).toBe('templateId');
    for (const [method, url] of [['GET', '/api/terms/status'], ['GET', '/api/terms/next'], ['POST', '/api/terms/accept-current'], ['GET', '/api/terms/latest?templateId=1']] as const) {
      expect((await t.call(method, url)).statusCode, url).toBe(401);
      expect((await t.call(method, url, { token: 'x'.repeat(43) })).statusCode, url).toBe(401);
    }
  });

  it('lists the acceptance history for the administrator only, newest first, with the columns of spec §2', async () => {
    const token = await t.signIn('nowyManager');
    await t.call('POST', '/api/terms/accept-current', { token });
    const admin = await t.signIn('admin');
    const res = await t.call('GET', '/api/terms/history?login=nowy.manager', { token: admin });
    expect(res.statusCode).toBe(200);
    const rows = res.json();
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ login: 'nowy.manager', name: 'Ewa', surname: 'Nowicka', client: expect.any(String), group: expect.any(String) });
    expect(new Date(rows[0].acceptedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    for (const account of ['manager', 'kierowca', 'doradca'] as const) {
      const other = await t.signIn(account);
      expect((await t.call('GET', '/api/terms/history', { token: other })).statusCode, account).toBe(403);
    }
    expect((await t.call('GET', '/api/terms/history')).statusCode).toBe(401);
  });
});
