import { fieldLabelKey } from '../labels.ts';
import { screenChecks, type ScreenCheckContext } from './check-context';

/** An action's dialog must exist and, for a form-dialog mode, declare it; choose checks each case's action. */
function checkAction(ptr: string, action: any, ctx: ScreenCheckContext) {
  if (!action) return;
  if (action.screen) {
    ctx.needScreen(`${ptr}/screen`, action.screen);
    const dialog = ctx.screens[action.screen] as any;
    if (action.mode && dialog && !dialog.modes?.[action.mode]) ctx.problem(`${ptr}/mode`, `screen "${action.screen}" has no mode "${action.mode}"`);
  }
  for (const key of ['confirm', 'success', 'failure']) if (action[key]) ctx.needKey(`${ptr}/${key}`, action[key]);
  (action.confirmFacts ?? []).forEach((f: any, i: number) => f.emptyText && ctx.needKey(`${ptr}/confirmFacts/${i}/emptyText`, f.emptyText));
  (action.cases ?? []).forEach((c: any, i: number) => checkAction(`${ptr}/cases/${i}/action`, c.action, ctx));
}

function checkButtons(ptr: string, buttons: any[] | undefined, ctx: ScreenCheckContext) {
  (buttons ?? []).forEach((b, i) => {
    if (b.label) ctx.needKey(`${ptr}/${i}/label`, b.label);
    else if (!b.forEach) ctx.problem(`${ptr}/${i}`, 'a button needs a label (or forEach with the items\' labels)');
    checkAction(`${ptr}/${i}/action`, b.action, ctx);
  });
}

/** Every tab's fields against the entity; an embedded table names an existing screen and a parent field; lists and buttons. */
export const detailsDialogChecks = screenChecks('details-dialog', (s, ctx) => {
  checkButtons('/actions', s.actions, ctx);
  s.tabs.forEach((t: any, i: number) => {
    if (t.load) {
      for (const m of String(t.load.endpoint).matchAll(/\{(\w+)\}/g)) ctx.needField(`/tabs/${i}/load/endpoint`, s.entity, m[1]!);
    }
    if (t.table) {
      ctx.needScreen(`/tabs/${i}/table/screen`, t.table.screen);
      ctx.needField(`/tabs/${i}/table/srcField`, s.entity, t.table.srcField);
    }
    (t.sections ?? []).forEach((sec: any, j: number) =>
      sec.fields.forEach((f: any, k: number) => {
        const ptr = `/tabs/${i}/sections/${j}/fields/${k}`;
        ctx.needField(`${ptr}/id`, s.entity, f.id);
        ctx.needValueLabels(ptr, s.entity, f);
        if (f.colorField) ctx.needField(`${ptr}/colorField`, s.entity, f.colorField);
        if (f.linkField) ctx.needField(`${ptr}/linkField`, s.entity, f.linkField);
        if (!f.label) ctx.needKey(ptr, fieldLabelKey(s.entity, f.id));
      }),
    );
    (t.lists ?? []).forEach((list: any, j: number) => {
      const ptr = `/tabs/${i}/lists/${j}`;
      if (list.title) ctx.needKey(`${ptr}/title`, list.title);
      if (list.empty) ctx.needKey(`${ptr}/empty`, list.empty);
      list.columns.forEach((c: any, k: number) => {
        if (list.entity) {
          ctx.needField(`${ptr}/columns/${k}/id`, list.entity, c.id);
          ctx.needValueLabels(`${ptr}/columns/${k}`, list.entity, c);
        }
        if (c.label) ctx.needKey(`${ptr}/columns/${k}/label`, c.label);
        else if (list.entity) ctx.needKey(`${ptr}/columns/${k}`, fieldLabelKey(list.entity, c.id));
        else ctx.problem(`${ptr}/columns/${k}`, 'a column of a list without an entity needs a label');
      });
      (list.summary?.fields ?? []).forEach((f: any, k: number) => {
        if (f.label) ctx.needKey(`${ptr}/summary/fields/${k}/label`, f.label);
        else ctx.problem(`${ptr}/summary/fields/${k}`, 'a summary field needs a label');
      });
      checkButtons(`${ptr}/actions`, list.actions, ctx);
      checkButtons(`${ptr}/rowActions`, list.rowActions, ctx);
    });
  });
});
