/**
 * One push message to one device (RFC 8030): the payload encrypted for the subscription's keys
 * (RFC 8291, aes128gcm) and signed for the push service by the portal's VAPID key (RFC 8292), both
 * by the `web-push` library (`generateRequestDetails`), then POSTed by the webhooks' own sender to
 * the address the webhooks' guard checked (server/webhooks/address.ts: public unicast only, except
 * the hosts of PUSH_ALLOW_HOSTS; the connection goes to the very address checked). One
 * implementation of the guard and of the request for both.
 */
import webpush from 'web-push';
import { AddressNotAllowed, resolveTarget, type AllowedHosts } from '../webhooks/address.ts';
import { postSigned } from '../webhooks/send.ts';
import type { VapidKeys } from './keys.ts';

/** The message the service worker receives (schemas/api/push-payload.schema.json). */
export interface PushPayload {
  title: string;
  body: string;
  /** The portal's path to open when the notification is tapped (/app/…). */
  url: string;
  /** Notifications with one tag replace each other on the device (one per record). */
  tag?: string;
  /** The notification row (absent for a test message). */
  id?: number;
  /** The language the texts are in (pl, en, uk). */
  lang?: string;
}

export interface Device {
  endpoint: string;
  p256dh: string;
  auth: string;
}

/**
 * sent: the push service took it (2xx). gone: the subscription no longer exists (404, 410): drop
 * it. failed: anything else (a 429 or 5xx, no answer, a refused address); `retry` when trying
 * again later may help.
 */
export type PushOutcome =
  | { kind: 'sent'; status: number }
  | { kind: 'gone'; status: number }
  | { kind: 'failed'; status?: number; error: string; retry: boolean };

/** A day: a message older than that (the phone off all day) is not worth showing. */
const TTL_SECONDS = 24 * 3600;
const TIMEOUT_MS = 15_000;

export async function sendPush(device: Device, payload: PushPayload, keys: VapidKeys, allowed: AllowedHosts, options: { urgency?: 'normal' | 'high'; topic?: string } = {}): Promise<PushOutcome> {
  let url: URL;
  try {
    url = new URL(device.endpoint);
  } catch {
    return { kind: 'failed', error: 'INVALID_ENDPOINT', retry: false };
  }
  const details = webpush.generateRequestDetails(
    { endpoint: device.endpoint, keys: { p256dh: device.p256dh, auth: device.auth } },
    JSON.stringify(payload),
    {
      vapidDetails: { subject: keys.subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
      TTL: TTL_SECONDS, contentEncoding: 'aes128gcm', urgency: options.urgency ?? 'normal',
      ...(options.topic ? { topic: options.topic } : {}),
    },
  );
  let target;
  try {
    target = await resolveTarget(url, allowed);
  } catch (error) {
    if (error instanceof AddressNotAllowed) return { kind: 'failed', error: `ADDRESS_NOT_ALLOWED: ${error.message}`, retry: false };
    return { kind: 'failed', error: `DNS: ${error instanceof Error ? error.message : String(error)}`, retry: true };
  }
  const headers = Object.fromEntries(Object.entries(details.headers).map(([name, value]) => [name.toLowerCase(), String(value)]));
  const result = await postSigned({
    url, target, body: details.body ?? Buffer.alloc(0), timeoutMs: TIMEOUT_MS, responseBytes: 1024,
    headers: { ...headers, 'user-agent': 'fleet-portal-push/1' },
  });
  if (result.status !== undefined && result.status >= 200 && result.status < 300) return { kind: 'sent', status: result.status };
  if (result.status === 404 || result.status === 410) return { kind: 'gone', status: result.status };
  const error = result.status !== undefined ? `HTTP ${result.status}${result.body ? `: ${result.body.slice(0, 200)}` : ''}` : (result.error ?? 'NO_ANSWER');
  // 4xx other than 429 (a bad request, a wrong VAPID key): sending the same again will not help
  const retry = result.status === undefined || result.status === 429 || result.status >= 500;
  return { kind: 'failed', ...(result.status !== undefined ? { status: result.status } : {}), error, retry };
}
