/**
 * Receiving the portal's events (docs/integration.md "Receive events"), runnable:
 *
 *   WEBHOOK_SECRET=whsec_… npx tsx examples/integration/receive-webhooks.ts 8080
 *
 * A plain node:http receiver: it verifies each message with the published `standardwebhooks`
 * package (the signature over id, timestamp and the raw body; a timestamp more than 5 minutes
 * away is refused), drops a message whose `webhook-id` it has handled already (delivery is at
 * least once), and answers 2xx quickly. tests/api/webhook-receiver-example.test.ts runs it against
 * a portal, so it cannot rot.
 */
import { createServer, type Server } from 'node:http';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import type { operations } from './portal-api.d.ts';

/** The payload of `order.status_changed`, typed from the portal's OpenAPI `webhooks` section. */
export type OrderStatusChanged = operations['webhookOrderStatusChanged']['requestBody']['content']['application/json'];
export type PortalEvent = { type: string; timestamp: string; data: Record<string, unknown> };

export function startReceiver(options: {
  port: number;
  /** The secret the portal showed when the endpoint was added (`whsec_…`); during a rotation the new one. */
  secret: string;
  onEvent(event: PortalEvent, id: string): Promise<void> | void;
}): Promise<Server> {
  const webhook = new Webhook(options.secret);
  // ids handled already: keep them (in your database) for longer than the portal retries, about three days
  const handled = new Set<string>();
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks).toString('utf8'); // verify the raw body, never a re-serialised one
      let event: PortalEvent;
      try {
        event = webhook.verify(body, request.headers as Record<string, string>) as PortalEvent;
      } catch (error) {
        response.writeHead(error instanceof WebhookVerificationError ? 401 : 400).end();
        return;
      }
      const id = String(request.headers['webhook-id']);
      if (!handled.has(id)) {
        try {
          await options.onEvent(event, id);
          handled.add(id);
        } catch {
          response.writeHead(500).end(); // the portal tries again later, with the same id
          return;
        }
      }
      response.writeHead(204).end();
    });
  });
  return new Promise((resolve) => server.listen(options.port, () => resolve(server)));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.argv[2] ?? 8080);
  await startReceiver({
    port,
    secret: process.env.WEBHOOK_SECRET ?? '',
    onEvent(event, id) {
      if (event.type === 'order.status_changed') {
        const { order, from, to } = (event as OrderStatusChanged).data;
        console.log(`${id}: order ${order.autId} moved from ${from} to ${to}`);
      } else {
        console.log(`${id}: ${event.type}`);
      }
    },
  });
  console.log(`receiving on http://localhost:${port}/`);
}
