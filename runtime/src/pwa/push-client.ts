/**
 * This browser's side of Web Push (issue 47): whether it can receive notifications, whether the
 * person blocked them, whether the portal's service worker is there to receive them, and the
 * subscription made with the portal's VAPID key. The browser asks the person for permission only
 * inside `enablePush`, which the settings screen calls from his own click, never on load.
 */

export type DeviceState =
  /** No Push API here (an old browser; Safari on iOS outside a home-screen app). */
  | 'unsupported'
  /** The person (or a policy) blocked notifications for the portal: only the browser's settings undo it. */
  | 'denied'
  /** No service worker registered yet (it is installed with the page; a refresh helps). */
  | 'noWorker'
  /** Can be turned on: the button asks for permission and subscribes. */
  | 'ready'
  /** This browser is subscribed. */
  | 'enabled';

/** The parts of a ServiceWorkerRegistration this module uses (tests give their own). */
export interface RegistrationLike {
  pushManager: {
    getSubscription(): Promise<PushSubscription | null>;
    subscribe(options: PushSubscriptionOptionsInit): Promise<PushSubscription>;
  };
}

export interface Environment {
  supported: boolean;
  permission: NotificationPermission;
  registration: RegistrationLike | undefined;
}

/** What the screen shows, from what the browser says. */
export function stateOf(env: Environment, subscribed: boolean): DeviceState {
  if (!env.supported) return 'unsupported';
  if (env.permission === 'denied') return 'denied';
  if (!env.registration) return 'noWorker';
  return subscribed && env.permission === 'granted' ? 'enabled' : 'ready';
}

/** The VAPID public key (base64url) as the bytes `applicationServerKey` takes. */
export function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '=');
  const raw = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(raw.length));
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

/** Whether a subscription was made with this key (a new portal key needs a new subscription). */
export function madeWithKey(subscription: PushSubscription, key: Uint8Array): boolean {
  const used = subscription.options?.applicationServerKey;
  if (!used) return true; // the browser does not say: keep it
  const bytes = new Uint8Array(used);
  return bytes.length === key.length && bytes.every((b, i) => b === key[i]);
}

/** The browser as it is now. */
export async function readEnvironment(): Promise<Environment> {
  const supported = typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
  if (!supported) return { supported, permission: 'default', registration: undefined };
  const registration = (await navigator.serviceWorker.getRegistration()) as RegistrationLike | undefined;
  return { supported, permission: Notification.permission, registration };
}

export async function currentSubscription(env: Environment): Promise<PushSubscription | null> {
  return env.registration ? env.registration.pushManager.getSubscription() : null;
}

export type EnableOutcome =
  | { outcome: 'subscribed'; subscription: PushSubscriptionJSON }
  | { outcome: 'unsupported' | 'denied' | 'dismissed' | 'noWorker' };

/**
 * Turns notifications on for this browser: asks for permission (this is the only place that asks,
 * called from the person's click), then subscribes with the portal's key, replacing a subscription
 * made with another key. The caller sends the subscription to the server.
 */
export async function enablePush(publicKey: () => Promise<string>, env?: Environment, ask: () => Promise<NotificationPermission> = () => Notification.requestPermission()): Promise<EnableOutcome> {
  const current = env ?? await readEnvironment();
  if (!current.supported) return { outcome: 'unsupported' };
  if (!current.registration) return { outcome: 'noWorker' };
  const permission = current.permission === 'granted' ? 'granted' : await ask();
  if (permission === 'denied') return { outcome: 'denied' };
  if (permission !== 'granted') return { outcome: 'dismissed' };
  const key = keyBytes(await publicKey());
  const existing = await current.registration.pushManager.getSubscription();
  if (existing && madeWithKey(existing, key)) return { outcome: 'subscribed', subscription: existing.toJSON() };
  if (existing) await existing.unsubscribe();
  const made = await current.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  return { outcome: 'subscribed', subscription: made.toJSON() };
}

/**
 * Signing out on this browser (issue 47: nothing of the previous user is sent to the next): his
 * device is removed from his list while his session still holds, and the browser's subscription
 * is ended, so the push service refuses (410) anything still on its way and the server drops it.
 * Whatever fails here, signing out goes on.
 */
export async function forgetThisDevice(
  list: () => Promise<{ id: number; endpoint: string }[]>,
  remove: (id: number) => Promise<unknown>,
  env?: Environment,
): Promise<void> {
  const environment = env ?? (await readEnvironment());
  const subscription = await currentSubscription(environment).catch(() => null);
  if (!subscription) return;
  const device = (await list().catch(() => [])).find((d) => d.endpoint === subscription.endpoint);
  if (device) await remove(device.id).catch(() => undefined);
  await subscription.unsubscribe().catch(() => false);
}
