/**
 * What the configuration check asks of screens/inspections.json beyond its meta-schema: ids unique
 * (checklists; items within a checklist, as the answers are keyed by them), every text present, a
 * measure whose bounds make sense, the checklists `use` names exist, a periodic inspection's
 * reminder rule watches the vehicle's last inspection day (car.kontrolaData), the groups onFailure
 * names exist, and the notification and webhook event it announces are declared where they belong.
 * Called by server/config/cross-check.ts, so a broken checklist stops start-up and reload naming
 * the file and JSON pointer.
 */
import type { InspectionsFile } from '../../runtime/core/generated/meta.ts';
import type { ScreenCheckContext } from '../../runtime/core/screen-checks/check-context.ts';

export function checkInspections(file: InspectionsFile, ctx: ScreenCheckContext): void {
  const checklists = new Set<string>();
  const groups = new Set<string>();
  file.checklists.forEach((checklist, c) => {
    const at = (path: string) => `/checklists/${c}${path}`;
    if (checklists.has(checklist.id)) ctx.problem(at('/id'), `checklist "${checklist.id}" is declared twice`);
    checklists.add(checklist.id);
    ctx.needKey(at('/label'), checklist.label);
    if (checklist.intro) ctx.needKey(at('/intro'), checklist.intro);
    const items = new Set<string>();
    checklist.groups.forEach((group, g) => {
      groups.add(group.id);
      ctx.needKey(at(`/groups/${g}/label`), group.label);
      group.items.forEach((item, i) => {
        const ip = (path: string) => at(`/groups/${g}/items/${i}${path}`);
        if (items.has(item.id)) ctx.problem(ip('/id'), `item "${item.id}" is in checklist "${checklist.id}" twice`);
        items.add(item.id);
        ctx.needKey(ip('/label'), item.label);
        if (item.help) ctx.needKey(ip('/help'), item.help);
        const m = item.measure;
        if (m) {
          ctx.needKey(ip('/measure/label'), m.label);
          if (m.min >= m.max) ctx.problem(ip('/measure'), 'min must be below max');
          if (m.failBelow !== undefined && (m.failBelow < m.min || m.failBelow > m.max)) ctx.problem(ip('/measure/failBelow'), 'failBelow must lie between min and max');
        }
      });
    });
  });
  const needChecklist = (pointer: string, id: string) => {
    if (!checklists.has(id)) ctx.problem(pointer, `"${id}" is not a checklist of this file`);
  };
  needChecklist('/use/handover', file.use.handover);
  needChecklist('/use/return', file.use.return);
  const reminders = ctx.screens.reminders as { rules?: { id: string; resource: string; due: { kind: string; field?: string } }[] } | undefined;
  file.use.periodic.forEach((p, i) => {
    needChecklist(`/use/periodic/${i}/checklist`, p.checklist);
    const rule = reminders?.rules?.find((r) => r.id === p.reminder);
    if (!rule) ctx.problem(`/use/periodic/${i}/reminder`, `"${p.reminder}" is not a rule of screens/reminders.json`);
    else if (rule.resource !== 'car' || rule.due.kind !== 'date' || rule.due.field !== 'kontrolaData') {
      ctx.problem(`/use/periodic/${i}/reminder`, `"${p.reminder}" must be a date rule of resource car watching kontrolaData`);
    }
  });
  file.onFailure.forEach((rule, i) => {
    (rule.groups ?? []).forEach((g, j) => {
      if (!groups.has(g)) ctx.problem(`/onFailure/${i}/groups/${j}`, `"${g}" is not a group of any checklist`);
    });
  });
  const notifications = ctx.screens.notifications as { events?: { id: string; trigger: { kind: string } }[] } | undefined;
  const event = notifications?.events?.find((e) => e.id === file.announce.notification);
  if (!event) ctx.problem('/announce/notification', `"${file.announce.notification}" is not an event of screens/notifications.json`);
  else if (event.trigger.kind !== 'inspectionFailed') ctx.problem('/announce/notification', `"${file.announce.notification}" is not triggered by inspectionFailed`);
  const webhooks = ctx.screens.webhooks as { events?: { id: string; resource: string; on?: string }[] } | undefined;
  const hook = webhooks?.events?.find((e) => e.id === file.announce.webhook);
  if (!hook) ctx.problem('/announce/webhook', `"${file.announce.webhook}" is not an event of screens/webhooks.json`);
  else if (hook.resource !== 'inspection' || hook.on !== 'submit') ctx.problem('/announce/webhook', `"${file.announce.webhook}" must carry an inspection, on submit`);
}
