import { fieldLabelKey } from '../../../core/labels.ts';
import { screenChecks } from '../check-context';

/**
 * Every tab's fields against the entity; an embedded table names an existing screen and a parent
 * field; a footer action names an existing screen and a text.
 */
export const detailsDialogChecks = screenChecks('details-dialog', (s, ctx) => {
  (s.actions ?? []).forEach((a: any, i: number) => {
    ctx.needScreen(`/actions/${i}/screen`, a.screen);
    ctx.needKey(`/actions/${i}/label`, a.label);
  });
  s.tabs.forEach((t: any, i: number) => {
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
        if (!f.label) ctx.needKey(ptr, fieldLabelKey(s.entity, f.id));
      }),
    );
  });
});
