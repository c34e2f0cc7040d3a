/**
 * The part of the configuration bundle a signed-in role is sent (issue 47): the screens, schemas
 * and texts the role can reach, so that a driver's phone neither downloads nor parses the office's
 * configuration (the data import, the users, the studio: two thirds of the bundle) and his browser
 * never receives it. The server's own rules are unchanged: what is left out is what the role's
 * routes never show, and every call stays judged by ACCESS.md.
 *
 * Found by following names, as the visitor's part (config/guest-view.ts), with no screen named
 * here. Left out is only what can be reached through a route the role cannot open, and through
 * nothing else:
 * - screens: the roots are the shell's files, the screens of the routes the role opens (its
 *   `allowedWhen` and each choice's `when`, judged as the cross-check judges them: role, variant,
 *   settings; one that reads the session or a record may open, so counts as open), and every screen that neither a route nor another screen names (the runtime's code
 *   opens those by name: the session gates' dialogs, the reminders' declarations); then every
 *   screen an included one names;
 * - schemas: those an included screen names (the runtime reads a schema only by a screen's
 *   `schema`, `entity` or a list's), with the documents they refer to; the API's requests and
 *   answers no screen names are the server's;
 * - texts: a namespace is left out when a left-out screen or schema names it (`ns:` or its id)
 *   and nothing included does, nor a declaration the server answers by (its keys come in its
 *   answers), nor the runtime's shared code (RUNTIME_NAMESPACES);
 * - imports and reports: only when the role is left no screen of their type;
 * - a role that opens the configuration studio (which edits, previews and checks every file) is sent all.
 * routes.json itself is whole: a deep link to a screen the role cannot open still finds its
 * route and answers "no access" (routing/resolve.ts judges `allowedWhen` before any screen).
 */
import { asCondition, ConditionEvaluator, type Role } from '../../runtime/core/conditions.ts';
import type { Bundle, Screen } from './bundle.ts';
import { fileOfType } from './screen-files.ts';
import { SCREEN_TYPES } from '../../runtime/core/screen-checks/screen-types.ts';

/** The screen types the runtime draws; any other file of screens/ (but the shell's) is a declaration the server reads. */
const DRAWN = new Set<string>(SCREEN_TYPES.map((t) => t.type));

/** The shell's files every page reads (config/guest-view.ts). */
const SHELL_FILES = ['routes', 'app', 'menu', 'conditions'];
/** Those that name every route's screens or paths: what they lead to is judged by the routes' conditions, not followed. */
const ROUTE_FILES = ['routes', 'menu'];

/**
 * Namespaces the runtime's shared code names in its own components, whatever screen is shown
 * (`t('table:…')` in every table, the dashboard's parts in a driver's Do zrobienia, the preview's
 * banner): `grep -rE "['\"\`]NS:" runtime/src` beside the studio's and the reports' own screens.
 */
export const RUNTIME_NAMESPACES = [
  'app', 'errors', 'validation', 'table', 'menu', 'help', 'login', 'password', 'terms', 'notifications', 'push', 'security',
  'init', 'attachment', 'inspection', 'order', 'car', 'dashboard', 'config-preview',
];

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** What a condition may read besides the role, the variant and the settings: then it is judged only in the browser. */
const PER_USER = new Set(['session', 'record', 'mode', 'parent']);

/**
 * Whether a condition reads the session, a record or a mode (following its named conditions): such
 * a route or choice may open for the role, so its screens are sent; in doubt, sent.
 */
function readsMoreThanRole(condition: unknown, conditions: Record<string, unknown>, seen = new Set<string>()): boolean {
  if (Array.isArray(condition)) return condition.some((c) => readsMoreThanRole(c, conditions, seen));
  if (!condition || typeof condition !== 'object') return false;
  return Object.entries(condition).some(([key, value]) => {
    if (key === '$ref' && typeof value === 'string') {
      const name = value.split('/').pop()!;
      if (seen.has(name)) return false;
      seen.add(name);
      return readsMoreThanRole((conditions.$defs as Record<string, unknown> | undefined)?.[name], conditions, seen);
    }
    if (key === 'properties' && value && typeof value === 'object' && Object.keys(value).some((k) => PER_USER.has(k))) return true;
    if (key === 'required' && Array.isArray(value) && value.some((k) => PER_USER.has(k))) return true;
    return readsMoreThanRole(value, conditions, seen);
  });
}

const namespaceOf = (s: string) => /^([A-Za-z][\w-]*):\S/.exec(s)?.[1];

/** `role`: the role it was made for; a sign-in in a tab that holds one starts the portal again (runtime/src/screens/login/LoginScreen.tsx). */
export type RoleView = Omit<Bundle, 'etag' | 'resources' | 'languages'> & { role: Role };

/** The ids of the screens a route may show whoever opens it (its own, the choices', before and after). */
const routeScreens = (route: unknown) => strings({ screen: (route as Screen).screen, screens: (route as Screen).screens }).filter(Boolean);

/** Which screens, schemas and namespaces the role is sent (ids), for the bundle's own cache and for tests. */
export function roleParts(bundle: Pick<Bundle, 'screens' | 'schemas' | 'locales' | 'conditions' | 'variant' | 'config' | 'app'>, role: Role) {
  const evaluator = new ConditionEvaluator(bundle.conditions);
  const context = { role, variant: bundle.variant, config: bundle.config };
  const matches = (condition: unknown) => {
    try {
      return condition === undefined || readsMoreThanRole(condition, bundle.conditions) || evaluator.matches(asCondition(condition), context);
    } catch {
      return true; // a condition that does not compile is the cross-check's to report; in doubt, sent
    }
  };

  const routes = fileOfType(bundle.screens.routes, 'routes')?.routes ?? [];
  const named = new Set<string>(routes.flatMap(routeScreens));
  for (const [id, screen] of Object.entries(bundle.screens)) {
    if (ROUTE_FILES.includes(id)) continue;
    for (const s of strings(screen)) if (s !== id && bundle.screens[s]) named.add(s);
  }
  const roots: string[] = [...SHELL_FILES, ...Object.keys(bundle.screens).filter((id) => !named.has(id))];
  for (const route of routes) {
    if (!route.public && !matches(route.allowedWhen)) continue;
    if (route.screen) roots.push(route.screen);
    for (const choice of route.screens ?? []) {
      if (!matches(choice.when)) continue;
      roots.push(choice.screen);
      for (const side of [...(choice.before ?? []), ...(choice.after ?? [])]) if (matches(side.when)) roots.push(side.screen);
    }
  }
  const screens = new Set<string>();
  const queue = roots.filter((id) => bundle.screens[id]);
  while (queue.length) {
    const id = queue.pop()!;
    if (screens.has(id)) continue;
    screens.add(id);
    if (ROUTE_FILES.includes(id)) continue;
    for (const s of strings(bundle.screens[id])) if (bundle.screens[s] && !screens.has(s)) queue.push(s);
  }

  const schemas = new Set<string>();
  const schemaQueue = [...screens].flatMap((id) => strings(bundle.screens[id])).map((s) => s.split('#')[0]).filter((id) => bundle.schemas[id]);
  while (schemaQueue.length) {
    const id = schemaQueue.pop()!;
    if (schemas.has(id)) continue;
    schemas.add(id);
    for (const s of strings(bundle.schemas[id])) {
      const document = s.split('#')[0];
      if (bundle.schemas[document] && !schemas.has(document)) schemaQueue.push(document);
    }
  }

  /** The namespaces a set of screens and schemas names: by a text key's prefix, or as a file's own id (a screen's default namespace, an entity's labels). */
  const namesOf = (screenIds: Iterable<string>, schemaIds: Iterable<string>) => {
    const out = new Set<string>();
    const add = (s: string) => {
      const ns = namespaceOf(s) ?? s;
      if (bundle.locales.pl[ns]) out.add(ns);
    };
    // the route files name every route's screen: only their text keys count
    for (const id of screenIds) (ROUTE_FILES.includes(id) ? strings(bundle.screens[id]).filter(namespaceOf) : [id, ...strings(bundle.screens[id])]).forEach(add);
    for (const id of schemaIds) [id, ...strings(bundle.schemas[id])].forEach(add);
    return out;
  };
  // a declaration the server answers by (reminders, notifications, inspections) sends its text keys
  // in its answers to every role (a reminder's label), whoever may open the declaration itself
  const declarations = Object.keys(bundle.screens).filter((id) => !DRAWN.has(bundle.screens[id].type) && !SHELL_FILES.includes(id));
  const kept = namesOf([...screens, ...declarations], schemas);
  for (const ns of RUNTIME_NAMESPACES) kept.add(ns);
  for (const s of strings(bundle.app)) if (namespaceOf(s)) kept.add(namespaceOf(s)!);
  const leftOut = namesOf(Object.keys(bundle.screens).filter((id) => !screens.has(id)), Object.keys(bundle.schemas).filter((id) => !schemas.has(id)));
  const namespaces = new Set(Object.keys(bundle.locales.pl).filter((ns) => kept.has(ns) || !leftOut.has(ns)));

  const types = new Set([...screens].map((id) => bundle.screens[id].type));
  return { screens, schemas, namespaces, studio: types.has('studio'), imports: types.has('data-import'), reports: types.has('reports') };
}

const pick = <T>(all: Record<string, T>, ids: Set<string>): Record<string, T> =>
  Object.fromEntries(Object.entries(all).filter(([id]) => ids.has(id)));

/** The bundle as the role is sent it (every language's texts of its namespaces; config/language-view.ts then keeps one). */
export function roleView(bundle: Bundle, role: Role): RoleView {
  const { etag: _etag, resources: _server_only, languages: _languages, ...body } = bundle;
  const parts = roleParts(bundle, role);
  // the studio edits, previews and checks every file of the configuration: a role that opens it is sent all
  if (parts.studio) return { ...body, role };
  return {
    ...body,
    role,
    screens: pick(bundle.screens, parts.screens),
    schemas: pick(bundle.schemas, parts.schemas),
    imports: parts.imports ? bundle.imports : {},
    reports: parts.reports ? bundle.reports : {},
    ...(parts.reports ? {} : { reporting: undefined }),
    locales: Object.fromEntries(Object.entries(bundle.locales).map(([language, texts]) => [language, pick(texts, parts.namespaces)])) as Bundle['locales'],
  };
}

/** The ETag of a role's bundle: the language's (config/language-view.ts) with the role, so that a role's copy is never taken for another's. */
export const roleEtag = (etag: string, role: Role | null): string => (role ? `${etag.slice(0, -1)}-${role}"` : etag);
