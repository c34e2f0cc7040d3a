/**
 * Which tests a change touches, for `npm run test:changed` (tools/test-changed.ts): the unit and API
 * tests Vitest relates to the changed modules by their imports (`vitest --changed`), and here, what
 * no import graph shows — the configuration's JSON is read from disk, not imported:
 * - a screen file (screens/x.json, or a variant's overlay of it) → the routes that show it, found by
 *   following the screens that name other screens (a table names its details dialog, a wizard its
 *   steps), and the journeys that open those routes' paths;
 * - a locale file (locales/pl/ns.json) → the screens whose texts come from that namespace (`ns:…`);
 * - a schema (schemas/**\/x.json) → the screens that name it (its file name, or its entity/resource);
 * - runtime code of one kind of screen (runtime/src/screens/table/…) → the screens of that type;
 * - a journey itself → that journey.
 * Runtime code shared by every screen (the shell, the state, the start-up) and changes to routes.json
 * or menu.json run the journeys of signing in and the menu (SMOKE_JOURNEYS).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';

/** The journeys that see every page's frame: the shell, the menu, signing in, the console and axe on each screen. */
export const SMOKE_JOURNEYS = ['tests/browser/sign-in-and-menu.spec.ts', 'tests/browser/console-errors.spec.ts', 'tests/browser/accessibility.spec.ts'];

export interface Selection {
  /** Journey files to run, repository-relative, sorted. */
  journeys: string[];
  /** Why each journey was chosen (for the developer reading the output). */
  reasons: Map<string, string>;
  /** True when the configuration changed: its own tests (tests/config) and check run too. */
  configChanged: boolean;
}

interface ScreenFile {
  id: string;
  type: string | undefined;
  /** Every string value of the file: other screens' ids, `ns:key` texts, schema names. */
  strings: Set<string>;
}

function stringsOf(value: unknown, out: Set<string>): Set<string> {
  if (typeof value === 'string') out.add(value);
  else if (Array.isArray(value)) for (const v of value) stringsOf(v, out);
  else if (value && typeof value === 'object') for (const [k, v] of Object.entries(value)) { out.add(k); stringsOf(v, out); }
  return out;
}

function readScreens(root: string): Map<string, ScreenFile> {
  const screens = new Map<string, ScreenFile>();
  for (const name of readdirSync(join(root, 'screens')).filter((n) => n.endsWith('.json'))) {
    const json = JSON.parse(readFileSync(join(root, 'screens', name), 'utf8')) as Record<string, unknown>;
    const id = basename(name, '.json');
    screens.set(id, { id, type: typeof json.type === 'string' ? json.type : undefined, strings: stringsOf(json, new Set()) });
  }
  return screens;
}

/** Route path → the screens it shows directly. */
function readRoutes(root: string): Map<string, string[]> {
  const json = JSON.parse(readFileSync(join(root, 'screens', 'routes.json'), 'utf8')) as { routes: Array<{ path?: string; screen?: string; screens?: Array<{ screen: string; before?: Array<{ screen: string }> }> }> };
  const routes = new Map<string, string[]>();
  for (const r of json.routes) {
    if (!r.path) continue;
    const direct = [r.screen, ...(r.screens ?? []).flatMap((s) => [s.screen, ...(s.before ?? []).map((b) => b.screen)])].filter((s): s is string => !!s);
    if (direct.length) routes.set(r.path, direct);
  }
  return routes;
}

/** Every screen a route shows, directly or through the screens they name (details, steps, dialogs). */
function screensOfRoute(direct: string[], screens: Map<string, ScreenFile>): Set<string> {
  const seen = new Set<string>();
  const queue = [...direct];
  while (queue.length) {
    const id = queue.pop()!;
    if (seen.has(id) || !screens.has(id)) continue;
    seen.add(id);
    for (const s of screens.get(id)!.strings) if (screens.has(s) && !seen.has(s)) queue.push(s);
  }
  return seen;
}

/** The screens a changed file is part of (empty when the file is no screen, locale, schema or screen runtime). */
function screensOfFile(file: string, screens: Map<string, ScreenFile>): string[] {
  const variantScreen = /^client-variants\/[^/]+\/screens\/([^/]+)\.json$/.exec(file);
  const screen = /^screens\/([^/]+)\.json$/.exec(file) ?? variantScreen;
  if (screen) return screens.has(screen[1]) ? [screen[1]] : [];
  const locale = /^(?:client-variants\/[^/]+\/)?locales\/[^/]+\/([^/]+)\.json$/.exec(file);
  if (locale) return [...screens.values()].filter((s) => [...s.strings].some((x) => x.startsWith(`${locale[1]}:`))).map((s) => s.id);
  const schema = /^schemas\/(?!meta\/)(?:[^/]+\/)*([^/]+?)(?:\.schema)?\.json$/.exec(file);
  if (schema) return [...screens.values()].filter((s) => s.strings.has(schema[1])).map((s) => s.id);
  const kind = /^runtime\/src\/screens\/([^/]+)\//.exec(file);
  if (kind) return [...screens.values()].filter((s) => s.type === kind[1] || s.id === kind[1]).map((s) => s.id);
  return [];
}

const isShared = (file: string) =>
  /^runtime\/src\/(?!screens\/)/.test(file) || /^runtime\/(index\.html|vite\.config\.ts)$/.test(file) || /^screens\/(routes|menu|app|conditions)\.json$/.test(file);

/** The journeys a set of changed files touches. `specs` are the journey files' paths and texts. */
export function selectJourneys(root: string, changed: string[], specs: Map<string, string>): Selection {
  const screens = readScreens(root);
  const routes = readRoutes(root);
  const reasons = new Map<string, string>();
  const add = (spec: string, why: string) => { if (!reasons.has(spec)) reasons.set(spec, why); };

  const touched = new Map<string, string>(); // screen id → the changed file that touched it
  for (const file of changed) {
    if (specs.has(file)) add(file, 'changed itself');
    if (isShared(file)) for (const s of SMOKE_JOURNEYS) add(s, `${file} is shared by every screen`);
    for (const id of screensOfFile(file, screens)) if (!touched.has(id)) touched.set(id, file);
  }
  if (touched.size) {
    for (const [path, direct] of routes) {
      const shown = screensOfRoute(direct, screens);
      const hit = [...touched.keys()].find((id) => shown.has(id));
      if (!hit) continue;
      // a journey opens a route by its path ('/app/order', '/app/order?open=1'); the login page is '/'
      const quoted = path === '/' ? /['"`]\/(?:\?[^'"`]*)?['"`]/ : new RegExp(`['"\`]${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?:[?#/'"\`])`);
      for (const [spec, text] of specs) if (quoted.test(text)) add(spec, `opens ${path}, which shows ${hit} (${touched.get(hit)})`);
    }
  }
  const configChanged = changed.some((f) => /^(screens|schemas|locales|client-variants)\//.test(f));
  return { journeys: [...reasons.keys()].sort(), reasons, configChanged };
}
