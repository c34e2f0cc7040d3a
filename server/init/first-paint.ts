/**
 * The first paint of a page, in the HTML itself (issue 49): for a path whose public route shows a
 * screen the server knows how to draw — the sign-in form (`login`) — the page the runtime will
 * draw, written into the served index.html, so the browser shows the real form (brand, labels,
 * inputs, button) before any JavaScript has run. On Lighthouse's simulated phone the form came
 * after its JavaScript, at 2.1–2.3 s.
 *
 * Drawn from the configuration, as the runtime draws it: the screen file, its request schema, the
 * texts of the caller's language (his `portal.lang` cookie, else Accept-Language: config/languages.ts)
 * with the variant's overlay, and the variant's branding — through the runtime's own hook-free
 * components (screens/login/LoginView.tsx, forms/LightForm.tsx, shell/PublicFrame.tsx), rendered
 * with react-dom/server, so the markup is the one the runtime then draws over it
 * (runtime/src/shell/first-paint.ts takes over and removes this one in the same frame).
 *
 * Drawn once per bundle, screen and language and kept beside the bundle (a WeakMap): a reload or a
 * studio publish makes new bundles, so the next page is drawn from them; nothing is kept across
 * configurations and nothing is written at build time (docs/decisions.md, "The login page's first
 * paint").
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createElement as h, Fragment, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { ConditionEvaluator } from '../../runtime/core/conditions.ts';
import { brandingImagePath, brandingStyle, type Branding } from '../../runtime/core/branding-style.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { LoginScreenDecl } from '../../runtime/src/config/bundle.ts';
import { LightForm } from '../../runtime/src/forms/LightForm.tsx';
import { choicesOf, initialData, type ObjectSchema } from '../../runtime/src/forms/light-form.ts';
import { hiddenFieldIds, namespaceOf, withoutSchemaTexts } from '../../runtime/src/forms/field-rules.ts';
import { LanguageSelect, LoginView } from '../../runtime/src/screens/login/LoginView.tsx';
import { CookieNoticeView, FooterLine, PublicFrame } from '../../runtime/src/shell/PublicFrame.tsx';
import { ShellIcon } from '../../runtime/src/shell/ShellIcon.tsx';
export { NOTICE_ONLY_CLASS } from '../../runtime/core/served-notice.ts';
import type { Bundle } from '../config/bundle.ts';
import type { Language } from '../config/languages.ts';

/** What drawing a page needs: the request's variant (its bundle and conditions) in the request's language. */
export interface PaintContext {
  bundle: Bundle;
  conditions: ConditionEvaluator;
  t: Translate;
  language: Language;
  /** The visitor has not acknowledged the cookie notice (no `portal.cookies` cookie): it is part of the page. */
  cookieNotice: boolean;
}

/** The cookie notice's icon, as the runtime bundles it (shell/CookieNotice.tsx: bootstrap-icons' info-circle.svg). */
let infoCircle: string | undefined;
const cookieIcon = () => (infoCircle ??= readFileSync(createRequire(import.meta.url).resolve('bootstrap-icons/icons/info-circle.svg'), 'utf8'));

/** The cookie notice (App.tsx draws it after the page, shell/CookieNotice.tsx). */
const cookieNotice = (t: Translate) =>
  h(CookieNoticeView, { label: t('app:cookies.title'), text: t('app:cookies.text'), accept: t('app:cookies.accept'), icon: h(ShellIcon, { svg: cookieIcon(), className: 'me-2' }) });

type Painter = (screen: Record<string, unknown>, context: PaintContext) => ReactElement | undefined;

const noop = () => undefined;

/** The cookie the runtime keeps the notice's acknowledgement in (runtime/src/shell/CookieNotice.tsx COOKIES_ACCEPTED_COOKIE). */
export const COOKIES_ACCEPTED_COOKIE = 'portal.cookies';

/** The login screen type (runtime/src/screens/login/LoginScreen.tsx) as it first draws: no error, nothing typed, the schema's defaults. */
const paintLogin: Painter = (decl, { bundle, conditions, t, language, cookieNotice: withNotice }) => {
  const screen = decl as unknown as LoginScreenDecl;
  const raw = bundle.schemas[screen.schema];
  if (!raw) return undefined;
  const schema = withoutSchemaTexts(raw) as ObjectSchema;
  const formData = initialData(schema);
  // a visitor: no role, no session; the fields' rules look at the form data (as conditionContext(bundle, null))
  const visitor = { role: null, variant: bundle.variant, config: { ...bundle.config, locale: language.locale, datePattern: language.datePattern }, session: null, record: null };
  // Fields a choice shows or hides (the driver's plate, the advisor's VIN): every field some choice
  // shows is drawn, and a rule per choice hides the others while it is checked, so that a choice
  // made before the runtime is in changes the page as the runtime's will — its takeover then moves
  // nothing under the visitor's finger (a press on "Zaloguj" landed beside it: CI, 5 December 2026).
  const byChoice = choiceRules(screen.fields, schema, t, (data) => hiddenFieldIds(screen.fields, conditions, visitor, data), formData);
  const hidden = byChoice.hiddenAlways;
  const app = bundle.app as { loginAppName: string; branding?: Branding; sso?: { name: string }; footer?: { copyright?: string } };
  const passkey = screen.passkeySignIn;
  const sso = screen.singleSignOn && app.sso ? { ...screen.singleSignOn, name: app.sso.name } : undefined;
  const separator = passkey ?? sso;
  const form = h(LightForm, {
    idPrefix: 'login', schema, fields: screen.fields, namespace: namespaceOf(screen.title, 'login'), t, formData, hidden,
    liveValidate: false, submitLabel: t(screen.submit.label), onChange: noop, onSubmit: noop, onError: noop,
  });
  const page = h(LoginView, {
    appName: app.loginAppName,
    logo: app.branding?.logo ? { src: brandingImagePath(app.branding.logo), alt: app.branding.logoAlt ?? app.loginAppName } : undefined,
    title: screen.title ? t(screen.title) : undefined,
    form,
    separator: separator ? t(separator.separator) : undefined,
    // shown by the runtime where the browser has passkeys (every browser the portal supports)
    passkey: passkey ? { label: t(passkey.label), hint: passkey.hint ? t(passkey.hint) : undefined, busy: false } : undefined,
    sso: sso ? { label: t(sso.label, { name: sso.name }), href: `/api${sso.endpoint}`, busy: false } : undefined,
    links: screen.links?.map((link) => ({ ...link, label: t(link.label) })),
    language: h(LanguageSelect, { label: t('app:language.choose'), languages: bundle.languages, current: language.id, onChange: noop }),
  });
  const copyright = app.footer?.copyright;
  const footer = h(FooterLine, { version: t('app:footer.version', { version: bundle.version }), copyright: copyright ? t(copyright) : undefined });
  const frame = h(PublicFrame, { footer, children: page });
  // the choices' rules before the parts they hide: a page painted while its parser has yielded
  // (a phone, a loaded machine) showed the advisor's VIN field until the rule after it came, then
  // moved everything below it up (CI, 6 December 2026). A press is found by its part's class and
  // its place inside that part (runtime/src/shell/first-paint.ts), which a <style> before them leaves as it is.
  const rules = byChoice.css ? h('style', null, byChoice.css) : null;
  return h(Fragment, null, rules, frame, withNotice ? cookieNotice(t) : null);
};

/**
 * For each radio field of a form (its choices drawn as `login_<field>-<n>`), the fields hidden while
 * choice n is checked: `hiddenAlways`, those no choice shows (not drawn), and CSS hiding the rest per
 * choice (`:has()`, no script: the served page runs none). The other fields keep their defaults.
 */
function choiceRules(
  fields: LoginScreenDecl['fields'], schema: ObjectSchema, t: Translate,
  hiddenFor: (data: Record<string, unknown>) => Set<string>, formData: Record<string, unknown>,
): { hiddenAlways: Set<string>; css: string } {
  let hiddenAlways = hiddenFor(formData);
  const rules: string[] = [];
  for (const field of fields.filter((f) => f.widget === 'radio')) {
    const choices = choicesOf(field, schema.properties?.[field.id], t).map((c) => c.value);
    const hiddenSets = choices.map((value) => hiddenFor({ ...formData, [field.id]: value }));
    hiddenAlways = new Set([...hiddenAlways].filter((id) => hiddenSets.every((set) => set.has(id))));
    hiddenSets.forEach((set, n) => {
      for (const id of set) rules.push(`#first-paint .light-form:has(#login_${field.id}-${n}:checked) [data-field="${id}"]`);
    });
  }
  return { hiddenAlways, css: rules.length ? `${rules.join(',')}{display:none}` : '' };
}

/** The screen types whose first paint the server draws. */
const PAINTERS: Record<string, Painter> = { login: paintLogin };

/**
 * A field's value is typed into the served form before the runtime runs, and the runtime takes it
 * over; should the visitor send the form before that (Enter), the browser would send it as a GET
 * in the address: the served inputs carry no `name` (a radio keeps its own, its choices are one
 * group by it), so nothing typed — a password least of all — can leave that way.
 */
const withoutInputNames = (html: string) =>
  html.replace(/<(input|select|textarea)\b[^>]*>/g, (tag) => (/\btype="radio"/.test(tag) ? tag : tag.replace(/\sname="[^"]*"/, '')));

/** The screen a public route shows at this path (no parameters: a public page's path is fixed). */
function publicScreenAt(bundle: Bundle, pathname: string): string | undefined {
  const routes = ((bundle.screens.routes as { routes?: { path?: string; screen?: unknown; public?: boolean }[] } | undefined)?.routes ?? []);
  const path = pathname.replace(/\/+$/, '') || '/';
  const route = routes.find((r) => r.public === true && typeof r.screen === 'string' && (r.path?.replace(/\/+$/, '') || '/') === path);
  return route?.screen as string | undefined;
}

const drawn = new WeakMap<Bundle, Map<string, string | null>>();

/** The first paint's markup for this path, or undefined when its page is not one the server draws. */
export function firstPaintHtml(pathname: string, context: PaintContext): string | undefined {
  const { bundle, language } = context;
  const screenId = publicScreenAt(bundle, pathname);
  const screen = screenId ? (bundle.screens[screenId] as Record<string, unknown> | undefined) : undefined;
  const painter = screen ? PAINTERS[String(screen.type)] : undefined;
  if (!screenId || !screen || !painter) return undefined;
  let byKey = drawn.get(bundle);
  if (!byKey) drawn.set(bundle, (byKey = new Map()));
  const key = `${screenId}\n${language.id}\n${context.cookieNotice}`;
  let html = byKey.get(key);
  if (html === undefined) {
    const element = painter(screen, context);
    byKey.set(key, (html = element ? wholeOrNothing(withoutInputNames(renderToStaticMarkup(element))) : null));
  }
  return html ?? undefined;
}

/**
 * The cookie notice alone, for a path whose page the server does not draw (the signed-in pages),
 * shown to a visitor who has not acknowledged it (issue 47): on a phone's first visit it is the
 * largest thing the page shows, and drawn by the runtime it came seconds after the HTML. It stands
 * beside the loading modal until the runtime draws its own in its place (runtime/src/shell/CookieNotice.tsx).
 */
export function noticeOnlyHtml(context: Pick<PaintContext, 'bundle' | 't' | 'language'>): string {
  let byKey = drawn.get(context.bundle);
  if (!byKey) drawn.set(context.bundle, (byKey = new Map()));
  const key = `\nnotice\n${context.language.id}`;
  let html = byKey.get(key);
  if (!html) byKey.set(key, (html = renderToStaticMarkup(cookieNotice(context.t))));
  return html;
}

/**
 * The drawn page stays invisible until its last element is parsed. A browser paints a page whose
 * parser has yielded, which a phone or a loaded machine does mid-page: CI and this machine saw the
 * card painted half built and centred, then moved up as the rest came; the language select as wide
 * as its first option, then wider; the footer narrower — layout shifts of up to 0.30 before the
 * visitor did anything. Hidden, a part drawn early moves nothing anyone sees; the page appears
 * whole. (Chromium's `<link rel="expect" blocking="render">` for the same was tried: the shifts
 * stayed.) The runtime's page, drawn over it later, does not have this.
 */
const wholeOrNothing = (html: string) =>
  `<style>#first-paint{visibility:hidden}</style>${html}<style>#first-paint{visibility:visible}</style>`;

/** The `<html>` element's attributes for the request: its language, and the variant's colours (as runtime/src/config/branding.ts sets them). */
export function rootAttributes(bundle: Bundle, language: Language): string {
  const style = brandingStyle(((bundle.app as { branding?: Branding }).branding ?? {}) as Branding);
  const css = Object.entries(style).map(([property, value]) => `${property}: ${value}`).join('; ');
  const escape = (text: string) => text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
  return `lang="${escape(language.id)}"${css ? ` data-branded="${escape(bundle.variant)}" style="${escape(css)}"` : ''}`;
}
