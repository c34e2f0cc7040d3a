import { describe, expect, it, vi } from 'vitest';
import { handleNotificationClick, handlePush, readMessage, registerPushHandlers, renewSubscription, SUBSCRIPTION_CHANGED, targetOf, type WorkerScopeLike } from './push-handlers';

const ORIGIN = 'https://portal.example.pl';

function scope(windows: { url: string }[] = []) {
  const clients = windows.map((w) => ({ ...w, focus: vi.fn(async () => undefined), navigate: vi.fn(async () => undefined) }));
  const listeners = new Map<string, (event: any) => void>();
  const s = {
    location: { origin: ORIGIN },
    registration: { showNotification: vi.fn(async () => undefined) },
    clients: { matchAll: vi.fn(async () => clients), openWindow: vi.fn(async () => undefined) },
    addEventListener: (type: string, listener: (event: any) => void) => listeners.set(type, listener),
  };
  return { s: s as unknown as WorkerScopeLike & typeof s, clients, listeners };
}

/** An event whose waitUntil work is kept, to be awaited. */
function event<T extends object>(fields: T) {
  const work: Promise<unknown>[] = [];
  return { e: { ...fields, waitUntil: (p: Promise<unknown>) => work.push(p) }, done: () => Promise.all(work) };
}
const data = (value: unknown) => ({ json: () => (typeof value === 'string' ? JSON.parse(value) : value), text: () => String(value) });

describe('a push message is shown as a notification', () => {
  it('with the title, text, tag and language the portal sent, and the screen to open kept with it', async () => {
    const { s } = scope();
    const { e, done } = event({ data: data({ title: 'Zlecenie Z/12: Zaakceptowano', body: 'WZ12345 – Zaakceptowano', url: '/app/dane-pojazdu?open=1', tag: 'orderStatusChanged:order:1', id: 7, lang: 'pl' }) });
    handlePush(s, e, { icon: '/icon-192.png' });
    await done();
    expect(s.registration.showNotification).toHaveBeenCalledWith('Zlecenie Z/12: Zaakceptowano', {
      icon: '/icon-192.png', body: 'WZ12345 – Zaakceptowano', data: { url: '/app/dane-pojazdu?open=1', id: 7 }, tag: 'orderStatusChanged:order:1', lang: 'pl',
    });
  });

  it('a message that cannot be read still shows something (the portal\'s name), opening the start', async () => {
    const { s } = scope();
    for (const bad of [null, data('not json{'), data({ title: 3 })]) {
      const { e, done } = event({ data: bad });
      handlePush(s, e, { fallbackTitle: 'Partner CFM' });
      await done();
    }
    expect(s.registration.showNotification).toHaveBeenCalledTimes(3);
    expect(s.registration.showNotification).toHaveBeenLastCalledWith('Partner CFM', { data: { url: '/app' } });
    expect(readMessage(null)).toBeUndefined();
  });
});

describe('a tap opens the right screen of the portal', () => {
  it('focuses an open window of the portal and leads it to the screen', async () => {
    const { s, clients } = scope([{ url: 'https://other.example/x' }, { url: `${ORIGIN}/app/pulpit` }]);
    const close = vi.fn();
    const { e, done } = event({ notification: { close, data: { url: '/app/dane-pojazdu?open=1' } } });
    handleNotificationClick(s, e);
    await done();
    expect(close).toHaveBeenCalledOnce();
    expect(clients[1].focus).toHaveBeenCalledOnce();
    expect(clients[1].navigate).toHaveBeenCalledWith(`${ORIGIN}/app/dane-pojazdu?open=1`);
    expect(clients[0].focus).not.toHaveBeenCalled();
    expect(s.clients.openWindow).not.toHaveBeenCalled();
  });

  it('opens a new window when none of the portal is open', async () => {
    const { s } = scope();
    const { e, done } = event({ notification: { close: vi.fn(), data: { url: '/app/account/notifications' } } });
    handleNotificationClick(s, e);
    await done();
    expect(s.clients.openWindow).toHaveBeenCalledWith(`${ORIGIN}/app/account/notifications`);
  });

  it('never opens another site, whatever the message says', () => {
    expect(targetOf('https://evil.example/phish', ORIGIN)).toBe(`${ORIGIN}/app`);
    expect(targetOf('//evil.example/phish', ORIGIN)).toBe(`${ORIGIN}/app`);
    expect(targetOf('javascript:alert(1)', ORIGIN)).toBe(`${ORIGIN}/app`);
    expect(targetOf(undefined, ORIGIN)).toBe(`${ORIGIN}/app`);
    expect(targetOf('/app/order?open=3', ORIGIN)).toBe(`${ORIGIN}/app/order?open=3`);
  });

  it('registers both handlers on the worker\'s scope', async () => {
    const { s, listeners } = scope();
    registerPushHandlers(s);
    expect([...listeners.keys()].sort()).toEqual(['notificationclick', 'push', 'pushsubscriptionchange']);
    const { e, done } = event({ data: data({ title: 'T', body: 'B', url: '/app' }) });
    listeners.get('push')!(e);
    await done();
    expect(s.registration.showNotification).toHaveBeenCalledWith('T', { body: 'B', data: { url: '/app', id: undefined } });
  });
});

describe('a subscription the push service replaced', () => {
  const withPages = () => {
    const pages = [{ url: `${ORIGIN}/app`, focus: vi.fn(), postMessage: vi.fn() }, { url: `${ORIGIN}/app/order`, focus: vi.fn(), postMessage: vi.fn() }];
    const subscribe = vi.fn(async () => ({}));
    const s = {
      location: { origin: ORIGIN },
      registration: { showNotification: vi.fn(), pushManager: { subscribe } },
      clients: { matchAll: vi.fn(async () => pages), openWindow: vi.fn() },
      addEventListener: vi.fn(),
    } as unknown as WorkerScopeLike;
    return { s, pages, subscribe };
  };

  it('is made again with the old one\'s key when the browser made none, and every open page is told', async () => {
    const { s, pages, subscribe } = withPages();
    const key = new Uint8Array([4, 1, 2]).buffer;
    await renewSubscription(s, { oldSubscription: { options: { applicationServerKey: key } }, newSubscription: null, waitUntil: vi.fn() });
    expect(subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: key });
    for (const page of pages) expect(page.postMessage).toHaveBeenCalledWith({ type: SUBSCRIPTION_CHANGED });
  });

  it('is not made twice when the browser already made the new one', async () => {
    const { s, pages, subscribe } = withPages();
    await renewSubscription(s, { oldSubscription: { options: { applicationServerKey: new Uint8Array([4]).buffer } }, newSubscription: { endpoint: 'https://push.example/new' }, waitUntil: vi.fn() });
    expect(subscribe).not.toHaveBeenCalled();
    expect(pages[0].postMessage).toHaveBeenCalledOnce();
  });
});
