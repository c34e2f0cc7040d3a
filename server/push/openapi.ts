/**
 * The push message in the OpenAPI document's `webhooks` section (issue 47: every webhook and push
 * payload declares its shape): what the portal sends to a device through its push service, as the
 * service worker reads it once decrypted (schemas/api/push-payload.schema.json).
 */
export function pushSection(): Record<string, unknown> {
  return {
    'push.notification': {
      post: {
        operationId: 'pushNotification',
        summary: 'A Web Push message to one of a person\'s devices',
        description: 'Sent to the endpoint of a device registered with POST /api/push/subscriptions (its push service: FCM, Mozilla, Apple …), '
          + 'encrypted for the device\'s keys (RFC 8291, `Content-Encoding: aes128gcm`) and carrying a VAPID JWT (RFC 8292, ES256, '
          + '`aud` the push service\'s origin) in `Authorization: vapid t=…, k=<the portal\'s public key>`. The body below is what '
          + 'the service worker\'s `push` event gets (`event.data.json()`). An answer 404 or 410 removes the device; 429 and 5xx are retried.',
        tags: ['push'],
        security: [],
        parameters: [
          { in: 'header', name: 'TTL', required: true, description: 'Seconds the push service keeps the message for an offline device (86400).', schema: { type: 'integer' } },
          { in: 'header', name: 'Urgency', required: false, description: 'RFC 8030 urgency: normal, or high for a test message.', schema: { type: 'string' } },
        ],
        requestBody: { required: true, content: { 'application/json': { schema: { $ref: '#/components/schemas/push-payload' } } } },
        responses: {
          '201': { description: 'Taken by the push service (any 2xx).' },
          '410': { description: 'The subscription is gone (404 likewise): the device is removed.' },
        },
      },
    },
  };
}
