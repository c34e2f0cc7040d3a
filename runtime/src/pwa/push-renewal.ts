/**
 * A push subscription the browser replaced (issue 47). A push service may end a subscription and
 * the browser make a new one — Firefox tells the service worker (`pushsubscriptionchange`, whose
 * handler subscribes again: push-handlers.ts), Chrome changes it silently when it expires — and
 * the server then holds an endpoint that answers 410 and is dropped: the driver would hear nothing
 * until he turned notifications on again by hand.
 *
 * The worker cannot tell the server itself (it holds no session), so the page does, for the person
 * signed in: this browser remembers, per user, the endpoint he turned on (`remember`, from the
 * settings screen). When he is signed in, and whenever the worker says the subscription changed,
 * the browser's subscription is compared with it; if it differs (or is gone while permission is
 * still granted) and the server still lists his old device, the new subscription is added and
 * the old device removed. A device he removed himself (here or on another browser) is not brought
 * back, and nothing of one user is sent for another: the memory is his, signing out forgets it.
 */
import { api } from '../api/client';
import { store } from '../state/store';
import { sessionAtom } from '../state/session';
import { keyBytes, readEnvironment, type Environment } from './push-client';
import { SUBSCRIPTION_CHANGED } from './push-handlers';

const PREFIX = 'portal.push.';

export interface RenewalDeps {
  /** The signed-in user's key (`id:login`), or null. */
  user: string | null;
  env: Environment;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  publicKey(): Promise<string>;
  devices(): Promise<{ id: number; endpoint: string }[]>;
  add(subscription: PushSubscriptionJSON): Promise<unknown>;
  remove(id: number): Promise<unknown>;
}

export type RenewalOutcome = 'nothing' | 'unchanged' | 'renewed' | 'removedElsewhere';

/** The signed-in user's key in this browser's memory (`id:login`), or null. */
function signedInUser(): string | null {
  const user = store.get(sessionAtom)?.user;
  return user ? `${user.id}:${user.login}` : null;
}

/** The settings screen turned notifications on for the signed-in user: remembered for renewals. */
export function rememberTurnedOn(endpoint: string): void {
  const user = signedInUser();
  if (user) remember(localStorage, user, endpoint);
}

/** The endpoint this user turned on in this browser (the settings screen, after the server took it). */
export function remember(storage: RenewalDeps['storage'], user: string, endpoint: string): void {
  storage.setItem(PREFIX + user, endpoint);
}

/** Signing out, or the device removed here: nothing to renew for this user any more. */
export function forget(storage: RenewalDeps['storage'], user: string): void {
  storage.removeItem(PREFIX + user);
}

export async function renewIfReplaced(d: RenewalDeps): Promise<RenewalOutcome> {
  if (!d.user) return 'nothing';
  const turnedOn = d.storage.getItem(PREFIX + d.user);
  const { env } = d;
  if (!turnedOn || !env.supported || env.permission !== 'granted' || !env.registration) return 'nothing';
  const current = await env.registration.pushManager.getSubscription();
  if (current?.endpoint === turnedOn) return 'unchanged';
  const old = (await d.devices()).find((device) => device.endpoint === turnedOn);
  if (!old) {
    // he removed this device (maybe on another browser): it stays removed
    forget(d.storage, d.user);
    return 'removedElsewhere';
  }
  // the permission stands, so subscribing again asks nothing of the person
  const renewed = current ?? await env.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(await d.publicKey()) });
  // the push service gave the same address again: the server's device is this one, nothing to swap
  if (renewed.endpoint === turnedOn) return 'unchanged';
  await d.add(renewed.toJSON());
  await d.remove(old.id);
  remember(d.storage, d.user, renewed.endpoint);
  return 'renewed';
}


let started = false;

/**
 * Looks once for the signed-in user, again for each user who signs in, and whenever the worker says
 * the subscription changed. Started by the shell (loaded after sign-in, never on the login page).
 */
export function startPushRenewal(): void {
  if (started || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  started = true;
  const quiet = { quiet: true };
  const userOf = signedInUser;
  let running: Promise<unknown> = Promise.resolve();
  const look = () => {
    running = running.then(async () => renewIfReplaced({
      user: userOf(), env: await readEnvironment(), storage: localStorage,
      publicKey: async () => (await api.get<{ publicKey: string }>('/push/public-key', quiet)).publicKey,
      devices: () => api.get<{ id: number; endpoint: string }[]>('/push/subscriptions', quiet),
      add: (subscription) => api.post('/push/subscriptions', subscription, quiet),
      remove: (id) => api.delete(`/push/subscriptions/${id}`, quiet),
    })).catch(() => undefined); // a failed look is tried again at the next sign-in or message
  };
  let lastUser = userOf();
  store.sub(sessionAtom, () => {
    const now = userOf();
    if (now !== lastUser && now) look();
    lastUser = now;
  });
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === SUBSCRIPTION_CHANGED) look();
  });
  look();
}
