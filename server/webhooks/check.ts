/**
 * What the configuration check asks of screens/webhooks.json beyond its meta-schema: unique event
 * ids, each one the code raises; a resource that exists; each label in the locales.
 */
import type { WebhooksFile } from '../../runtime/core/generated/meta.ts';
import type { ScreenCheckContext } from '../../runtime/src/screens/check-context.ts';
import { RAISED } from './events.ts';

export function checkWebhooks(file: WebhooksFile, ctx: ScreenCheckContext): void {
  const seen = new Set<string>();
  file.events.forEach((event, i) => {
    const at = (path: string) => `/events/${i}${path}`;
    if (seen.has(event.id)) ctx.problem(at('/id'), `event "${event.id}" is declared twice`);
    seen.add(event.id);
    if (!(RAISED as readonly string[]).includes(event.id)) ctx.problem(at('/id'), `no code raises "${event.id}" (server/webhooks/events.ts RAISED: ${RAISED.join(', ')})`);
    if (event.schema) {
      if (!ctx.schemas[event.schema]) ctx.problem(at('/schema'), `"${event.schema}" is not a schema of schemas/api/`);
    } else if (!ctx.resources[event.resource]) ctx.problem(at('/resource'), `"${event.resource}" is not a resource of schemas/resources/`);
    ctx.needKey(at('/label'), event.label);
  });
}
