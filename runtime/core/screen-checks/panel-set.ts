import { fieldLabelKey } from '../labels.ts';
import { screenChecks } from './check-context';

/** Every panel's fields against the entity, with their texts; a dialog action and the dialog of ?open= name existing screens. */
export const panelSetChecks = screenChecks('panel-set', (s, ctx) => {
  if (s.open) ctx.needScreen('/open/screen', s.open.screen);
  s.panels.forEach((p: any, i: number) =>
    (p.actions ?? []).forEach((a: any, k: number) => {
      if (a.screen) ctx.needScreen(`/panels/${i}/actions/${k}/screen`, a.screen);
    }),
  );
  s.panels.forEach((p: any, i: number) =>
    (p.fields ?? []).forEach((f: any, k: number) => {
      ctx.needField(`/panels/${i}/fields/${k}/id`, s.entity, f.id);
      ctx.needValueLabels(`/panels/${i}/fields/${k}`, s.entity, f);
      if (!f.label) ctx.needKey(`/panels/${i}/fields/${k}`, fieldLabelKey(s.entity, f.id));
    }),
  );
});
