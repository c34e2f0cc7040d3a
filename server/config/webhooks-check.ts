/**
 * What the configuration check asks of screens/webhooks.json beyond its meta-schema: unique event
 * ids, each one a write raises (`on`) or the code raises by itself; a resource that exists; each label in the locales.
 */
import type { WebhooksFile } from '../../runtime/core/generated/meta.ts';
import type { ScreenCheckContext } from '../../runtime/core/screen-checks/check-context.ts';

/**
 * The events the code raises by itself, outside the one write path (server/services/write.ts);
 * every other event is raised by the write its declaration's `on` names. A declaration with
 * neither would never fire: the check says so.
 */
export const RAISED_BY_CODE = ['import.finished', 'fuel.anomaly'] as const;

export function checkWebhooks(file: WebhooksFile, ctx: ScreenCheckContext): void {
  const seen = new Set<string>();
  file.events.forEach((event, i) => {
    const at = (path: string) => `/events/${i}${path}`;
    if (seen.has(event.id)) ctx.problem(at('/id'), `event "${event.id}" is declared twice`);
    seen.add(event.id);
    const byCode = (RAISED_BY_CODE as readonly string[]).includes(event.id);
    if (!byCode && !event.on) ctx.problem(at('/on'), `"${event.id}" names no write that raises it (\`on\`: an action of "${event.resource}") and no code raises it (server/webhooks/events.ts RAISED_BY_CODE: ${RAISED_BY_CODE.join(', ')})`);
    if (byCode && event.on) ctx.problem(at('/on'), `"${event.id}" is raised by its own code (server/webhooks/events.ts RAISED_BY_CODE), not by a write`);
    if (event.schema) {
      if (!ctx.schemas[event.schema]) ctx.problem(at('/schema'), `"${event.schema}" is not a schema of schemas/api/`);
    } else if (!ctx.resources[event.resource]) ctx.problem(at('/resource'), `"${event.resource}" is not a resource of schemas/resources/`);
    ctx.needKey(at('/label'), event.label);
  });
}
