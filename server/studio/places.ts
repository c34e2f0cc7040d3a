/**
 * Where a text is shown, in the words of the screens (issue 38): "Dane pojazdu → kolumna",
 * "Zlecenia → formularz „Edycja zlecenia”". The configuration studio lists a found text by these
 * places, its key only beside them, and names the namespaces of texts as the menu names the screens.
 *
 * The text keys a screen uses are the ones the configuration check asks for (server/config/cross-check.ts
 * `onKey`): named in the file or given by default (a column's header is its entity's field label).
 * A screen's place is the menu entry (or page title) of the route that shows it, or of the route
 * whose screen opens it (a dialog from a table's row, a form from a dialog's button); the kind of
 * place is the screen's type or the part of it (a table's column, a button), worded in
 * locales/pl/config-studio.json `places`.
 */
import { menuItemKey } from '../../runtime/core/labels.ts';
import type { Bundle, Screen } from '../config/bundle.ts';
import { fileOfType } from '../config/screen-files.ts';
import { crossCheck } from '../config/cross-check.ts';

type Translate = (key: string, vars?: Record<string, unknown>) => string;

export interface TextPlaces {
  /** Where the key's text is shown, at most `limit` places (the namespace's name when no screen names it). */
  placesOf(key: string, limit?: number): string[];
  /** Each namespace of texts by the name of its screens, unique. */
  namespaceNames: Record<string, string>;
}

/** Keys that refer to another screen by its id (a row's dialog, a button's form, a route's screen). */
const SCREEN_REFS = new Set(['screen', 'dialog', 'openDialog']);
/** The kinds of place a screen type is, as words of config-studio:places. */
const TYPE_PLACES: Record<string, string> = {
  table: 'table', form: 'form', 'form-dialog': 'form', wizard: 'form', 'details-dialog': 'details', dashboard: 'dashboard',
  'panel-set': 'panels', login: 'login', menu: 'menu', routes: 'page', 'terms-dialog': 'dialog', 'button-modal': 'dialog', action: 'page',
};

const nsOf = (key: string) => key.slice(0, Math.max(0, key.indexOf(':')));
const screenIdOf = (file: string) => /^screens\/([^/]+)\.json$/.exec(file)?.[1];
/** A title that needs the record's values (Zlecenie {{nr}}) says nothing without them. */
const usable = (text: string | undefined) => (text && !text.includes('{{') ? text : undefined);

/** Every string under one of `keys`, wherever it is in the document. */
function valuesAt(doc: unknown, keys: Set<string>, out: string[] = [], key?: string): string[] {
  if (Array.isArray(doc)) doc.forEach((v) => valuesAt(v, keys, out, key));
  else if (doc && typeof doc === 'object') for (const [k, v] of Object.entries(doc)) valuesAt(v, keys, out, k);
  else if (typeof doc === 'string' && key && keys.has(key)) out.push(doc);
  return out;
}

/** The kind of place a pointer of a screen is: a column, a button, a title, else the screen's type. */
function kindOf(screen: Screen | undefined, pointer: string): string {
  const type = screen?.type ?? '';
  if (type === 'table' && pointer.startsWith('/columns/')) return 'column';
  if (/\/(toolbarActions|buttons|actions)\//.test(pointer) || pointer.startsWith('/submit')) return 'button';
  if (pointer === '/title' && type !== 'routes') return 'title';
  if (pointer === '/help' || pointer === '/intro') return 'help';
  if (type === 'details-dialog' && /\/tabs\/\d+$/.test(pointer)) return 'tab';
  return TYPE_PLACES[type] ?? 'screen';
}

/**
 * The places of every text of a configuration: `parts` as the bundle holds them (every screen,
 * schema, resource and the Polish texts), `t` its translator.
 */
export function textPlaces(parts: Pick<Bundle, 'screens' | 'schemas' | 'resources' | 'locales'>, t: Translate): TextPlaces {
  const screens = parts.screens;
  const locales = parts.locales.pl;
  const word = (kind: string) => t(`config-studio:places.${kind}`);

  // the routes with a name, in the order of the routes file (the menu's order, mostly)
  const menuLabels = new Map<string, string>();
  for (const group of fileOfType(screens.menu, 'menu')?.groups ?? []) {
    for (const item of group.items ?? []) if (!menuLabels.has(item.route)) menuLabels.set(item.route, t(item.label ?? menuItemKey(item.id)));
  }
  const homes = new Map<string, string[]>();
  const addHome = (screenId: string, name: string) => {
    const list = homes.get(screenId) ?? [];
    if (!list.includes(name)) homes.set(screenId, [...list, name]);
  };
  const routed = new Set<string>();
  for (const route of fileOfType(screens.routes, 'routes')?.routes ?? []) {
    const name = menuLabels.get(route.path) ?? (route.title ? t(route.title) : undefined);
    const shown = [route.screen, ...(route.screens ?? []).flatMap((c) => [c.screen, ...[...(c.before ?? []), ...(c.after ?? [])].map((x) => x.screen)])]
      .filter((id): id is string => typeof id === 'string' && id in screens);
    for (const id of shown) {
      routed.add(id);
      if (name) addHome(id, name);
    }
  }
  // a screen opened from another is shown where that one is (breadth first from the routed ones)
  const opens = new Map<string, string[]>(
    Object.entries(screens).map(([id, doc]) => [id, [...new Set(valuesAt(doc, SCREEN_REFS))].filter((ref) => ref !== id && ref in screens)]),
  );
  let frontier = [...homes.keys()];
  const seen = new Set(frontier);
  while (frontier.length) {
    const next: string[] = [];
    for (const id of frontier) {
      for (const child of opens.get(id) ?? []) {
        for (const name of homes.get(id) ?? []) addHome(child, name);
        if (!seen.has(child)) {
          seen.add(child);
          next.push(child);
        }
      }
    }
    frontier = next;
  }
  const titleOf = (id: string) => usable(typeof screens[id]?.title === 'string' ? t(screens[id].title) : undefined);
  /** Where a screen is, in words: its routes' names, else its own title. */
  const homesOf = (id: string) => homes.get(id) ?? [titleOf(id) ?? id];

  // the keys each screen uses, named or by default, as the configuration check finds them
  const uses = new Map<string, { screen: string; pointer: string }[]>();
  crossCheck({
    screens: parts.screens, schemas: parts.schemas, resources: parts.resources, locales,
    conditions: (screens.conditions ?? { $defs: {} }) as Record<string, unknown>,
    onKey: (file, pointer, key) => {
      const screen = screenIdOf(file);
      if (!screen) return;
      const list = uses.get(key) ?? [];
      if (!list.some((u) => u.screen === screen && kindOf(screens[screen], u.pointer) === kindOf(screens[screen], pointer))) list.push({ screen, pointer });
      uses.set(key, list);
    },
  });

  // each namespace by where its screens are: a routed screen's menu name, else a screen's own title
  const namespaceNames: Record<string, string> = {};
  const taken = new Set<string>();
  for (const ns of Object.keys(locales).sort()) {
    const own = Object.keys(screens).filter((id) => typeof screens[id].title === 'string' && nsOf(screens[id].title) === ns);
    const main = own.filter((id) => screens[id].title === `${ns}:title`);
    const candidates = [
      // a name the texts give the namespace (an analyst's choice) comes first
      t(`config-studio:namespaceNames.${ns}`, { defaultValue: '' }) || undefined,
      ...main.filter((id) => routed.has(id)).flatMap((id) => homes.get(id) ?? []),
      ...own.filter((id) => routed.has(id)).flatMap((id) => homes.get(id) ?? []),
      ...main.map(titleOf),
      ...own.map(titleOf),
    ].filter((name): name is string => Boolean(name));
    const name = candidates.find((c) => !taken.has(c)) ?? (candidates[0] ? `${candidates[0]} (${ns})` : ns);
    taken.add(name);
    namespaceNames[ns] = name;
  }

  return {
    namespaceNames,
    placesOf(key, limit = 3) {
      const out: string[] = [];
      // the places of the key's own namespace first (an order's field in Zlecenia before the Pulpit)
      const home = namespaceNames[nsOf(key)];
      // then a routed screen's place (a table's column) before a dialog's
      const first = (u: { screen: string }) => (homesOf(u.screen).includes(home) ? 0 : 2) + (routed.has(u.screen) ? 0 : 1);
      for (const { screen, pointer } of [...(uses.get(key) ?? [])].sort((a, b) => first(a) - first(b))) {
        const doc = screens[screen];
        const kind = kindOf(doc, pointer);
        // a dialog or an embedded form is named by its title beside where it opens
        const own = !routed.has(screen) && kind !== 'title' && doc?.type !== 'menu' ? titleOf(screen) : undefined;
        const route = fileOfType(doc, 'routes')?.routes[Number(/^\/routes\/(\d+)/.exec(pointer)?.[1])];
        const where = doc?.type === 'menu' ? [word('sideMenu')] : route ? [menuLabels.get(route.path) ?? (route.title ? t(route.title) : route.path)] : homesOf(screen);
        // a dialog's title: the dialog, then what of it
        const what = kind === 'title' && !routed.has(screen) ? `${word(TYPE_PLACES[doc?.type ?? ''] ?? 'screen')} — ${word('title')}` : word(kind);
        const places = [...where].sort((a, b) => Number(b === home) - Number(a === home)).map((name) => `${name} → ${what}${own && own !== name ? ` „${own}”` : ''}`);
        for (const place of places) if (!out.includes(place)) out.push(place);
      }
      if (!out.length) out.push(namespaceNames[nsOf(key)] ?? nsOf(key));
      return out.slice(0, limit);
    },
  };
}
