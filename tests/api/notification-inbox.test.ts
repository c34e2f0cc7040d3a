/**
 * The bell and the settings through the API (issue 25; ACCESS.md "notifications: own list, unread
 * count, mark read, own preferences | self"): the count, the list rendered for its reader with a
 * link to the record, marking one or all read (someone else's is not found), and the settings:
 * defaults per role, saving them, a bad value answered 400 in Polish naming the field, and their
 * effect on what is written. The worker is off here: notifications are written, not mailed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';
import { dateText } from '../../runtime/core/date-text.ts';

describe('the bell and the notification settings', () => {
  let t: TestApp;
  const tokens: Partial<Record<DemoAccount, string>> = {};
  const as = async (who: DemoAccount) => (tokens[who] ??= await t.signIn(who));
  const get = async (who: DemoAccount, url: string) => t.call('GET', url, { token: await as(who) });
  const submit = async (autId: number) => {
    await t.app.db.updateTable('service_order').set({ status: 0, pricingConfirmed: true }).where('autId', '=', autId).execute();
    const res = await t.call('POST', `/api/order/${autId}/transition`, { token: await as('doradca'), body: { to: 1 } });
    expect(res.statusCode).toBe(200);
  };

  /** The day an order was reported, as the portal writes it: an order without a number is named by it. */
  const reported = async (autId: number) =>
    dateText(new Date((await t.app.db.selectFrom('service_order').select('zgloData').where('autId', '=', autId).executeTakeFirstOrThrow()).zgloData), 'Europe/Warsaw', 'DD.MM.YYYY');

  beforeAll(async () => {
    t = await startTestApp();
  }, 120_000);
  afterAll(async () => t?.close());

  it('counts the unread, lists them newest first for their reader, and marks one, then all, read', async () => {
    expect((await get('manager', '/api/notifications/unread-count')).json()).toEqual({ unread: 0 });
    await submit(1);
    await submit(4);
    expect((await get('manager', '/api/notifications/unread-count')).json()).toEqual({ unread: 2 });
    const list = (await get('manager', '/api/notifications')).json();
    expect(list).toMatchObject({ total: 2, unread: 2 });
    // orders 1 and 4 have no number yet: each is named by the day it was reported, never by its id (which only the link holds)
    expect(list.items.map((i: any) => [i.event, i.title, i.text, i.link, i.readAt])).toEqual([
      ['orderAwaitingAcceptance', 'Zlecenie czeka na akceptację', `Zlecenie z ${await reported(4)} – WZ12345 (Škoda Octavia)`, '/app/order?open=4', null],
      ['orderAwaitingAcceptance', 'Zlecenie czeka na akceptację', `Zlecenie z ${await reported(1)} – WZ12345 (Škoda Octavia)`, '/app/order?open=1', null],
    ]);
    // another client's manager has none, and cannot mark this one read
    expect((await get('manager2', '/api/notifications')).json()).toEqual({ total: 0, unread: 0, items: [] });
    const newest = list.items[0].id;
    const foreign = await t.call('POST', `/api/notifications/${newest}/read`, { token: await as('manager2') });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().detail).toBe('Nie znaleziono powiadomienia.');

    const read = await t.call('POST', `/api/notifications/${newest}/read`, { token: await as('manager') });
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: newest, readAt: expect.any(String) });
    expect((await get('manager', '/api/notifications/unread-count')).json()).toEqual({ unread: 1 });
    expect((await get('manager', '/api/notifications?unread=true')).json().items.map((i: any) => i.link)).toEqual(['/app/order?open=1']);
    expect((await t.call('POST', '/api/notifications/read-all', { token: await as('manager') })).json()).toEqual({ updated: 1 });
    expect((await get('manager', '/api/notifications/unread-count')).json()).toEqual({ unread: 0 });
  });

  it('names an order in the reader\'s language: by its number, else by its day (English, Ukrainian)', async () => {
    const day = await reported(1);
    const texts = async () => (await get('manager', '/api/notifications')).json().items.filter((i: any) => i.link === '/app/order?open=1').map((i: any) => i.text);
    try {
      expect((await t.call('PUT', '/api/account/language', { token: await as('manager'), body: { language: 'en' } })).statusCode).toBe(200);
      expect(await texts()).toContain(`Order dated ${day} – WZ12345 (Škoda Octavia)`);
      expect((await t.call('PUT', '/api/account/language', { token: await as('manager'), body: { language: 'uk' } })).statusCode).toBe(200);
      expect(await texts()).toContain(`Замовлення від ${day} – WZ12345 (Škoda Octavia)`);
      // once authorised, the number names it in every language
      await t.app.db.updateTable('service_order').set({ autNr: 'AUT/2026/0000777' }).where('autId', '=', 1).execute();
      expect(await texts()).toContain('Замовлення AUT/2026/0000777 – WZ12345 (Škoda Octavia)');
    } finally {
      await t.app.db.updateTable('service_order').set({ autNr: null }).where('autId', '=', 1).execute();
      await t.call('PUT', '/api/account/language', { token: await as('manager'), body: { language: 'pl' } });
    }
  });

  it('names each recipient in the administrators\' log as the tables name people, surname and first name, beside the login', async () => {
    await submit(1);
    const res = await t.call('POST', '/api/notification/table2', { token: await as('admin'), body: { startRow: 0, endRow: 100, sortModel: [], filterModel: {} } });
    expect(res.statusCode, res.body).toBe(200);
    const rows = res.json().rows as { login: string; odbiorca: string }[];
    expect(rows.length).toBeGreaterThan(0);
    const names = new Map((await t.app.db.selectFrom('app_user').select(['login', 'lastName', 'firstName']).execute()).map((u) => [u.login, `${u.lastName} ${u.firstName}`]));
    for (const row of rows) expect(row.odbiorca, row.login).toBe(names.get(row.login));
    expect(rows.find((r) => r.login === 'manager')?.odbiorca).toBe('Nowak Anna');
  });

  it('answers a bad page request 400 naming the field', async () => {
    const res = await get('manager', '/api/notifications?limit=500');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('limit');
  });

  it('offers each role its events with the defaults of screens/notifications.json, and saves the choice', async () => {
    expect((await get('manager', '/api/notification-settings')).json()).toEqual({
      events: { orderAwaitingAcceptance: true, orderStatusChanged: true, estimateConfirmed: true, damageReported: true, fuelAnomaliesFound: true, inspectionFailed: true },
      digest: true, digestHour: 7,
    });
    expect((await get('doradca', '/api/notification-settings')).json()).toEqual({
      // remindersDue: what is due pushed to his devices (issue 47)
      events: { orderStatusChanged: true, estimateConfirmed: true, remindersDue: true }, digest: false, digestHour: 7,
    });
    const saved = await t.call('PUT', '/api/notification-settings', {
      token: await as('manager'), body: { events: { orderAwaitingAcceptance: false }, digest: false, digestHour: 18 },
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual({
      message: 'Zapisano ustawienia powiadomień.',
      events: { orderAwaitingAcceptance: false, orderStatusChanged: true, estimateConfirmed: true, damageReported: true, fuelAnomaliesFound: true, inspectionFailed: true },
      digest: false, digestHour: 18,
    });
    expect((await get('manager', '/api/notification-settings')).json()).toMatchObject({ digest: false, digestHour: 18 });
  });

  it('refuses an event the role is not offered and an hour outside the day, in Polish, naming the field', async () => {
    const foreign = await t.call('PUT', '/api/notification-settings', {
      token: await as('doradca'), body: { events: { damageReported: true }, digest: false, digestHour: 7 },
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().errors).toEqual([{ field: 'events.damageReported', message: 'To powiadomienie nie jest dostępne dla Twojej roli.' }]);
    const hour = await t.call('PUT', '/api/notification-settings', {
      token: await as('doradca'), body: { events: {}, digest: true, digestHour: 24 },
    });
    expect(hour.statusCode).toBe(400);
    expect(hour.body).toContain('digestHour');
  });

  it('asks the digest\'s hour only while the digest is on: without it the stored hour stays', async () => {
    const off = await t.call('PUT', '/api/notification-settings', { token: await as('doradca'), body: { events: {}, digest: false } });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({ digest: false, digestHour: 7 });
    const on = await t.call('PUT', '/api/notification-settings', { token: await as('doradca'), body: { events: {}, digest: true } });
    expect(on.statusCode).toBe(400);
    expect(on.json().errors.map((e: { field: string }) => e.field)).toEqual(['digestHour']);
  });

  it('writes nothing for an event the recipient switched off', async () => {
    // the manager switched orderAwaitingAcceptance off above; the other manager of the client still gets it
    const before = await t.app.db.selectFrom('notification').select('id').where('entityId', '=', 5).execute();
    expect(before).toEqual([]);
    await t.app.db.updateTable('service_order').set({ status: 0 }).where('autId', '=', 5).execute();
    await submit(5);
    const rows = await t.app.db.selectFrom('notification as n').innerJoin('app_user as u', 'u.id', 'n.userId')
      .select(['u.login', 'n.channel']).where('n.entityId', '=', 5).orderBy('u.login').orderBy('n.channel').execute();
    expect(rows).toEqual([{ login: 'nowy.manager', channel: 'email' }, { login: 'nowy.manager', channel: 'inApp' }]);
  });
});
