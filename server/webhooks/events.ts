/**
 * The webhook events of the configuration (screens/webhooks.json, overlaid per variant): which
 * events other systems may subscribe to, the resource whose record each carries, its facts, and
 * how deliveries are retried. Only reads the configuration.
 */
import type { WebhookDelivery, WebhookEvent, WebhooksFile } from '../../runtime/core/generated/meta.ts';
import type { Bundle } from '../config/bundle.ts';
import { RAISED_BY_CODE } from '../config/webhooks-check.ts';

export type { WebhookEvent, WebhooksFile };

/** The events the code raises by itself (config/webhooks-check.ts, which checks the declarations, holds the list). */
export { RAISED_BY_CODE };

/** The event of "send a test event": never declared, never subscribed to, sent only on request. */
export const TEST_EVENT = 'webhook.test';

const EMPTY: WebhooksFile = { schemaVersion: 1, type: 'webhooks', events: [] };

export function webhooksFile(bundle: Bundle): WebhooksFile {
  return (bundle.screens.webhooks as unknown as WebhooksFile | undefined) ?? EMPTY;
}

export function webhookEvent(file: WebhooksFile, id: string): WebhookEvent | undefined {
  return file.events.find((e) => e.id === id);
}

export type DeliverySettings = Required<WebhookDelivery>;

/** Standard Webhooks / Svix: now, 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (about three days in all). */
const DEFAULTS: DeliverySettings = {
  scheduleSeconds: [5, 300, 1800, 7200, 18000, 36000, 36000],
  timeoutSeconds: 15,
  disableAfterDays: 5,
  keepDays: 30,
  responseBytes: 4096,
  maxPayloadBytes: 20480,
  concurrency: 16,
  concurrencyPerEndpoint: 4,
};

export function deliverySettings(file: WebhooksFile): DeliverySettings {
  return { ...DEFAULTS, ...file.delivery };
}
