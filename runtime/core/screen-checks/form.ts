import { fieldLabelKey } from '../labels.ts';
import { screenChecks, type ScreenCheckContext } from './check-context';

/** The namespace of a screen's own texts: that of its title key (`password:changeTitle` → `password`). */
export function namespaceOfKey(key: string | undefined, fallback: string): string {
  const i = key?.indexOf(':') ?? -1;
  return i > 0 ? key!.slice(0, i) : fallback;
}

/** A form's fields against its request schema, its texts, and the dialogs it may open (login shares it). */
export function checkFormFields(s: Record<string, any>, ctx: ScreenCheckContext, namespace: string) {
  if (!ctx.schemas[s.schema]) ctx.problem('/schema', `request schema "${s.schema}" does not exist`);
  const ids = new Set(s.fields.map((f: any) => f.id));
  s.fields.forEach((f: any, i: number) => {
    if (!f.formOnly) ctx.needField(`/fields/${i}/id`, s.schema, f.id);
    if (f.sameAs && !ids.has(f.sameAs)) ctx.problem(`/fields/${i}/sameAs`, `field "${f.sameAs}" is not a field of this form`);
    // a field declared hidden is never drawn, so it has no label to find
    if (!f.label && !f.hidden) ctx.needKey(`/fields/${i}`, fieldLabelKey(namespace, f.id));
    // one checkbox per key of the data: the keys are known only at run time, their label template now
    if (f.widget === 'checkboxList' && !f.source) ctx.problem(`/fields/${i}/source`, 'a checkboxList field needs a source (the GET answering its choices)');
    if (f.widget === 'checkboxMap' && !f.itemLabel) ctx.problem(`/fields/${i}/itemLabel`, 'a checkboxMap field needs an itemLabel (e.g. "notifications:events.{key}.label")');
  });
  for (const name of Object.keys(s.values ?? {})) ctx.needField(`/values/${name}`, s.schema, name);
  (s.links ?? []).forEach((l: any, i: number) => ctx.needScreen(`/links/${i}/dialog`, l.dialog));
  for (const [q, dialog] of Object.entries(s.queryDialogs ?? {})) ctx.needScreen(`/queryDialogs/${q}`, dialog as string);
  if (s.onSuccess?.openDialog) ctx.needScreen('/onSuccess/openDialog', s.onSuccess.openDialog);
}

export const formChecks = screenChecks('form', (screen, ctx) => checkFormFields(screen, ctx, namespaceOfKey(screen.title, ctx.id)));
