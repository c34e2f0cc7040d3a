import { fieldLabelKey } from '../labels.ts';
import { screenChecks } from './check-context';

/** Columns against the entity, the resource behind the table, its preset filters and export. */
export const tableChecks = screenChecks('table', (s, ctx) => {
  const resource = ctx.resources[s.resource];
  if (!resource) ctx.problem('/resource', `resource "${s.resource}" does not exist in schemas/resources`);
  for (const key of ['onRowClick', 'onRowDoubleClick']) {
    const action = s[key];
    if (action?.screen) ctx.needScreen(`/${key}/screen`, action.screen);
    (action?.cases ?? []).forEach((c: any, i: number) => c.action?.screen && ctx.needScreen(`/${key}/cases/${i}/action/screen`, c.action.screen));
  }
  (s.toolbarActions ?? []).forEach((a: any, i: number) => {
    // a button with an `unavailable` text may name a dialog not configured yet (it shows disabled, saying so)
    if (a.unavailable) ctx.needKey(`/toolbarActions/${i}/unavailable`, a.unavailable);
    else if (a.action.screen) ctx.needScreen(`/toolbarActions/${i}/action/screen`, a.action.screen);
    // a mode is a form-dialog's; the dialog must declare it
    const dialog = a.action.screen ? ctx.screens[a.action.screen] : undefined;
    if (a.action.mode && dialog && !(dialog as any).modes?.[a.action.mode]) ctx.problem(`/toolbarActions/${i}/action/mode`, `screen "${a.action.screen}" has no mode "${a.action.mode}"`);
  });
  s.columns.forEach((c: any, i: number) => {
    const field = c.field ?? c.id;
    ctx.needField(`/columns/${i}/${c.field ? 'field' : 'id'}`, s.entity, field);
    ctx.needValueLabels(`/columns/${i}`, s.entity, { ...c, id: field });
    if (!c.header) ctx.needKey(`/columns/${i}`, fieldLabelKey(s.entity, field));
    if (c.headerTooltip) ctx.needKey(`/columns/${i}/headerTooltip`, c.headerTooltip);
    for (const [value, icon] of Object.entries<any>(c.cell?.icons ?? {})) {
      if (icon.text) ctx.needKey(`/columns/${i}/cell/icons/${value}/text`, icon.text);
    }
    if (c.cell?.type === 'files') ctx.needField(`/columns/${i}/cell/link/idField`, s.entity, c.cell.link.idField);
    if (c.cell?.type === 'link') ctx.needField(`/columns/${i}/cell/hrefField`, s.entity, c.cell.hrefField);
  });
  if (new Set(s.columns.map((c: any) => c.id)).size !== s.columns.length) ctx.problem('/columns', 'column ids must be unique (use "field" to show one field twice)');
  // a phone's lines name columns of this table (narrow.ts)
  const columnIds = new Set(s.columns.map((c: any) => c.id));
  (s.narrow?.lines ?? []).forEach((line: any[], i: number) => line.forEach((item, j) => {
    const id = typeof item === 'string' ? item : item.id;
    if (!columnIds.has(id)) ctx.problem(`/narrow/lines/${i}/${j}`, `"${id}" is not a column of this table`);
  }));
  if (s.presetFilter) {
    const options: any[] = s.presetFilter.options;
    if (!options.some((o) => o.id === s.presetFilter.default)) ctx.problem('/presetFilter/default', `"${s.presetFilter.default}" is not one of the options`);
    options.forEach((o, j) => Object.keys(o.filterModel ?? {}).forEach((f) => ctx.needField(`/presetFilter/options/${j}/filterModel/${f}`, s.entity, f)));
  }
  if (s.export === 'xlsx' && resource && !resource.excelExport) {
    ctx.problem('/export', `resource "${s.resource}" offers no Excel export (set "excelExport": true in schemas/resources/${s.resource}.json, or use "csv")`);
  }
  if (s.group && !resource?.groupColumn) ctx.problem('/group', `resource "${s.resource}" declares no groupColumn`);
});
