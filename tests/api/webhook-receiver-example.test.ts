/**
 * docs/integration.md "Receive events": the TypeScript receiver of examples/integration/
 * receive-webhooks.ts, run against the portal. It verifies the portal's signature with the
 * published package, refuses a forged message, and handles a message sent again (same webhook-id)
 * only once.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startReceiver, type PortalEvent } from '../../examples/integration/receive-webhooks.ts';
import { eventually } from '../support/eventually.ts';
import { startTestApp, type TestApp } from '../support/test-app.ts';

let t: TestApp;
let server: Server | undefined;
const handled: { id: string; event: PortalEvent }[] = [];

beforeAll(async () => {
  t = await startTestApp({
    notifications: { worker: true, pollingIntervalSeconds: 0.5 },
    webhooks: { allowHosts: '127.0.0.1', pollingIntervalSeconds: 0.5, delivery: { scheduleSeconds: [1] } },
  });
}, 120_000);
afterAll(async () => {
  server?.close();
  await t?.close();
});


it('the example receiver verifies the portal\'s events, refuses a forged one and handles a resent one once', async () => {
  const token = await t.signIn('admin');
  // the endpoint first (its secret is shown once), then the receiver with that secret
  const created = await t.call('POST', '/api/webhooks/endpoints', { token, body: { url: 'http://127.0.0.1:1/', events: ['order.status_changed'] } });
  const { endpoint, secret } = created.json();
  server = await startReceiver({ port: 0, secret, onEvent: (event, id) => void handled.push({ id, event }) });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  expect((await t.call('PUT', `/api/webhooks/endpoints/${endpoint.id}`, { token, body: { url, events: ['order.status_changed'] } })).statusCode).toBe(200);

  expect((await t.call('POST', '/api/order/6/transition', { token, body: { to: 4 } })).statusCode).toBe(200);
  await eventually(() => handled.length === 1, { what: 'the receiver handled the status change' });
  expect(handled[0].event).toMatchObject({ type: 'order.status_changed', data: { from: 2, to: 4, order: { autId: 6 } } });

  // sent again by the administrator: the same id, dropped by the receiver, yet delivered (2xx)
  // the receiver handled it before answering: the portal records the delivery once the answer is in
  const message = await eventually(async () => {
    const [first] = (await t.call('GET', `/api/webhooks/endpoints/${endpoint.id}/messages`, { token })).json().rows as { id: number; state: string }[];
    return first?.state === 'delivered' && first;
  }, { what: 'the message was recorded as delivered' });
  expect((await t.call('POST', `/api/webhooks/messages/${message.id}/resend`, { token })).statusCode).toBe(200);
  const resent = await eventually(async () => {
    const detail = (await t.call('GET', `/api/webhooks/messages/${message.id}`, { token })).json();
    return detail.attempts.length === 2 && detail.state === 'delivered' && detail;
  }, { what: 'the resent message was delivered a second time' });
  expect(resent.attempts.map((a: { status: number }) => a.status)).toEqual([204, 204]);
  expect(handled).toHaveLength(1);

  // a message not signed by the portal is refused
  const forged = await fetch(url, {
    method: 'POST', body: '{"type":"order.status_changed","data":{}}',
    headers: { 'webhook-id': 'msg_forged', 'webhook-timestamp': String(Math.floor(Date.now() / 1000)), 'webhook-signature': 'v1,AAAA' },
  });
  expect(forged.status).toBe(401);
  expect(handled).toHaveLength(1);
}, 60_000);
