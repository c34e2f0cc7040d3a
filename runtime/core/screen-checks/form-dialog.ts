import { screenChecks } from './check-context';
import { checkFormFields, namespaceOfKey } from './form';

/** The fields against the request schema (as a form's), the modes' texts and values, the buttons' dialogs. */
export const formDialogChecks = screenChecks('form-dialog', (s, ctx) => {
  checkFormFields({ ...s, values: undefined }, ctx, namespaceOfKey(s.title, ctx.id));
  for (const [name, mode] of Object.entries<any>(s.modes)) {
    const schema = mode.schema ?? s.schema;
    if (mode.schema && !ctx.schemas[mode.schema]) ctx.problem(`/modes/${name}/schema`, `schema "${mode.schema}" does not exist`);
    for (const field of Object.keys(mode.values ?? {})) ctx.needField(`/modes/${name}/values/${field}`, schema, field);
    for (const field of mode.clear ?? []) ctx.needField(`/modes/${name}/clear`, schema, field);
  }
  (s.buttons ?? []).forEach((b: any, i: number) => {
    if (b.dialog) ctx.needScreen(`/buttons/${i}/dialog`, b.dialog);
    if (!b.dialog && !b.request) ctx.problem(`/buttons/${i}`, 'a button needs a request or a dialog');
  });
  (s.computed ?? []).forEach((c: any, i: number) => ctx.needKey(`/computed/${i}/label`, c.label));
  s.fields.forEach((f: any, i: number) => {
    if (f.widget === 'autocomplete' && !f.source) ctx.problem(`/fields/${i}/source`, 'an autocomplete field needs its source');
  });
});
