import { describe, expect, it, vi } from 'vitest';
import { enablePush, forgetThisDevice, keyBytes, madeWithKey, stateOf, type Environment, type RegistrationLike } from './push-client';

const KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';

function registration(existing: Partial<PushSubscription> | null = null) {
  const made = { endpoint: 'https://push.example/new', toJSON: () => ({ endpoint: 'https://push.example/new', keys: { p256dh: 'p', auth: 'a' } }), options: { applicationServerKey: keyBytes(KEY).buffer } };
  const subscribe = vi.fn(async () => made as unknown as PushSubscription);
  const reg: RegistrationLike = { pushManager: { getSubscription: async () => existing as PushSubscription | null, subscribe } };
  return { reg, subscribe };
}

describe('the state a device is in', () => {
  const env = (over: Partial<Environment>): Environment => ({ supported: true, permission: 'default', registration: registration().reg, ...over });
  it('says what the browser cannot do, and what the person blocked, before anything else', () => {
    expect(stateOf(env({ supported: false }), false)).toBe('unsupported');
    expect(stateOf(env({ permission: 'denied' }), true)).toBe('denied');
    expect(stateOf(env({ registration: undefined }), false)).toBe('noWorker');
  });
  it('is enabled only when subscribed with permission granted', () => {
    expect(stateOf(env({ permission: 'granted' }), true)).toBe('enabled');
    expect(stateOf(env({ permission: 'granted' }), false)).toBe('ready');
    expect(stateOf(env({ permission: 'default' }), true)).toBe('ready');
  });
});

describe('turning notifications on', () => {
  it('decodes the portal\'s key into the 65 bytes of a P-256 point', () => {
    const bytes = keyBytes(KEY);
    expect(bytes.length).toBe(65);
    expect(bytes[0]).toBe(4);
  });

  it('asks for permission, then subscribes with the portal\'s key', async () => {
    const { reg, subscribe } = registration();
    const ask = vi.fn(async () => 'granted' as NotificationPermission);
    const result = await enablePush(async () => KEY, { supported: true, permission: 'default', registration: reg }, ask);
    expect(ask).toHaveBeenCalledOnce();
    expect(subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: keyBytes(KEY) });
    expect(result).toEqual({ outcome: 'subscribed', subscription: { endpoint: 'https://push.example/new', keys: { p256dh: 'p', auth: 'a' } } });
  });

  it('stops at a refusal or a closed prompt without subscribing', async () => {
    for (const [answer, outcome] of [['denied', 'denied'], ['default', 'dismissed']] as const) {
      const { reg, subscribe } = registration();
      expect(await enablePush(async () => KEY, { supported: true, permission: 'default', registration: reg }, async () => answer)).toEqual({ outcome });
      expect(subscribe).not.toHaveBeenCalled();
    }
  });

  it('keeps a subscription made with the same key, and replaces one made with another', async () => {
    const same = { toJSON: () => ({ endpoint: 'https://push.example/kept' }), options: { applicationServerKey: keyBytes(KEY).buffer }, unsubscribe: vi.fn() };
    const kept = registration(same as unknown as PushSubscription);
    expect(await enablePush(async () => KEY, { supported: true, permission: 'granted', registration: kept.reg })).toEqual({ outcome: 'subscribed', subscription: { endpoint: 'https://push.example/kept' } });
    expect(kept.subscribe).not.toHaveBeenCalled();
    const other = { toJSON: () => ({}), options: { applicationServerKey: new Uint8Array(65).fill(4).buffer }, unsubscribe: vi.fn(async () => true) };
    expect(madeWithKey(other as unknown as PushSubscription, keyBytes(KEY))).toBe(false);
    const replaced = registration(other as unknown as PushSubscription);
    await enablePush(async () => KEY, { supported: true, permission: 'granted', registration: replaced.reg });
    expect(other.unsubscribe).toHaveBeenCalledOnce();
    expect(replaced.subscribe).toHaveBeenCalledOnce();
  });

  it('does not ask a browser without the Push API or without the service worker', async () => {
    const ask = vi.fn(async () => 'granted' as NotificationPermission);
    expect(await enablePush(async () => KEY, { supported: false, permission: 'default', registration: undefined }, ask)).toEqual({ outcome: 'unsupported' });
    expect(await enablePush(async () => KEY, { supported: true, permission: 'default', registration: undefined }, ask)).toEqual({ outcome: 'noWorker' });
    expect(ask).not.toHaveBeenCalled();
  });
});

describe('signing out on this browser', () => {
  const envWith = (subscription: PushSubscription | null): Environment => ({
    supported: true, permission: 'granted',
    registration: { pushManager: { getSubscription: async () => subscription, subscribe: vi.fn() } },
  });

  it("removes this browser's device from the person's list and ends the subscription, leaving his other devices", async () => {
    const unsubscribe = vi.fn(async () => true);
    const mine = { endpoint: 'https://push.example/this-phone', unsubscribe } as unknown as PushSubscription;
    const remove = vi.fn(async () => undefined);
    await forgetThisDevice(async () => [{ id: 7, endpoint: 'https://push.example/laptop' }, { id: 9, endpoint: 'https://push.example/this-phone' }], remove, envWith(mine));
    expect(remove.mock.calls).toEqual([[9]]);
    expect(unsubscribe).toHaveBeenCalledTimes(1);
  });

  it('still ends the subscription when the list cannot be read, and does nothing without one', async () => {
    const unsubscribe = vi.fn(async () => true);
    const remove = vi.fn(async () => undefined);
    await forgetThisDevice(async () => { throw new Error('offline'); }, remove, envWith({ endpoint: 'https://push.example/x', unsubscribe } as unknown as PushSubscription));
    expect(remove).not.toHaveBeenCalled();
    expect(unsubscribe).toHaveBeenCalledTimes(1);
    const list = vi.fn(async () => []);
    await forgetThisDevice(list, remove, envWith(null));
    expect(list).not.toHaveBeenCalled();
  });
});
