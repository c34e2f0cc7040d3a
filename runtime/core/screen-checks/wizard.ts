import { fieldLabelKey } from '../labels.ts';
import { screenChecks, type ScreenCheckContext } from './check-context';
import { namespaceOfKey } from './form';

type Schema = Record<string, any>;

/** The fields of a form of the wizard against the properties they edit; their labels and options' texts. */
function checkFields(fields: any[], props: Schema | undefined, at: string, ns: string, ctx: ScreenCheckContext) {
  fields.forEach((f, i) => {
    if (!props || !Object.hasOwn(props, f.id)) ctx.problem(`${at}/${i}/id`, `"${f.id}" is not a property of what this form edits`);
    ctx.needKey(`${at}/${i}`, f.label ?? fieldLabelKey(ns, f.id));
    (f.options ?? []).forEach((o: any, j: number) => ctx.needKey(`${at}/${i}/options/${j}`, o.label));
  });
}

/**
 * A wizard against its request schema: the record's fields, each list's item fields and columns,
 * the texts of steps, lists, questions and outcomes, the properties its body sends.
 */
export const wizardChecks = screenChecks('wizard', (s, ctx) => {
  const ns = s.labels ?? namespaceOfKey(s.title, ctx.id);
  const props: Schema = ctx.schemas[s.schema]?.properties ?? {};
  if (!ctx.schemas[s.schema]) ctx.problem('/schema', `request schema "${s.schema}" does not exist`);
  s.steps.forEach((step: any, i: number) => {
    const at = `/steps/${i}`;
    (step.actions ?? []).forEach((a: any, j: number) => {
      ctx.needKey(`${at}/actions/${j}`, a.label);
      if (!ctx.screens[a.screen]) ctx.problem(`${at}/actions/${j}/screen`, `screen "${a.screen}" does not exist`);
    });
    for (const key of [step.label, step.intro, step.beforeNext?.whenEmpty, step.list?.addLabel, step.list?.empty]) if (key) ctx.needKey(at, key);
    if (step.fields) checkFields(step.fields, s.recordIsRequest ? props : props[s.record]?.properties, `${at}/fields`, ns, ctx);
    const list = step.list;
    if (list) {
      const item = (list.itemSchema ? ctx.schemas[list.itemSchema.split('#')[0]] : props[list.path]?.items)?.properties;
      checkFields(list.fields, item, `${at}/list/fields`, list.labels ?? ns, ctx);
      // the net column is computed, not a property
      list.columns.forEach((c: any, j: number) => checkFields([c], c.net ? { [c.id]: {} } : item, `${at}/list/columns/${j}`, list.labels ?? ns, ctx));
    }
  });
  for (const key of [...s.submit.outcomes.map((o: any) => o.toast), s.submit.failureToast, ...(s.submit.then ?? []).map((c: any) => c.failureToast)]) if (key) ctx.needKey('/submit', key);
  // a follow-up goes over a list of a step; an upload's list has a file field to send
  (s.submit.then ?? []).forEach((call: any, i: number) => {
    // a checklist's photos are a list with a file each
    if (s.steps.some((step: any) => step.checklist?.photos === call.each)) return;
    const list = s.steps.find((step: any) => step.list?.path === call.each)?.list;
    if (!list) ctx.problem(`/submit/then/${i}/each`, `"${call.each}" is not the path of a list step`);
    else if (call.encoding === 'multipart' && !list.fields.some((f: any) => f.widget === 'file')) ctx.problem(`/submit/then/${i}/encoding`, `the list "${call.each}" has no file field to upload`);
  });
  for (const p of Object.keys(s.submit.body)) if (!props[p]) ctx.problem(`/submit/body/${p}`, `"${p}" is not a property of ${s.schema}`);
});
