/**
 * What the configuration check asks of screens/reminders.json beyond its meta-schema: every name
 * a rule gives exists (its resource, the fields it watches and filters, the colour field, the
 * dialog, tab and table it opens, the action's dialog), its ids are unique and its texts exist.
 * Called by server/config/cross-check.ts, so a broken rule stops start-up and reload with the
 * file and JSON pointer, like any other configuration problem.
 */
import type { RemindersFile } from '../../runtime/core/generated/meta.ts';
import type { ScreenCheckContext } from '../../runtime/core/screen-checks/check-context.ts';

/** The entity the vehicle's columns (`vehicle.x`) are read from. */
const VEHICLE_ENTITY = 'car';

export function checkReminders(file: RemindersFile, ctx: ScreenCheckContext, routePaths: ReadonlySet<string>): void {
  const seen = new Set<string>();
  file.rules.forEach((rule, i) => {
    const at = (path: string) => `/rules/${i}${path}`;
    if (seen.has(rule.id)) ctx.problem(at('/id'), `rule "${rule.id}" is declared twice`);
    seen.add(rule.id);
    const resource = ctx.resources[rule.resource];
    if (!resource) return ctx.problem(at('/resource'), `"${rule.resource}" is not a resource of schemas/resources/`);
    if (resource.parentScope) return ctx.problem(at('/resource'), `"${rule.resource}" reads its rows through parents; a reminder needs a resource of its own scope`);
    const entity = resource.entity;
    const field = (pointer: string, name: string | undefined) => {
      if (name === undefined) return;
      if (name.startsWith('vehicle.')) ctx.needField(pointer, VEHICLE_ENTITY, name.slice('vehicle.'.length));
      else ctx.needField(pointer, entity, name);
    };
    const due = rule.due;
    if (due.kind === 'date') field(at('/due/field'), due.field);
    else if (due.kind === 'distance') {
      field(at('/due/limit'), due.limit);
      field(at('/due/reading'), due.reading);
    } else {
      field(at('/due/end'), due.end);
      field(at('/due/limit'), due.limit);
      field(at('/due/margin'), due.margin);
      field(at('/due/rate'), due.rate);
    }
    if (rule.thresholds.urgent > rule.thresholds.soon) ctx.problem(at('/thresholds'), 'urgent must not be above soon');
    field(at('/vehicleKey'), rule.vehicleKey ?? 'pojazdId');
    for (const name of Object.keys(rule.where ?? {})) field(at(`/where/${name}`), name);
    if (rule.colorField) {
      field(at('/colorField'), rule.colorField);
      if (!file.colors) ctx.problem(at('/colorField'), 'a colour field needs the colors of the file');
    }
    ctx.needKey(at('/label'), rule.label);
    ctx.needKey(at('/message'), rule.message);
    if (rule.due.kind === 'date' && rule.due.whenEmpty) ctx.needKey(at('/due/whenEmpty/message'), rule.due.whenEmpty.message);
    ctx.needScreen(at('/open/screen'), rule.open.screen);
    const dialog = ctx.screens[rule.open.screen];
    if (dialog && dialog.type !== 'details-dialog') ctx.problem(at('/open/screen'), `"${rule.open.screen}" is not a details dialog`);
    if (dialog && rule.open.tab && !(dialog.tabs ?? []).some((t: { id: string }) => t.id === rule.open.tab)) {
      ctx.problem(at('/open/tab'), `"${rule.open.screen}" has no tab "${rule.open.tab}"`);
    }
    field(at('/open/idField'), rule.open.idField);
    if (rule.table && !routePaths.has(rule.table.route)) ctx.problem(at('/table/route'), `"${rule.table.route}" is not the path of a route`);
    if (rule.action) {
      ctx.needKey(at('/action/label'), rule.action.label);
      ctx.needScreen(at('/action/screen'), rule.action.screen);
    }
  });
}
