/**
 * Web Push (issue 47): the caller's devices (subscribe, list, remove) and their refusals (ACCESS.md
 * "push subscriptions, push test | self": another's device is answered as absent; an endpoint must
 * be https on a public address unless PUSH_ALLOW_HOSTS names its host), a test message and an
 * accepted order delivered to a local push service that decrypts each message (RFC 8291) and
 * checks its VAPID signature (RFC 8292) by itself (tests/support/push-receiver.ts), a device its
 * push service no longer knows (410) dropped, and one message per device however often its job runs.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPushReceiver, type PushReceiver } from '../support/push-receiver.ts';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36';

describe('web push', () => {
  let t: TestApp;
  let receiver: PushReceiver;
  const tok: Partial<Record<DemoAccount, string>> = {};
  const as = async (who: DemoAccount) => (tok[who] ??= await t.signIn(who));
  const subscribe = async (who: DemoAccount, body: unknown) =>
    t.call('POST', '/api/push/subscriptions', { token: await as(who), body, headers: { 'user-agent': ANDROID } });
  const devices = async (who: DemoAccount) => (await t.call('GET', '/api/push/subscriptions', { token: await as(who) })).json() as { id: number; endpoint: string; device: string | null }[];

  beforeAll(async () => {
    receiver = await startPushReceiver();
    t = await startTestApp({ push: { allowHosts: '127.0.0.1' } });
  }, 180_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('answers one VAPID public key (an uncompressed P-256 point, base64url), made once and kept', async () => {
    const first = await t.call('GET', '/api/push/public-key', { token: await as('kierowca') });
    expect(first.statusCode).toBe(200);
    const { publicKey } = first.json();
    const point = Buffer.from(publicKey, 'base64url');
    expect(point.length).toBe(65);
    expect(point[0]).toBe(4);
    expect((await t.call('GET', '/api/push/public-key', { token: await as('manager') })).json().publicKey).toBe(publicKey);
    // kept sealed: the private key is not in the database as text
    const stored = await t.app.db.selectFrom('app_setting').select('value').where('key', '=', 'push.vapid').executeTakeFirstOrThrow();
    expect(stored.value).toEqual({ publicKey, sealedPrivateKey: expect.stringMatching(/^v1:/) });
    expect(JSON.stringify(stored.value)).not.toContain((await t.app.push.keys()).privateKey);
  });

  it('registers a device for its owner, named by its browser; the same browser again stays one device', async () => {
    const phone = receiver.browser('/push/driver-phone');
    const res = await subscribe('kierowca', phone.subscription);
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe('Powiadomienia na tym urządzeniu są włączone.');
    expect(res.json().subscription).toMatchObject({ endpoint: phone.subscription.endpoint, device: 'Chrome · Android', lastSuccessAt: null });
    expect((await subscribe('kierowca', phone.subscription)).statusCode).toBe(200);
    expect((await devices('kierowca')).map((d) => d.endpoint)).toEqual([phone.subscription.endpoint]);
    // a business write: the trail names whose device and which push service, never its keys
    const entry = await t.app.db.selectFrom('audit_entry').select(['action', 'changes']).where('resource', '=', 'push-subscription').orderBy('seq').executeTakeFirstOrThrow();
    expect(entry.action).toBe('create');
    expect(JSON.stringify(entry.changes)).toContain('127.0.0.1');
    expect(JSON.stringify(entry.changes)).not.toContain(phone.subscription.keys.auth);
  });

  it('refuses an endpoint that is not https on a public address (unless its host is allowed), and keys that are not keys: 400 naming the field', async () => {
    const keys = receiver.browser('/push/x').subscription.keys;
    const refused = async (body: unknown, field: string, message: string) => {
      const res = await subscribe('kierowca', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().errors).toEqual([{ field, message }]);
    };
    await refused({ endpoint: 'http://push.example.com/abc', keys }, 'endpoint', 'Adres usługi powiadomień musi zaczynać się od https://.');
    await refused({ endpoint: 'https://10.1.2.3/abc', keys }, 'endpoint', 'Adres usługi powiadomień musi być publicznym adresem w internecie.');
    await refused({ endpoint: 'https://[::1]/abc', keys }, 'endpoint', 'Adres usługi powiadomień musi być publicznym adresem w internecie.');
    await refused({ endpoint: 'https://169.254.169.254/latest', keys }, 'endpoint', 'Adres usługi powiadomień musi być publicznym adresem w internecie.');
    await refused({ endpoint: 'ftp://push.example.com/abc', keys }, 'endpoint', 'Adres usługi powiadomień (endpoint) jest nieprawidłowy.');
    await refused({ endpoint: `${receiver.origin}/push/x`, keys: { ...keys, p256dh: Buffer.alloc(65, 1).toString('base64url') } }, 'keys.p256dh', 'Klucz publiczny przeglądarki (p256dh) jest nieprawidłowy.');
    await refused({ endpoint: `${receiver.origin}/push/x`, keys: { ...keys, auth: 'c2hvcnQ' } }, 'keys.auth', 'Sekret uwierzytelniający przeglądarki (auth) jest nieprawidłowy.');
    // the body's shape: a missing key is a 400 too
    expect((await subscribe('kierowca', { endpoint: `${receiver.origin}/push/x` })).statusCode).toBe(400);
    expect((await devices('kierowca')).map((d) => d.endpoint)).toEqual([`${receiver.origin}/push/driver-phone`]);
  });

  it('answers in the caller\'s language', async () => {
    const token = await as('manager2');
    expect((await t.call('PUT', '/api/account/language', { token, body: { language: 'en' } })).statusCode).toBe(200);
    const res = await subscribe('manager2', { endpoint: 'http://push.example.com/abc', keys: receiver.browser('/push/y').subscription.keys });
    expect(res.json().errors).toEqual([{ field: 'endpoint', message: 'The notification service address must start with https://.' }]);
  });

  it('keeps each person to his own devices: another\'s is absent (404), never listed, never removed or sent to', async () => {
    const laptop = receiver.browser('/push/manager-laptop');
    const mine = (await subscribe('manager', laptop.subscription)).json().subscription.id as number;
    expect((await devices('kierowca')).some((d) => d.id === mine)).toBe(false);
    const removal = await t.call('DELETE', `/api/push/subscriptions/${mine}`, { token: await as('kierowca') });
    expect(removal.statusCode).toBe(404);
    expect(removal.json().detail).toBe('Nie znaleziono tego urządzenia.');
    expect((await t.call('POST', '/api/push/test', { token: await as('kierowca'), body: { id: mine } })).statusCode).toBe(404);
    expect((await devices('manager')).map((d) => d.id)).toEqual([mine]);
    expect(receiver.received.filter((r) => r.path === '/push/manager-laptop')).toEqual([]);
    // his own: removed
    expect((await t.call('DELETE', `/api/push/subscriptions/${mine}`, { token: await as('manager') })).statusCode).toBe(200);
    expect(await devices('manager')).toEqual([]);
    expect((await t.call('POST', '/api/push/test', { token: await as('manager'), body: {} })).statusCode).toBe(409);
  });

  it('sends a test message the receiver decrypts (RFC 8291) under a VAPID signature it verifies (RFC 8292)', async () => {
    const before = receiver.received.length;
    const res = await t.call('POST', '/api/push/test', { token: await as('kierowca'), body: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ message: 'Wysłano powiadomienie testowe na 1 urządzenie.', sent: 1, gone: 0, failed: 0 });
    expect(receiver.problems).toEqual([]);
    const [message] = receiver.received.slice(before);
    expect(message.path).toBe('/push/driver-phone');
    expect(message.payload).toEqual({ title: 'Powiadomienie testowe', body: 'Tak będą wyglądać powiadomienia z portalu na tym urządzeniu.', url: '/app/account/notifications', tag: 'push-test' });
    expect(message.vapidKey).toBe((await t.call('GET', '/api/push/public-key', { token: await as('kierowca') })).json().publicKey);
    expect(message.jwt.aud).toBe(receiver.origin);
    expect(message.jwt.sub).toMatch(/^(mailto:|https:)/);
    expect(Number(message.headers.ttl)).toBeGreaterThan(0);
    const [device] = await devices('kierowca');
    expect((device as unknown as { lastSuccessAt: string | null }).lastSuccessAt).not.toBeNull();
  });

  it('drops a device its push service no longer knows (410), and says so', async () => {
    const old = receiver.browser('/push/old-tablet');
    const id = (await subscribe('doradca', old.subscription)).json().subscription.id as number;
    receiver.answer.set('/push/old-tablet', 410);
    const res = await t.call('POST', '/api/push/test', { token: await as('doradca'), body: {} });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ sent: 0, gone: 1, failed: 0, devices: [{ id, outcome: 'gone' }] });
    expect(res.json().message).toContain('1 urządzenie nie jest już zarejestrowane w usłudze powiadomień, więc je usunięto.');
    expect(await devices('doradca')).toEqual([]);
  });

  it('pushes what is due on the driver\'s vehicle to his device, once, opening his vehicle\'s page; nothing new, nothing pushed', async () => {
    const rows = () => t.app.db.selectFrom('notification as n').innerJoin('app_user as u', 'u.id', 'n.userId')
      .select(['n.id', 'u.login', 'n.state']).where('n.channel', '=', 'push').where('n.event', '=', 'remindersDue').orderBy('n.id').execute();
    await t.app.digest.run({ now: true });
    // the driver has a device; the advisor removed his, the managers receive no such push
    const first = await rows();
    expect(first.map((r) => [r.login, r.state])).toEqual([['kierowca', 'queued']]);
    const before = receiver.received.length;
    expect(await t.app.notifications.deliverPush(Number(first[0].id))).toBe('sent');
    const [message] = receiver.received.slice(before);
    expect(message.payload.title).toMatch(/^Do zrobienia: [1-9]\d*$/);
    expect(message.payload.body).toMatch(/WZ12345/);
    expect(message.payload.url).toBe('/app/dane-pojazdu');
    // run again: nothing new or worse since, nothing pushed
    await t.app.digest.run({ now: true });
    expect((await rows()).length).toBe(1);
  });

  it('an accepted order reaches the driver\'s device once, in his language, opening his vehicle\'s panel on the order, however often its job runs', async () => {
    const pushRows = () => t.app.db.selectFrom('notification').select(['id', 'userId', 'state', 'lastError', 'pushSubscriptionId'])
      .where('channel', '=', 'push').where('event', '=', 'orderStatusChanged').execute();
    // the station confirms the estimate and submits the order; the fleet manager accepts it
    expect((await t.call('GET', '/api/order/confirm-pricing/1', { token: await as('doradca') })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/order/1/transition', { token: await as('doradca'), body: { to: 1 } })).statusCode).toBe(200);
    expect((await t.call('POST', '/api/order/1/transition', { token: await as('manager'), body: { to: 2 } })).statusCode).toBe(200);
    const rows = await pushRows();
    const driver = await t.app.db.selectFrom('app_user').select('id').where('login', '=', 'kierowca').executeTakeFirstOrThrow();
    // one row per device of a recipient with a device: the driver's phone (the station's advisor removed his)
    expect(rows.map((r) => [r.userId, r.state])).toEqual([[driver.id, 'queued']]);
    const before = receiver.received.length;
    // the job run twice at once, and once more after: one message
    const outcomes = await Promise.all([t.app.notifications.deliverPush(Number(rows[0].id)), t.app.notifications.deliverPush(Number(rows[0].id))]);
    expect(outcomes.sort()).toEqual(['nothing', 'sent']);
    expect(await t.app.notifications.deliverPush(Number(rows[0].id))).toBe('nothing');
    const arrived = receiver.received.slice(before);
    expect(arrived).toHaveLength(1);
    expect(receiver.problems).toEqual([]);
    const name = (await sql<{ n: string }>`select coalesce("zlecNr", '') as n from service_order where "autId" = 1`.execute(t.app.db)).rows[0].n;
    expect(arrived[0].payload).toMatchObject({
      title: expect.stringMatching(/^Zlecenie .+: Zaakceptowano przez Fleet Managera$/),
      body: 'WZ12345 (Škoda Octavia) – Zaakceptowano przez Fleet Managera',
      url: '/app/dane-pojazdu?open=1', lang: 'pl', tag: 'orderStatusChanged:order:1',
    });
    if (name) expect(arrived[0].payload.title).toContain(name);
    expect((await pushRows())[0].state).toBe('sent');

    // in his own language: English once he chose it; the order authorised, then finished (closed)
    expect((await t.call('PUT', '/api/account/language', { token: await as('kierowca'), body: { language: 'en' } })).statusCode).toBe(200);
    for (const to of [4, 6]) {
      expect((await t.call('POST', '/api/order/1/transition', { token: await as('admin'), body: { to } })).statusCode).toBe(200);
      const queued = (await pushRows()).filter((r) => r.state === 'queued');
      expect(queued).toHaveLength(1);
      expect(await t.app.notifications.deliverPush(Number(queued[0].id))).toBe('sent');
    }
    const english = receiver.received.slice(-2).map((r) => r.payload);
    expect(english.map((p) => p.lang)).toEqual(['en', 'en']);
    expect(english.map((p) => p.title)).toEqual([expect.stringMatching(/^Order .+: /), expect.stringMatching(/^Order .+: /)]);
    expect(english[1].title).not.toBe(english[0].title);
  });
});
