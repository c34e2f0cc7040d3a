/**
 * What the configuration check asks of screens/fuel-anomalies.json beyond its meta-schema: rule
 * ids unique, their texts present, a consumption range whose min is not above its max, and the
 * notification and webhook event it announces with declared where they belong (the notification
 * with the fuelAnomaliesFound trigger). Called by server/config/cross-check.ts, so a broken rule
 * stops start-up and reload naming the file and JSON pointer.
 */
import type { FuelAnomaliesFile } from '../../runtime/core/generated/meta.ts';
import type { ScreenCheckContext } from '../../runtime/core/screen-checks/check-context.ts';

export function checkFuelAnomalies(file: FuelAnomaliesFile, ctx: ScreenCheckContext): void {
  const seen = new Set<string>();
  file.rules.forEach((rule, i) => {
    const at = (path: string) => `/rules/${i}${path}`;
    if (seen.has(rule.id)) ctx.problem(at('/id'), `rule "${rule.id}" is declared twice`);
    seen.add(rule.id);
    ctx.needKey(at('/label'), rule.label);
    ctx.needKey(at('/message'), rule.message);
    if (rule.kind === 'consumption' && rule.range && rule.range.min > rule.range.max) ctx.problem(at('/range'), 'min must not be above max');
  });
  const notifications = ctx.screens.notifications as { events?: { id: string; trigger: { kind: string } }[] } | undefined;
  const event = notifications?.events?.find((e) => e.id === file.announce.notification);
  if (!event) ctx.problem('/announce/notification', `"${file.announce.notification}" is not an event of screens/notifications.json`);
  else if (event.trigger.kind !== 'fuelAnomaliesFound') ctx.problem('/announce/notification', `"${file.announce.notification}" is not triggered by fuelAnomaliesFound`);
  const webhooks = ctx.screens.webhooks as { events?: { id: string; resource: string }[] } | undefined;
  const hook = webhooks?.events?.find((e) => e.id === file.announce.webhook);
  if (!hook) ctx.problem('/announce/webhook', `"${file.announce.webhook}" is not an event of screens/webhooks.json`);
  else if (hook.resource !== 'fuel-anomaly') ctx.problem('/announce/webhook', `"${file.announce.webhook}" does not carry a fuel-anomaly`);
}
