import { describe, expect, it, vi } from 'vitest';
import { keyBytes, type Environment, type RegistrationLike } from './push-client';
import { forget, remember, renewIfReplaced, type RenewalDeps } from './push-renewal';

const KEY = 'BEl62iUYgUivxIkv69yViEuiBIa-Ib9-SkvMeAtA3LFgDzkrxZJjSgSnfckjBJuBkr3qBUYIHBQFLXYp5Nksh8U';
const USER = '7:kierowca';
const OLD = 'https://push.example/old';
const NEW = 'https://push.example/new';

function memory() {
  const items = new Map<string, string>();
  return { getItem: (k: string) => items.get(k) ?? null, setItem: (k: string, v: string) => void items.set(k, v), removeItem: (k: string) => void items.delete(k), items };
}
const subscriptionAt = (endpoint: string) => ({ endpoint, toJSON: () => ({ endpoint, keys: { p256dh: 'p', auth: 'a' } }) }) as unknown as PushSubscription;

function deps(over: { current?: string | null; devices?: { id: number; endpoint: string }[]; permission?: NotificationPermission } = {}) {
  const storage = memory();
  const subscribe = vi.fn(async () => subscriptionAt(NEW));
  const registration: RegistrationLike = { pushManager: { getSubscription: async () => (over.current ? subscriptionAt(over.current) : null), subscribe } };
  const env: Environment = { supported: true, permission: over.permission ?? 'granted', registration };
  const add = vi.fn(async () => undefined);
  const remove = vi.fn(async () => undefined);
  const d: RenewalDeps = { user: USER, env, storage, publicKey: async () => KEY, devices: async () => over.devices ?? [{ id: 3, endpoint: OLD }], add, remove };
  return { d, storage, subscribe, add, remove };
}

describe('a push subscription the browser replaced reaches the server again', () => {
  it('adds the new subscription and removes the old device when the endpoint changed', async () => {
    const { d, storage, add, remove } = deps({ current: NEW });
    remember(storage, USER, OLD);
    expect(await renewIfReplaced(d)).toBe('renewed');
    expect(add).toHaveBeenCalledWith({ endpoint: NEW, keys: { p256dh: 'p', auth: 'a' } });
    expect(remove).toHaveBeenCalledWith(3);
    // remembered anew: the next look changes nothing
    expect(await renewIfReplaced(d)).toBe('unchanged');
    expect(add).toHaveBeenCalledOnce();
  });

  it('subscribes again with the portal\'s key, asking nothing, when the browser dropped it while permission stands', async () => {
    const { d, storage, subscribe, add } = deps({ current: null });
    remember(storage, USER, OLD);
    expect(await renewIfReplaced(d)).toBe('renewed');
    expect(subscribe).toHaveBeenCalledWith({ userVisibleOnly: true, applicationServerKey: keyBytes(KEY) });
    expect(add).toHaveBeenCalledOnce();
  });

  it('keeps the device when subscribing again gives the same address (never adds and then removes it)', async () => {
    const { d, storage, subscribe, add, remove } = deps({ current: null });
    subscribe.mockResolvedValueOnce(subscriptionAt(OLD));
    remember(storage, USER, OLD);
    expect(await renewIfReplaced(d)).toBe('unchanged');
    expect(add).not.toHaveBeenCalled();
    expect(remove).not.toHaveBeenCalled();
  });

  it('does not bring back a device the person removed, and forgets it', async () => {
    const { d, storage, subscribe, add } = deps({ current: NEW, devices: [] });
    remember(storage, USER, OLD);
    expect(await renewIfReplaced(d)).toBe('removedElsewhere');
    expect(add).not.toHaveBeenCalled();
    expect(subscribe).not.toHaveBeenCalled();
    expect(storage.items.size).toBe(0);
  });

  it('does nothing for a user who never turned notifications on here, for another user, or once permission is withdrawn', async () => {
    const never = deps({ current: NEW });
    expect(await renewIfReplaced(never.d)).toBe('nothing');
    const other = deps({ current: NEW });
    remember(other.storage, '8:manager', OLD);
    expect(await renewIfReplaced(other.d)).toBe('nothing');
    const withdrawn = deps({ current: null, permission: 'denied' });
    remember(withdrawn.storage, USER, OLD);
    expect(await renewIfReplaced(withdrawn.d)).toBe('nothing');
    for (const { add } of [never, other, withdrawn]) expect(add).not.toHaveBeenCalled();
    forget(withdrawn.storage, USER);
    expect(withdrawn.storage.items.size).toBe(0);
  });
});
