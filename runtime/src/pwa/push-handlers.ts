/**
 * The service worker's Web Push handlers (issue 47), kept apart from the service worker file
 * itself (which issue 47's offline part owns): import this module there and call
 * `registerPushHandlers(self)` once, at the top level of the worker script:
 *
 *     import { registerPushHandlers } from './pwa/push-handlers';
 *     declare const self: ServiceWorkerGlobalScope;
 *     registerPushHandlers(self);
 *
 * - `push`: the message (schemas/api/push-payload.schema.json: title, body, url, tag …) shown as a
 *   notification; one that cannot be read still shows the portal's name, because a push that
 *   shows nothing is penalised by the browsers (userVisibleOnly).
 * - `notificationclick`: the notification closed and the portal's screen of its `url` opened: a
 *   window of the portal already open is focused and led there, else a new one is opened. Only a
 *   path of the portal's own origin is ever opened.
 *
 * The types below are the few parts of the service worker's API used here (the runtime compiles
 * with the DOM library, not the worker's); unit tests pass their own.
 */

export interface PushMessage {
  title: string;
  body: string;
  url: string;
  tag?: string;
  id?: number;
  lang?: string;
}

interface ExtendableEventLike {
  waitUntil(work: Promise<unknown>): void;
}
export interface PushEventLike extends ExtendableEventLike {
  data: { json(): unknown; text(): string } | null;
}
export interface NotificationClickEventLike extends ExtendableEventLike {
  notification: { close(): void; data?: unknown };
}
/** Firefox's event when the push service replaced a subscription (Chrome sends none). */
export interface SubscriptionChangeEventLike extends ExtendableEventLike {
  oldSubscription?: { options?: { applicationServerKey?: ArrayBuffer | null } } | null;
  newSubscription?: unknown;
}
interface WindowClientLike {
  url: string;
  focus(): Promise<unknown>;
  navigate?(url: string): Promise<unknown>;
  postMessage?(message: unknown): void;
}
export interface WorkerScopeLike {
  location: { origin: string };
  registration: {
    showNotification(title: string, options?: NotificationOptions): Promise<void>;
    pushManager?: { subscribe(options: PushSubscriptionOptionsInit): Promise<unknown> };
  };
  clients: { matchAll(options?: { type?: 'window'; includeUncontrolled?: boolean }): Promise<readonly WindowClientLike[]>; openWindow(url: string): Promise<unknown> };
  addEventListener(type: 'push' | 'notificationclick' | 'pushsubscriptionchange', listener: (event: any) => void): void;
}

export interface HandlerOptions {
  /** The title of a message that could not be read (the portal's name). */
  fallbackTitle?: string;
  /** The notification's icon and badge (the variant's icons, from the manifest). */
  icon?: string;
  badge?: string;
}

/** The path every tap falls back to (the portal's start). */
export const START_PATH = '/app';

/** The message of a push event; undefined when it has none or it is not the portal's shape. */
export function readMessage(data: PushEventLike['data']): PushMessage | undefined {
  if (!data) return undefined;
  let value: unknown;
  try {
    value = data.json();
  } catch {
    return undefined;
  }
  if (!value || typeof value !== 'object') return undefined;
  const m = value as Record<string, unknown>;
  if (typeof m.title !== 'string' || typeof m.body !== 'string') return undefined;
  return {
    title: m.title, body: m.body, url: typeof m.url === 'string' ? m.url : START_PATH,
    ...(typeof m.tag === 'string' ? { tag: m.tag } : {}), ...(typeof m.id === 'number' ? { id: m.id } : {}), ...(typeof m.lang === 'string' ? { lang: m.lang } : {}),
  };
}

/** The address a tap opens: the message's path on the portal's own origin, never another site. */
export function targetOf(url: unknown, origin: string): string {
  if (typeof url !== 'string') return `${origin}${START_PATH}`;
  try {
    const target = new URL(url, origin);
    return target.origin === origin ? target.href : `${origin}${START_PATH}`;
  } catch {
    return `${origin}${START_PATH}`;
  }
}

export function notificationOf(message: PushMessage | undefined, options: HandlerOptions = {}): { title: string; options: NotificationOptions } {
  const base: NotificationOptions = { ...(options.icon ? { icon: options.icon } : {}), ...(options.badge ? { badge: options.badge } : {}) };
  if (!message) return { title: options.fallbackTitle ?? '', options: { ...base, data: { url: START_PATH } } };
  return {
    title: message.title,
    options: {
      ...base, body: message.body, data: { url: message.url, id: message.id },
      ...(message.tag ? { tag: message.tag } : {}), ...(message.lang ? { lang: message.lang } : {}),
    },
  };
}

export function handlePush(scope: WorkerScopeLike, event: PushEventLike, options: HandlerOptions = {}): void {
  const { title, options: shown } = notificationOf(readMessage(event.data), options);
  event.waitUntil(scope.registration.showNotification(title, shown));
}

/** Focuses a window of the portal and leads it to the target, or opens one. */
export async function openTarget(scope: WorkerScopeLike, target: string): Promise<void> {
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const own = windows.find((w) => w.url.startsWith(scope.location.origin));
  if (own) {
    await own.focus();
    if (own.url !== target && own.navigate) await own.navigate(target);
    return;
  }
  await scope.clients.openWindow(target);
}

export function handleNotificationClick(scope: WorkerScopeLike, event: NotificationClickEventLike): void {
  event.notification.close();
  const url = (event.notification.data as { url?: unknown } | undefined)?.url;
  event.waitUntil(openTarget(scope, targetOf(url, scope.location.origin)));
}

/** What the worker tells its pages when the subscription was replaced (pwa/push-renewal.ts listens). */
export const SUBSCRIPTION_CHANGED = 'portal:push-subscription-changed';

/**
 * The push service replaced the subscription: a new one is made with the old one's key when the
 * browser made none, and the open pages are told, so the signed-in person's page registers it with
 * the server (the worker holds no session); a page opened later finds it changed by itself.
 */
export async function renewSubscription(scope: WorkerScopeLike, event: SubscriptionChangeEventLike): Promise<void> {
  const key = event.oldSubscription?.options?.applicationServerKey;
  if (!event.newSubscription && key && scope.registration.pushManager) {
    await scope.registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }).catch(() => undefined);
  }
  const windows = await scope.clients.matchAll({ type: 'window', includeUncontrolled: true });
  for (const page of windows) page.postMessage?.({ type: SUBSCRIPTION_CHANGED });
}

/** Adds the handlers to the service worker's global scope (call once, at the top level). */
export function registerPushHandlers(scope: WorkerScopeLike, options: HandlerOptions = {}): void {
  scope.addEventListener('push', (event: PushEventLike) => handlePush(scope, event, options));
  scope.addEventListener('notificationclick', (event: NotificationClickEventLike) => handleNotificationClick(scope, event));
  scope.addEventListener('pushsubscriptionchange', (event: SubscriptionChangeEventLike) => event.waitUntil(renewSubscription(scope, event)));
}
