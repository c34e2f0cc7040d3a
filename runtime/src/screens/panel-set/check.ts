import { fieldLabelKey } from '../../../core/labels.ts';
import { screenChecks } from '../check-context';

/** Every panel's fields against the entity, with their texts. */
export const panelSetChecks = screenChecks('panel-set', (s, ctx) => {
  s.panels.forEach((p: any, i: number) =>
    (p.fields ?? []).forEach((f: any, k: number) => {
      ctx.needField(`/panels/${i}/fields/${k}/id`, s.entity, f.id);
      ctx.needValueLabels(`/panels/${i}/fields/${k}`, s.entity, f);
      if (!f.label) ctx.needKey(`/panels/${i}/fields/${k}`, fieldLabelKey(s.entity, f.id));
    }),
  );
});
