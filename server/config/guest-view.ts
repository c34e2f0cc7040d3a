/**
 * The part of the configuration bundle a visitor who is not signed in can be shown (issue 33):
 * the public routes' screens and every screen they open (the forgotten-password dialogs), the
 * request schemas those name, the texts of the namespaces they use, and the shell's own files.
 * The pre-configuration carries it (routes/init.ts), so that the runtime draws the sign-in form
 * as soon as the pre-configuration is in; the whole bundle (~60 KB compressed, against ~10 KB)
 * follows while the visitor types, and is in before anything behind sign-in is drawn.
 *
 * Found by following names, with no screen named here: a string of an included screen that is a
 * screen's id is a screen it opens; one that is a schema's $id (or the document of a $ref), a
 * schema it sends; one that starts `<namespace>:`, a text it shows.
 */
import type { Bundle } from './bundle.ts';

/** The shell's files every page reads (routes: where a path leads; app: branding, footer, flags; menu: its breakpoint). */
const SHELL_FILES = ['routes', 'app', 'menu'];
/** Namespaces the runtime's own code uses on any page (loading, errors, validation messages). */
const RUNTIME_NAMESPACES = ['app', 'errors', 'validation'];

export type GuestView = Pick<Bundle, 'version' | 'variant' | 'app' | 'config' | 'conditions' | 'screens' | 'schemas' | 'locales'>;

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** The ids of the screens the public routes show (their own, the choices', those shown before and after). */
function publicRouteScreens(routes: unknown): string[] {
  const list = ((routes as { routes?: unknown[] } | undefined)?.routes ?? []) as Record<string, unknown>[];
  return list.filter((r) => r.public === true).flatMap((r) => strings({ screen: r.screen, screens: r.screens }));
}

/** `extraTexts`: text keys shown besides the screens' (the pre-configuration's compatibility messages). */
export function guestView(bundle: Bundle, extraTexts: string[] = []): GuestView {
  const screens = new Set<string>();
  const queue = publicRouteScreens(bundle.screens.routes);
  while (queue.length) {
    const id = queue.shift()!;
    if (screens.has(id) || !bundle.screens[id] || SHELL_FILES.includes(id)) continue;
    screens.add(id);
    for (const s of strings(bundle.screens[id])) if (bundle.screens[s] && !screens.has(s)) queue.push(s);
  }

  const shown = [...screens].flatMap((id) => strings(bundle.screens[id]));
  const schemas = new Set<string>();
  const schemaQueue = shown.filter((s) => bundle.schemas[s]);
  while (schemaQueue.length) {
    const id = schemaQueue.shift()!;
    if (schemas.has(id)) continue;
    schemas.add(id);
    for (const s of strings(bundle.schemas[id])) {
      const document = s.split('#')[0];
      if (bundle.schemas[document] && !schemas.has(document)) schemaQueue.push(document);
    }
  }

  const namespaces = new Set(RUNTIME_NAMESPACES);
  const texts = [...shown, ...[...schemas].flatMap((id) => strings(bundle.schemas[id])), ...strings(bundle.app), ...extraTexts];
  for (const s of texts) {
    const ns = /^([A-Za-z][\w-]*):\S/.exec(s)?.[1];
    if (ns && bundle.locales.pl[ns]) namespaces.add(ns);
  }

  const pick = <T>(all: Record<string, T>, ids: Iterable<string>) => Object.fromEntries([...ids].filter((id) => all[id] !== undefined).map((id) => [id, all[id]]));
  return {
    version: bundle.version,
    variant: bundle.variant,
    app: bundle.app,
    config: bundle.config,
    // route and field rules may name any condition
    conditions: bundle.conditions,
    screens: pick(bundle.screens, [...SHELL_FILES, ...screens]),
    schemas: pick(bundle.schemas, schemas),
    // every language's texts of those namespaces: the caller's alone are sent (config/language-view.ts)
    locales: Object.fromEntries(Object.entries(bundle.locales).map(([language, texts]) => [language, pick(texts, namespaces)])) as Bundle['locales'],
  };
}
