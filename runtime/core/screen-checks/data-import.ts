import { screenChecks } from './check-context';
import { TEXT_KEYS } from '../screen-texts/data-import';

/**
 * Every fixed text of the type present in the screen's namespace; the steps' ids unique and each
 * kind once (the screen knows each step's work once); counts and choices named once.
 */
export const dataImportChecks = screenChecks('data-import', (s, ctx) => {
  for (const key of TEXT_KEYS) ctx.needKey('/texts', `${s.texts}:${key}`);
  const ids = new Set<string>();
  const kinds = new Set<string>();
  (s.steps ?? []).forEach((step: any, i: number) => {
    if (ids.has(step.id)) ctx.problem(`/steps/${i}/id`, `step id "${step.id}" is used twice`);
    if (kinds.has(step.kind)) ctx.problem(`/steps/${i}/kind`, `the step kind "${step.kind}" is used twice`);
    ids.add(step.id);
    kinds.add(step.kind);
  });
  const counts = new Set<string>();
  (s.counts ?? []).forEach((c: any, i: number) => {
    if (counts.has(c.id)) ctx.problem(`/counts/${i}/id`, `the count "${c.id}" is shown twice`);
    counts.add(c.id);
  });
  for (const list of ['onError', 'missing'] as const) {
    const values = new Set<string>();
    (s.choices?.[list] ?? []).forEach((c: any, i: number) => {
      if (values.has(c.value)) ctx.problem(`/choices/${list}/${i}/value`, `the choice "${c.value}" is offered twice`);
      values.add(c.value);
    });
  }
  (s.history?.columns ?? []).forEach((c: any, i: number) => {
    if (c.valueLabels && c.id === 'state') for (const v of ['queued', 'running', 'succeeded', 'failed', 'cancelled']) ctx.needKey(`/history/columns/${i}/valueLabels`, `${c.valueLabels}.${v}`);
    if (c.valueLabels && c.id === 'mode') for (const v of ['dryRun', 'import']) ctx.needKey(`/history/columns/${i}/valueLabels`, `${c.valueLabels}.${v}`);
  });
});
