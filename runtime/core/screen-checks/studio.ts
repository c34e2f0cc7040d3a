import { screenChecks } from './check-context';

/**
 * Tab ids unique; the documents it edits existing screens (menu, routes, reminders, app) of the
 * kind the tab expects; the screen types it lists as tables and forms existing types of screens.
 */
export const studioChecks = screenChecks('studio', (s, ctx) => {
  const ids = new Set<string>();
  (s.tabs ?? []).forEach((tab: any, i: number) => {
    if (ids.has(tab.id)) ctx.problem(`/tabs/${i}/id`, `tab id "${tab.id}" is used twice`);
    ids.add(tab.id);
  });
  const expected: Record<string, string> = { menu: 'menu', routes: 'routes', reminders: 'reminders', app: 'app' };
  for (const [name, path] of Object.entries<string>(s.documents ?? {})) {
    const match = /^screens\/(.+)\.json$/.exec(path);
    if (!match) {
      ctx.problem(`/documents/${name}`, `"${path}" is not a screen file (screens/<id>.json)`);
      continue;
    }
    const screen = ctx.screens[match[1]];
    if (!screen) ctx.needScreen(`/documents/${name}`, match[1]);
    else if (screen.type !== expected[name]) ctx.problem(`/documents/${name}`, `"${path}" is a ${screen.type} file, not the ${expected[name]} file`);
  }
  const types = new Set(Object.values(ctx.screens).map((x) => x.type));
  for (const list of ['tableTypes', 'formTypes'] as const) {
    (s[list] ?? []).forEach((type: string, i: number) => {
      if (!types.has(type)) ctx.problem(`/${list}/${i}`, `no screen has the type "${type}"`);
    });
  }
  for (const role of s.roles) ctx.needKey('/roleLabels', `${s.roleLabels}.${role}`);
});
