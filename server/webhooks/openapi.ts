/**
 * The OpenAPI document's `webhooks` section (OpenAPI 3.1): one entry per declared event, with its
 * payload's schema (the record as its resource's entity schema, the event's facts), so a client
 * generated from the document types the receiver too. Built from screens/webhooks.json of the
 * configuration the document describes.
 */
import type { Bundle } from '../config/bundle.ts';
import { TEST_EVENT, webhooksFile } from './events.ts';

const HEADERS = [
  { name: 'webhook-id', description: 'The message id: the same on every retry of this event (delivery is at least once; drop a repeated id).' },
  { name: 'webhook-timestamp', description: 'Seconds since the epoch when this attempt was signed; refuse one far from now (replays).' },
  { name: 'webhook-signature', description: 'Space-separated `v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, one per active secret (two during a rotation).' },
];

const operationIdOf = (event: string) => `webhook${event.split(/[._]/).map((p) => p[0].toUpperCase() + p.slice(1)).join('')}`;

function entry(type: string, summary: string, description: string, data: Record<string, unknown>) {
  return {
    post: {
      operationId: operationIdOf(type),
      summary,
      description: `${description} Signed per Standard Webhooks (docs/integration.md "Receive events"). Answer 2xx within 15 s; any other answer (a redirect too) is retried on the schedule; 410 disables the endpoint.`,
      tags: ['webhooks'],
      security: [],
      parameters: HEADERS.map((h) => ({ in: 'header', name: h.name, required: true, description: h.description, schema: { type: 'string' } })),
      requestBody: {
        required: true,
        content: {
          'application/json': {
            schema: {
              type: 'object', additionalProperties: false, required: ['type', 'timestamp', 'data'],
              properties: { type: { const: type }, timestamp: { type: 'string', format: 'date-time' }, data },
            },
          },
        },
      },
      responses: {
        '200': { description: 'Received (any 2xx).' },
        '410': { description: 'The receiver is gone for good: the endpoint is disabled.' },
      },
    },
  };
}

export function webhooksSection(bundle: Bundle): Record<string, unknown> {
  const section: Record<string, unknown> = {};
  for (const event of webhooksFile(bundle).events) {
    const resource = bundle.resources[event.resource];
    const facts = event.facts ?? {};
    section[event.id] = entry(event.id, `Event ${event.id}`, event.description, {
      type: 'object', required: [event.resource, ...Object.keys(facts)],
      properties: {
        [event.resource]: event.schema ? { $ref: `#/components/schemas/${event.schema}` } : resource ? { $ref: `#/components/schemas/${resource.entity}` } : { type: 'object' },
        ...facts,
        truncated: { type: 'boolean', description: 'set when the record was too large: only its key is sent; fetch it through the API' },
      },
    });
  }
  section[TEST_EVENT] = entry(TEST_EVENT, `Event ${TEST_EVENT}`, 'A test sent by "send a test event"; never sent otherwise.', {
    type: 'object', required: ['endpointId'], properties: { endpointId: { type: 'integer' }, text: { type: 'string' } },
  });
  return section;
}
