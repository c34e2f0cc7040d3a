/**
 * Webhooks (issue 35) through the API, the real job queue and a real HTTP receiver: each event
 * reaches the endpoints subscribed to it and no other, signed so that the published
 * `standardwebhooks` package verifies it; an endpoint of client A never gets client B's event; a
 * receiver down then up gets each message once per id with increasing attempts; 410 disables the
 * endpoint and tells the administrators, and so do days of failures; Retry-After lengthens a wait;
 * a redirect is not followed; an address resolving to
 * 127.0.0.1 is refused unless allowed; an order's events arrive in the order they happened; a
 * refused transition emits nothing; a message left by a dead process is delivered; the log,
 * resend, recover and rotation. Runs on PGlite, and on PostgreSQL with DATABASE_URL.
 */
import { sql } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timeZoneOf } from '../../server/config/locale.ts';
import { isPublicAddress } from '../../server/webhooks/address.ts';
import { deliverySettings, webhooksFile } from '../../server/webhooks/events.ts';
import { eventually } from '../support/eventually.ts';
import { startReceiver, type Receiver } from '../support/webhook-receiver.ts';
import { startTestApp, type DemoAccount, type TestApp } from '../support/test-app.ts';

describe('webhooks: endpoints, signed deliveries, retries and the log', () => {
  let t: TestApp;
  let receiver: Receiver;
  const tokens: Partial<Record<DemoAccount, string>> = {};
  const as = async (who: DemoAccount) => (tokens[who] ??= await t.signIn(who));
  const admin = async (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) =>
    t.call(method, url, { token: await as('admin'), body });

  async function addEndpoint(path: string, events: string[], clients: string[] | null = null) {
    const answer = await admin('POST', '/api/webhooks/endpoints', { url: receiver.url(path), events, clients });
    expect(answer.statusCode, answer.body).toBe(200);
    return answer.json() as { endpoint: { id: number }; secret: string };
  }
  const messagesOf = async (endpointId: number) =>
    (await admin('GET', `/api/webhooks/endpoints/${endpointId}/messages`)).json().rows as { id: number; eventId: string; event: string; state: string; attempts: number }[];
  /** Waits until no message is pending or being sent (the queue has done what it can now). */
  async function settled() {
    await eventually(async () => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from webhook_message where state = 'sending' or (state = 'pending' and "nextAttemptAt" <= now())`.execute(t.app.db);
      return rows[0].n === 0;
    }, { what: 'no webhook message is due or being sent' });
  }
  const transition = async (autId: number, to: number, who: DemoAccount = 'admin') =>
    t.call('POST', `/api/order/${autId}/transition`, { token: await as(who), body: { to } });

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await startTestApp({
      notifications: { worker: true, pollingIntervalSeconds: 0.5 },
      webhooks: { allowHosts: '127.0.0.1', pollingIntervalSeconds: 0.5, delivery: { scheduleSeconds: [1, 1, 5] } },
    });
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('an endpoint is an administrator\'s: its secret is shown once, http only to allowed hosts, others are refused', async () => {
    const created = await addEndpoint('/setup', ['order.created']);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const read = await admin('GET', `/api/webhooks/endpoints/${created.endpoint.id}`);
    expect(read.statusCode).toBe(200);
    expect(read.body).not.toContain(created.secret);
    // stored encrypted, never in clear
    const stored = await t.app.db.selectFrom('webhook_endpoint').select('secret').where('id', '=', created.endpoint.id).executeTakeFirstOrThrow();
    expect(stored.secret).not.toContain(created.secret.slice(6));

    const plain = await admin('POST', '/api/webhooks/endpoints', { url: 'http://example.com/hook', events: ['order.created'] });
    expect(plain.statusCode).toBe(400);
    // the operator's variable is the operator's business: the administrator is told what to do (issue 49)
    expect(plain.json().errors).toEqual([{ field: 'url', message: 'Adres http:// nie jest dozwolony dla tego serwera. Użyj adresu https://' }]);
    expect(plain.json().detail).toBe('Adres http:// nie jest dozwolony dla tego serwera. Użyj adresu https://');
    const none = await admin('POST', '/api/webhooks/endpoints', { url: 'https://example.com/hook', events: [] });
    expect(none.statusCode).toBe(400);
    expect(none.body).toContain('Zaznacz co najmniej jedno zdarzenie');
    expect(none.body).not.toContain('minItems');
    const unknown = await admin('POST', '/api/webhooks/endpoints', { url: 'https://example.com/hook', events: ['order.exploded'] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors[0].field).toBe('events.0');
    const manager = await t.call('GET', '/api/webhooks/endpoints', { token: await as('manager') });
    expect(manager.statusCode).toBe(403);
    expect((await admin('DELETE', `/api/webhooks/endpoints/${created.endpoint.id}`)).statusCode).toBe(200);
    expect((await admin('GET', `/api/webhooks/endpoints/${created.endpoint.id}`)).statusCode).toBe(404);
  });

  it('a test event waited for says what became of it: delivered with the status, refused, or failed with the reason in words (issue 49)', async () => {
    const ok = await addEndpoint('/told', ['order.created']);
    const delivered = await admin('POST', `/api/webhooks/endpoints/${ok.endpoint.id}/test`, { wait: true });
    expect(delivered.statusCode, delivered.body).toBe(200);
    expect(delivered.json()).toMatchObject({ outcome: 'delivered', message: 'Zdarzenie testowe dostarczone: odbiorca odpowiedział 200.' });
    receiver.answer('/refusing', [{ status: 500 }]);
    const refusing = await addEndpoint('/refusing', ['order.created']);
    const refused = (await admin('POST', `/api/webhooks/endpoints/${refusing.endpoint.id}/test`, { wait: true })).json();
    expect(refused).toMatchObject({ outcome: 'refused', message: expect.stringContaining('odbiorca odpowiedział 500') });
    // a name no DNS knows: ENOTFOUND in the log, words on the screen
    const nowhere = (await admin('POST', '/api/webhooks/endpoints', { url: 'https://nie-ma-takiego-serwera.invalid/hook', events: ['order.created'] })).json();
    const failed = (await admin('POST', `/api/webhooks/endpoints/${nowhere.endpoint.id}/test`, { wait: true })).json();
    // (a machine without a resolver says EAI_AGAIN: the words differ, the promise is the same)
    expect(failed).toMatchObject({ outcome: 'failed', message: expect.stringMatching(/^Nie udało się wysłać zdarzenia testowego: (nie znaleziono serwera o tej nazwie|nie udało się ustalić adresu serwera \(DNS\))$/) });
    const [logged] = await messagesOf(nowhere.endpoint.id);
    expect(JSON.stringify(logged)).toMatch(/ENOTFOUND|EAI_AGAIN/);
    // not waited for: only that it is queued
    const queued = (await admin('POST', `/api/webhooks/endpoints/${ok.endpoint.id}/test`)).json();
    expect(queued).toMatchObject({ outcome: 'pending' });
    await settled();
    for (const e of [ok, refusing, nowhere]) await admin('DELETE', `/api/webhooks/endpoints/${e.endpoint.id}`);
  });

  it('the table names the clients as people know them, by name, and every client as none (the screen says "wszyscy") (issue 49)', async () => {
    const some = await addEndpoint('/named', ['order.created'], ['KL002', 'KL001']);
    const all = await addEndpoint('/all', ['order.created']);
    const rows = (await admin('POST', '/api/webhook-endpoint/table', { startRow: 0, endRow: 100 })).json();
    const list = (rows.rows ?? rows) as { id: number; clientsText: string | null }[];
    const names = await t.app.db.selectFrom('client').select(['klient', 'klientNazwa']).where('klient', 'in', ['KL001', 'KL002']).execute();
    const expected = names.map((c) => `${c.klientNazwa} (${c.klient})`).sort().join(', ');
    expect(list.find((r) => r.id === some.endpoint.id)?.clientsText).toBe(expected);
    expect(list.find((r) => r.id === all.endpoint.id)?.clientsText).toBeNull();
    const clients = (await admin('GET', '/api/webhooks/clients')).json() as { klient: string; klientNazwa: string }[];
    expect(clients.map((c) => c.klientNazwa)).toEqual([...clients.map((c) => c.klientNazwa)].sort((x, y) => x.localeCompare(y, 'pl')));
    for (const e of [some, all]) await admin('DELETE', `/api/webhooks/endpoints/${e.endpoint.id}`);
  });

  it('each event reaches the endpoints subscribed to it, of its client, signed; no other endpoint hears of it', async () => {
    const kl001 = await addEndpoint('/kl001', ['order.status_changed'], ['KL001']);
    const kl002 = await addEndpoint('/kl002', ['order.status_changed'], ['KL002']);
    const damages = await addEndpoint('/damages', ['damage.reported']);

    expect((await transition(6, 4)).statusCode).toBe(200); // KL001's order 6: authorised
    expect((await transition(10, 5)).statusCode).toBe(200); // KL002's order 10: authorised partly
    const [first] = await receiver.waitFor('/kl001', 1);
    const [second] = await receiver.waitFor('/kl002', 1);
    await settled();
    expect(receiver.at('/kl001')).toHaveLength(1);
    expect(receiver.at('/kl002')).toHaveLength(1);
    expect(receiver.at('/damages')).toHaveLength(0);

    // the published package verifies the signature with the secret shown at creation
    const verified = new Webhook(kl001.secret).verify(first.body, first.headers as Record<string, string>) as any;
    expect(verified.type).toBe('order.status_changed');
    expect(verified.data).toMatchObject({ from: 2, to: 4, transition: 'authorise', order: { autId: 6, status: 4, klientSymbol: 'KL001' } });
    expect(() => new Webhook(kl002.secret).verify(first.body, first.headers as Record<string, string>)).toThrow();
    expect(second.json.data).toMatchObject({ from: 3, to: 5, order: { autId: 10, klientSymbol: 'KL002' } });
    expect(first.headers['webhook-id']).toMatch(/^msg_/);
    for (const id of [kl001, kl002, damages]) await admin('DELETE', `/api/webhooks/endpoints/${id.endpoint.id}`);
  });

  it('a refused transition emits nothing', async () => {
    const endpoint = await addEndpoint('/refused', ['order.status_changed']);
    // order 3 is closed: no transition leads out of it
    expect((await transition(3, 4)).statusCode).toBe(409);
    expect(await messagesOf(endpoint.endpoint.id)).toEqual([]);
    await admin('DELETE', `/api/webhooks/endpoints/${endpoint.endpoint.id}`);
  });

  it('a receiver down then up gets the message once it is up, with the same id on every attempt, attempts counted in the log', async () => {
    receiver.answer('/flaky', [{ status: 503, body: 'down' }, { status: 500, body: 'still down' }, { status: 204 }]);
    const endpoint = await addEndpoint('/flaky', ['order.status_changed']);
    expect((await transition(5, 2, 'manager')).statusCode).toBe(200);
    const calls = await receiver.waitFor('/flaky', 3);
    await settled();
    expect(new Set(calls.map((c) => c.headers['webhook-id'])).size).toBe(1);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(900); // the schedule's delay, not at once
    const [message] = await messagesOf(endpoint.endpoint.id);
    expect(message).toMatchObject({ state: 'delivered', attempts: 3 });
    const detail = (await admin('GET', `/api/webhooks/messages/${message.id}`)).json();
    expect(detail.attempts.map((a: { status: number }) => a.status)).toEqual([503, 500, 204]);
    expect(detail.attempts[0].response).toBe('down');
    expect(receiver.at('/flaky')).toHaveLength(3);
    await admin('DELETE', `/api/webhooks/endpoints/${endpoint.endpoint.id}`);
  });

  it('410 disables the endpoint at once and the administrators are told', async () => {
    receiver.answer('/gone', [{ status: 410 }]);
    const endpoint = await addEndpoint('/gone', ['order.status_changed']);
    expect((await admin('POST', `/api/webhooks/endpoints/${endpoint.endpoint.id}/test`)).statusCode).toBe(200);
    await receiver.waitFor('/gone', 1);
    await settled();
    const read = (await admin('GET', `/api/webhooks/endpoints/${endpoint.endpoint.id}`)).json();
    expect(read).toMatchObject({ enabled: false, disabledReason: 'GONE' });
    const told = await t.app.db.selectFrom('notification').select(['channel', 'payload']).where('event', '=', 'webhookDisabled').execute();
    expect(told.length).toBeGreaterThan(0);
    expect(told[0].payload).toMatchObject({ url: receiver.url('/gone') });
    // nothing more is sent to it
    expect((await transition(6, 6)).statusCode).toBe(200);
    expect(await messagesOf(endpoint.endpoint.id)).toHaveLength(1);
  });

  it('Retry-After lengthens the wait (up to the schedule\'s longest); an endpoint failing for days is disabled', async () => {
    receiver.answer('/busy', [{ status: 503, headers: { 'retry-after': '3' } }, { status: 200 }]);
    const busy = await addEndpoint('/busy', ['order.created']);
    await admin('POST', `/api/webhooks/endpoints/${busy.endpoint.id}/test`);
    const calls = await receiver.waitFor('/busy', 2);
    expect(calls[1].at - calls[0].at).toBeGreaterThanOrEqual(2_900);
    await admin('DELETE', `/api/webhooks/endpoints/${busy.endpoint.id}`);

    // every attempt failing since 6 days (disableAfterDays 5): the next failure disables it
    receiver.answer('/failing', [{ status: 500 }]);
    const failing = await addEndpoint('/failing', ['order.created']);
    await sql`update webhook_endpoint set "failingSince" = now() - interval '6 days' where id = ${failing.endpoint.id}`.execute(t.app.db);
    await admin('POST', `/api/webhooks/endpoints/${failing.endpoint.id}/test`);
    await receiver.waitFor('/failing', 1);
    await settled();
    expect((await admin('GET', `/api/webhooks/endpoints/${failing.endpoint.id}`)).json()).toMatchObject({ enabled: false, disabledReason: 'FAILING' });
    // enabled again by hand: its failures are forgotten
    const enabled = await admin('PUT', `/api/webhooks/endpoints/${failing.endpoint.id}`, { url: receiver.url('/failing'), events: ['order.created'], enabled: true });
    expect(enabled.json().endpoint).toMatchObject({ enabled: true, disabledReason: null });
    await admin('DELETE', `/api/webhooks/endpoints/${failing.endpoint.id}`);
  });

  it('a redirect is not followed; an address resolving to 127.0.0.1 is refused unless allowed', async () => {
    receiver.answer('/moved', [{ status: 302, headers: { location: receiver.url('/target') } }]);
    const moved = await addEndpoint('/moved', ['order.created']);
    const local = (await admin('POST', '/api/webhooks/endpoints', { url: receiver.url('/local').replace('127.0.0.1', 'localhost').replace('http:', 'https:'), events: ['order.created'] })).json();
    await admin('POST', `/api/webhooks/endpoints/${moved.endpoint.id}/test`);
    await admin('POST', `/api/webhooks/endpoints/${local.endpoint.id}/test`);
    await receiver.waitFor('/moved', 1);
    await settled();
    expect(receiver.at('/target')).toHaveLength(0);
    const [redirected] = await messagesOf(moved.endpoint.id);
    expect(redirected).toMatchObject({ lastStatus: 302 });
    const [refused] = await messagesOf(local.endpoint.id);
    const detail = (await admin('GET', `/api/webhooks/messages/${refused.id}`)).json();
    expect(detail.attempts[0]).toMatchObject({ status: null, error: expect.stringMatching(/^ADDRESS_NOT_ALLOWED: localhost resolves to (127\.0\.0\.1|::1)/) });
    expect(receiver.at('/local')).toHaveLength(0);
    for (const address of ['127.0.0.1', '10.1.2.3', '192.168.0.1', '169.254.169.254', '::1', 'fd00::1', '::ffff:127.0.0.1', '100.64.0.1', '0.0.0.0']) {
      expect(isPublicAddress(address), address).toBe(false);
    }
    expect(isPublicAddress('8.8.8.8')).toBe(true);
    for (const id of [moved.endpoint.id, local.endpoint.id]) await admin('DELETE', `/api/webhooks/endpoints/${id}`);
  });

  it('an order\'s events arrive in the order they happened, while a failing one holds back only its own record', async () => {
    receiver.answer('/ordered', [{ status: 500 }, { status: 200 }]);
    const endpoint = await addEndpoint('/ordered', ['order.status_changed', 'damage.reported']);
    // order 2 (status 4): closed, then (ADMIN) nothing more; order 9 stays; use order 10 (5) → closed too
    expect((await transition(2, 6)).statusCode).toBe(200);
    expect((await transition(10, 6)).statusCode).toBe(200);
    const calls = await receiver.waitFor('/ordered', 3);
    await settled();
    const seen = calls.map((c) => `${c.json.data.order.autId}:${c.json.data.to}`);
    // the first attempt failed (the two records are sent at once, so either may come first); the
    // other record went on meanwhile; the failed one was retried after it
    const [failed, other, retried] = seen;
    expect([failed, other].sort()).toEqual(['10:6', '2:6']);
    expect(retried).toBe(failed);
    await admin('DELETE', `/api/webhooks/endpoints/${endpoint.endpoint.id}`);

    // one record: three moves in a row reach the receiver in that order, the first one failing twice
    receiver.answer('/lane', [{ status: 503 }, { status: 503 }, { status: 200 }]);
    const lane = await addEndpoint('/lane', ['order.status_changed']);
    const [{ autId }] = (await sql<{ autId: number }>`select "autId" from service_order where status = 1 and not "czySzkoda" order by "autId" limit 1`.execute(t.app.db)).rows;
    expect((await transition(autId, 2)).statusCode).toBe(200);
    expect((await transition(autId, 4)).statusCode).toBe(200);
    expect((await transition(autId, 6)).statusCode).toBe(200);
    const laneCalls = await receiver.waitFor('/lane', 5);
    await settled();
    expect(laneCalls.map((c) => c.json.data.to)).toEqual([2, 2, 2, 4, 6]);
    await admin('DELETE', `/api/webhooks/endpoints/${lane.endpoint.id}`);
  });

  it('a message a dead process left half-sent is delivered again, with its id', async () => {
    const endpoint = await addEndpoint('/crash', ['order.status_changed']);
    const { id } = (await admin('POST', `/api/webhooks/endpoints/${endpoint.endpoint.id}/test`)).json();
    await receiver.waitFor('/crash', 1);
    await settled();
    // as a process killed after claiming it would leave it: sending, claimed long ago, its job gone
    await sql`update webhook_message set state = 'sending', "claimedAt" = now() - interval '1 hour' where id = ${id}`.execute(t.app.db);
    expect(await t.app.webhooks.sweep()).toBe(1);
    const calls = await receiver.waitFor('/crash', 2);
    await settled();
    expect(calls[1].headers['webhook-id']).toBe(calls[0].headers['webhook-id']);
    expect((await messagesOf(endpoint.endpoint.id))[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    await admin('DELETE', `/api/webhooks/endpoints/${endpoint.endpoint.id}`);
  });

  it('a message whose two jobs run together is sent once: one claims it, the other finds nothing', async () => {
    const endpoint = await addEndpoint('/twice', ['order.status_changed']);
    const { id } = (await admin('POST', `/api/webhooks/endpoints/${endpoint.endpoint.id}/test`)).json();
    await receiver.waitFor('/twice', 1);
    await settled();
    // due again, as a retry is; two jobs of it fetched in one go call the delivery in the same turn
    await sql`update webhook_message set state = 'pending', "nextAttemptAt" = now() where id = ${id}`.execute(t.app.db);
    const outcomes = await Promise.all([t.app.webhooks.deliver(id), t.app.webhooks.deliver(id)]);
    expect(outcomes.sort()).toEqual(['delivered', 'nothing']);
    await settled();
    expect(receiver.at('/twice')).toHaveLength(2);
    expect((await messagesOf(endpoint.endpoint.id))[0]).toMatchObject({ state: 'delivered', attempts: 2 });
    await admin('DELETE', `/api/webhooks/endpoints/${endpoint.endpoint.id}`);
  });

  it('sends at most the configured number of requests at once to one endpoint; the others wait their turn and all arrive', async () => {
    const endpoint = await addEndpoint('/busy', ['order.created']);
    const perEndpoint = deliverySettings(webhooksFile(t.app.config.bundle)).concurrencyPerEndpoint;
    const sent: string[] = [];
    receiver.hold();
    try {
      for (let i = 0; i < perEndpoint + 3; i++) {
        const test = await admin('POST', `/api/webhooks/endpoints/${endpoint.endpoint.id}/test`);
        expect(test.statusCode).toBe(200);
        sent.push(test.json().eventId);
      }
      await eventually(() => receiver.held() >= perEndpoint, { what: `${perEndpoint} requests held at the receiver` });
      // the worker polls every half second: two more polls find the other messages waiting for a turn, not sent
      await new Promise((r) => setTimeout(r, 1200));
      expect(receiver.held()).toBe(perEndpoint);
    } finally {
      receiver.release();
    }
    // every test event arrives (an order created by another test may arrive beside them: the endpoint hears order.created)
    await eventually(() => sent.every((id) => receiver.at('/busy').some((c) => c.headers['webhook-id'] === id)), { what: 'every test event at the receiver' });
    await settled();
    await admin('DELETE', `/api/webhooks/endpoints/${endpoint.endpoint.id}`);
  });

  it('the log: a test event, resend with the same id, recover since a time; rotation signs with both secrets', async () => {
    const endpoint = await addEndpoint('/log', ['order.created']);
    const test = await admin('POST', `/api/webhooks/endpoints/${endpoint.endpoint.id}/test`);
    expect(test.statusCode).toBe(200);
    const [delivered] = await receiver.waitFor('/log', 1);
    expect(new Webhook(endpoint.secret).verify(delivered.body, delivered.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
    await settled();
    const [logged] = await messagesOf(endpoint.endpoint.id);
    expect(logged).toMatchObject({ event: 'webhook.test', state: 'delivered', attempts: 1, eventId: test.json().eventId });

    const rotated = (await admin('POST', `/api/webhooks/endpoints/${endpoint.endpoint.id}/rotate-secret`)).json();
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect((await admin('POST', `/api/webhooks/messages/${logged.id}/resend`)).statusCode).toBe(200);
    const [, again] = await receiver.waitFor('/log', 2);
    expect(again.headers['webhook-id']).toBe(delivered.headers['webhook-id']);
    expect(String(again.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [endpoint.secret, rotated.secret]) {
      expect(new Webhook(secret).verify(again.body, again.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
    }
    await settled();

    // failed messages since a time are sent again; older ones are not
    receiver.answer('/log', [{ status: 500 }]);
    await admin('POST', `/api/webhooks/endpoints/${endpoint.endpoint.id}/test`);
    await settled();
    await sql`update webhook_message set state = 'failed' where "endpointId" = ${endpoint.endpoint.id} and state = 'pending'`.execute(t.app.db);
    receiver.answer('/log', [{ status: 200 }]);
    const before = receiver.at('/log').length;
    const recovered = await admin('POST', `/api/webhooks/endpoints/${endpoint.endpoint.id}/recover`, { since: new Date(Date.now() - 60_000).toISOString() });
    expect(recovered.json()).toMatchObject({ count: 1 });
    await receiver.waitFor('/log', before + 1);
    await settled();
    expect((await messagesOf(endpoint.endpoint.id)).map((m) => m.state)).toEqual(['delivered', 'delivered']);
  });

  it('an integration key with the webhooks scope manages only endpoints of its own clients, which never get another client\'s event', async () => {
    const account = await admin('POST', '/api/integration-accounts', { name: 'System KL001', allClients: false, clients: ['KL001'], scopes: ['webhooks'] });
    expect(account.statusCode, account.body).toBe(201);
    const { key } = (await admin('POST', `/api/integration-accounts/${account.json().id}/keys`, {})).json();
    // a key's call is unsigned, its bearer the key
    const withKey = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) => t.app.inject({
      method, url, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    const administrators = await addEndpoint('/admins', ['order.status_changed']);
    expect((await withKey('POST', '/api/webhooks/endpoints', { url: receiver.url('/key'), events: ['order.status_changed'] })).json().errors[0].field).toBe('clients');
    expect((await withKey('POST', '/api/webhooks/endpoints', { url: receiver.url('/key'), events: ['order.status_changed'], clients: ['KL002'] })).json().errors[0].field).toBe('clients.0');
    const own = await withKey('POST', '/api/webhooks/endpoints', { url: receiver.url('/key'), events: ['order.status_changed'], clients: ['KL001'] });
    expect(own.statusCode, own.body).toBe(200);
    const listed = (await withKey('GET', '/api/webhooks/endpoints')).json();
    expect(listed.rows.map((r: { id: number }) => r.id)).toEqual([own.json().endpoint.id]);
    expect((await withKey('GET', `/api/webhooks/endpoints/${administrators.endpoint.id}`)).statusCode).toBe(404);
    expect((await withKey('GET', '/api/webhooks/clients')).json().map((c: { klient: string }) => c.klient)).toEqual(['KL001']);

    // KL002's order moves: the key's endpoint hears nothing, the administrators' hears it
    const [{ autId }] = (await sql<{ autId: number }>`select "autId" from service_order where status in (2, 3) and "klientSymbol" = 'KL002' and not "czySzkoda" order by "autId" limit 1`.execute(t.app.db)).rows;
    expect((await transition(autId, 5)).statusCode).toBe(200);
    await receiver.waitFor('/admins', 1);
    await settled();
    expect(receiver.at('/key')).toHaveLength(0);
    await admin('DELETE', `/api/webhooks/endpoints/${administrators.endpoint.id}`);
  });

  it('recover since takes the screen\'s wall-clock time, in the portal\'s time zone, and refuses a time the calendar has not', async () => {
    const endpoint = await addEndpoint('/recover-local', ['order.created']);
    const id = endpoint.endpoint.id;
    const bad = await admin('POST', `/api/webhooks/endpoints/${id}/recover`, { since: '2026-02-30T09:00' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual([{ field: 'since', message: 'Podaj datę i godzinę w formacie DD.MM.RRRR GG:MM.' }]);
    expect((await admin('POST', `/api/webhooks/endpoints/${id}/recover`, { since: 'wczoraj' })).statusCode).toBe(400);
    await t.app.db.insertInto('webhook_message').values({
      eventId: 'msg_recover_local', endpointId: id, event: 'order.created', lane: 'order:recover-local', state: 'failed', lastError: 'HTTP 500',
      payload: JSON.stringify({ type: 'order.created', timestamp: new Date().toISOString(), data: { order: { autId: 0 } } }),
    }).execute();
    // what the Webhooki screen sends: DD.MM.RRRR GG:MM of the portal's zone, without an offset
    const wallClock = (at: Date) => new Intl.DateTimeFormat('sv-SE', {
      timeZone: timeZoneOf(t.app.config.bundle.config), year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit',
    }).format(at).replace(' ', 'T');
    const later = await admin('POST', `/api/webhooks/endpoints/${id}/recover`, { since: wallClock(new Date(Date.now() + 3_600_000)) });
    expect(later.json()).toMatchObject({ count: 0 });
    const earlier = await admin('POST', `/api/webhooks/endpoints/${id}/recover`, { since: wallClock(new Date(Date.now() - 3_600_000)) });
    expect(earlier.json()).toMatchObject({ count: 1, message: 'Ponownie wysłano wiadomości: 1.' });
    await receiver.waitFor('/recover-local', 1);
    await settled();
    await admin('DELETE', `/api/webhooks/endpoints/${id}`);
  });

  it('import.finished reaches an endpoint subscribed to it when a run ends, succeeded or failed; another client\'s endpoint never hears of it', async () => {
    const account = await admin('POST', '/api/integration-accounts', { name: 'Import KL001', allClients: false, clients: ['KL001'], scopes: ['import:car'] });
    expect(account.statusCode, account.body).toBe(201);
    const { key } = (await admin('POST', `/api/integration-accounts/${account.json().id}/keys`, {})).json();
    const all = await addEndpoint('/imports-all', ['import.finished']);
    const kl001 = await addEndpoint('/imports-kl001', ['import.finished'], ['KL001']);
    const kl002 = await addEndpoint('/imports-kl002', ['import.finished'], ['KL002']);
    const orders = await addEndpoint('/imports-orders', ['order.created']);
    const vin = `WHIMPORT${Date.now().toString().slice(-9)}`;
    const importAsKey = (lines: object[], fileName: string) => t.app.inject({
      method: 'POST', url: `/api/import/runs?declaration=car&mode=import&onError=allOrNothing&missing=keep&fileName=${fileName}`,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/x-ndjson' },
      payload: lines.map((l) => JSON.stringify(l)).join('\n'),
    });
    const created = await importAsKey([{ nrPodw: vin, klient: 'KL001', rejestr: 'WH 1001', marka: 'Škoda' }], 'flota.jsonl');
    expect(created.statusCode, created.body).toBe(202);
    const [succeeded] = await receiver.waitFor('/imports-kl001', 1);
    expect(succeeded.json).toMatchObject({
      type: 'import.finished',
      data: {
        importRun: { id: created.json().id, declaration: 'car', fileName: 'flota.jsonl', mode: 'import', state: 'succeeded', counts: { new: 1, errors: 0 }, createdBy: { name: expect.any(String) } },
        clients: ['KL001'], integrationKeyId: expect.any(Number),
      },
    });
    expect(new Webhook(kl001.secret).verify(succeeded.body, succeeded.headers as Record<string, string>)).toBeTruthy();
    // a run of rows in error ends failed, and says so too
    const bad = await importAsKey([{ nrPodw: `${vin}X`, klient: 'KL001', rejestr: '', marka: 'Fiat', rokProd: 'dawno' }], 'zle.jsonl');
    expect(bad.statusCode, bad.body).toBe(202);
    const [, failed] = await receiver.waitFor('/imports-kl001', 2);
    expect(failed.json.data.importRun).toMatchObject({ id: bad.json().id, state: 'failed', counts: { new: 0 } });
    expect(failed.json.data.importRun.counts.errors).toBeGreaterThan(0);
    expect(failed.json.data.importRun.errors.length).toBeGreaterThan(0);
    await receiver.waitFor('/imports-all', 2);
    await settled();
    expect(receiver.at('/imports-kl002')).toHaveLength(0);
    expect(receiver.at('/imports-orders')).toHaveLength(0);
    expect(receiver.at('/imports-all').map((c) => c.json.data.importRun.id)).toEqual([created.json().id, bad.json().id]);
    for (const e of [all, kl001, kl002, orders]) await admin('DELETE', `/api/webhooks/endpoints/${e.endpoint.id}`);
  });

  it('the OpenAPI document publishes every declared event with its payload schema', async () => {
    const doc = (await t.call('GET', '/api/docs/json')).json();
    expect(Object.keys(doc.webhooks)).toEqual(expect.arrayContaining(['order.created', 'order.status_changed', 'damage.reported', 'reading.added', 'webhook.test']));
    const body = doc.webhooks['order.status_changed'].post.requestBody.content['application/json'].schema;
    expect(body.properties.data.properties.order).toEqual({ $ref: '#/components/schemas/order' });
    expect(body.properties.data.required).toEqual(['order', 'from', 'to', 'transition']);
    const imported = doc.webhooks['import.finished'].post.requestBody.content['application/json'].schema;
    expect(imported.properties.data.properties.importRun).toEqual({ $ref: '#/components/schemas/import-run' });
  });
});
