import { screenChecks, type ScreenCheckContext } from './check-context';

/** Sections reading the reminders API (screens/dashboard.json `reminders`). */
const REMINDER_KINDS = new Set(['tiles', 'list', 'todo', 'strip']);

/** A button's texts and dialog (as a details dialog's: the inbox's buttons are the same declaration). */
function checkButtons(ptr: string, buttons: any[] | undefined, ctx: ScreenCheckContext) {
  (buttons ?? []).forEach((b, i) => {
    if (!b.label && !b.forEach) ctx.problem(`${ptr}/${i}`, "a button needs a label (or forEach with the items' labels)");
    const action = b.action ?? {};
    if (action.screen) ctx.needScreen(`${ptr}/${i}/action/screen`, action.screen);
    for (const key of ['confirm', 'success', 'failure']) if (action[key]) ctx.needKey(`${ptr}/${i}/action/${key}`, action[key]);
    (action.confirmFacts ?? []).forEach((f: any, j: number) => f.emptyText && ctx.needKey(`${ptr}/${i}/action/confirmFacts/${j}/emptyText`, f.emptyText));
  });
}

/** Ids unique (sections and charts merge by id in a variant's overlay), texts present, dialogs and routes existing. */
export const dashboardChecks = screenChecks('dashboard', (s, ctx) => {
  const sections: any[] = s.sections ?? [];
  if (!s.reminders && sections.some((x) => REMINDER_KINDS.has(x.kind))) {
    ctx.problem('/reminders', 'the tiles, list, todo and strip sections read the reminders: declare reminders.summary and reminders.items');
  }
  // the item fields naming the vehicle are fields of a reminder item (issue 45)
  const itemFields = ctx.schemas['reminder-items']?.properties?.items?.items?.properties ?? {};
  for (const [key, name] of Object.entries((s.reminders?.vehicle ?? {}) as Record<string, string>)) {
    if (!Object.hasOwn(itemFields, name)) ctx.problem(`/reminders/vehicle/${key}`, `"${name}" is not a field of a reminder item (schemas/api/reminder-items)`);
  }
  const paths = new Set(((ctx.screens.routes as any)?.routes ?? []).map((r: any) => r.path));
  const ids = new Set<string>();
  sections.forEach((section, i) => {
    const ptr = `/sections/${i}`;
    if (ids.has(section.id)) ctx.problem(`${ptr}/id`, `section id "${section.id}" is used twice`);
    ids.add(section.id);
    if (section.empty) ctx.needKey(`${ptr}/empty`, section.empty);
    switch (section.kind) {
      case 'inbox': {
        const columns: any[] = section.columns ?? [];
        columns.forEach((c, j) => {
          if (c.emptyText) ctx.needKey(`${ptr}/columns/${j}/emptyText`, c.emptyText);
        });
        if (section.open) {
          ctx.needScreen(`${ptr}/open/screen`, section.open.screen);
          if (!columns.some((c) => c.id === section.open.column)) ctx.problem(`${ptr}/open/column`, `"${section.open.column}" is not one of the inbox's columns`);
        }
        checkButtons(`${ptr}/actions`, section.actions, ctx);
        break;
      }
      case 'charts': {
        const charts = new Set<string>();
        (section.charts ?? []).forEach((c: any, j: number) => {
          if (charts.has(c.id)) ctx.problem(`${ptr}/charts/${j}/id`, `chart id "${c.id}" is used twice`);
          charts.add(c.id);
          ctx.needKey(`${ptr}/charts/${j}/xLabel`, c.xLabel);
          if (c.partial?.note) ctx.needKey(`${ptr}/charts/${j}/partial/note`, c.partial.note);
        });
        break;
      }
      case 'strip':
        if (!paths.has(section.link)) ctx.problem(`${ptr}/link`, `"${section.link}" is not the path of a route in screens/routes.json`);
        break;
      case 'notice':
        ctx.needKey(`${ptr}/text`, section.text);
        if (section.link && !paths.has(section.link.route)) ctx.problem(`${ptr}/link/route`, `"${section.link.route}" is not the path of a route in screens/routes.json`);
        break;
      default:
    }
  });
});
