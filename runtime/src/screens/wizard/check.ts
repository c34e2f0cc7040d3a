import { fieldLabelKey } from '../../../core/labels.ts';
import { screenChecks, type ScreenCheckContext } from '../check-context';
import { namespaceOfKey } from '../form/check';

type Schema = Record<string, any>;

/** Fields of a form part of a wizard against the properties of the schema they edit, and their texts. */
function checkFields(fields: any[], props: Schema, pointer: string, namespace: string, what: string, ctx: ScreenCheckContext) {
  fields.forEach((f, i) => {
    if (!Object.hasOwn(props, f.id)) ctx.problem(`${pointer}/${i}/id`, `"${f.id}" is not a property of ${what}`);
    if (!f.label) ctx.needKey(`${pointer}/${i}`, fieldLabelKey(namespace, f.id));
    else ctx.needKey(`${pointer}/${i}/label`, f.label);
    (f.options ?? []).forEach((o: any, j: number) => ctx.needKey(`${pointer}/${i}/options/${j}/label`, o.label));
    if (f.widget === 'autocomplete' && !f.source) ctx.problem(`${pointer}/${i}/source`, 'an autocomplete field needs its source');
  });
}

/**
 * A wizard's steps against its request schema: the record and its fields, each list and its item's
 * fields and columns, the texts of steps, outcomes and questions, unique step ids.
 */
export const wizardChecks = screenChecks('wizard', (s, ctx) => {
  const namespace = s.labels ?? namespaceOfKey(s.title, ctx.id);
  const request: Schema | undefined = ctx.schemas[s.schema];
  if (!request) return ctx.problem('/schema', `request schema "${s.schema}" does not exist`);
  const recordProps: Schema | undefined = request.properties?.[s.record]?.properties;
  if (!recordProps) ctx.problem('/record', `"${s.record}" is not an object property of ${s.schema}`);
  const ids = new Set<string>();
  s.steps.forEach((step: any, i: number) => {
    const at = `/steps/${i}`;
    if (ids.has(step.id)) ctx.problem(`${at}/id`, `step "${step.id}" appears twice`);
    ids.add(step.id);
    ctx.needKey(`${at}/label`, step.label);
    if (step.intro) ctx.needKey(`${at}/intro`, step.intro);
    if (step.kind === 'fields' && recordProps) checkFields(step.fields ?? [], recordProps, `${at}/fields`, namespace, `${s.schema}#${s.record}`, ctx);
    if (step.kind === 'list' && step.list) {
      const list = step.list;
      const itemId = list.itemSchema ? list.itemSchema.split('#')[0] : null;
      const item: Schema | undefined = itemId ? ctx.schemas[itemId] : request.properties?.[list.path]?.items;
      if (!item?.properties) ctx.problem(`${at}/list`, `no item schema for the list "${list.path}"`);
      else {
        const labels = list.labels ?? namespace;
        checkFields(list.fields, item.properties, `${at}/list/fields`, labels, `the items of ${list.path}`, ctx);
        list.columns.forEach((c: any, j: number) => {
          if (!c.net && !Object.hasOwn(item.properties, c.id)) ctx.problem(`${at}/list/columns/${j}/id`, `"${c.id}" is not a property of the items of ${list.path}`);
          ctx.needKey(`${at}/list/columns/${j}`, c.label ?? fieldLabelKey(labels, c.id));
        });
      }
      for (const key of [list.addLabel, list.empty]) if (key) ctx.needKey(`${at}/list`, key);
    }
    if (step.beforeNext?.whenEmpty) ctx.needKey(`${at}/beforeNext/whenEmpty`, step.beforeNext.whenEmpty);
  });
  s.submit.outcomes.forEach((o: any, i: number) => ctx.needKey(`/submit/outcomes/${i}/toast`, o.toast));
  if (s.submit.failureToast) ctx.needKey('/submit/failureToast', s.submit.failureToast);
  for (const property of Object.keys(s.submit.body)) {
    if (!Object.hasOwn(request.properties ?? {}, property)) ctx.problem(`/submit/body/${property}`, `"${property}" is not a property of ${s.schema}`);
  }
});
