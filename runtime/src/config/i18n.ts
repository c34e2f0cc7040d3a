/**
 * The runtime's i18next instance. Texts come from the bundle's locales (GET /api/ui/config), which
 * carry the caller's language alone (issue 48: the server chooses it — his account's, the sign-in
 * page's choice kept in the `portal.lang` cookie, or the browser's Accept-Language — and names it
 * in `bundle.language`). Before the bundle has arrived the only texts the runtime can need are the
 * start-up ones (loading, no connection); those are built in from locales/<language>/app.json, so
 * that 'Brak połączenia z serwerem' (or its translation) can be shown when the server cannot be
 * reached at all, in the language the cookie or the browser names. The bundle's texts (which a
 * client variant may change) replace them as soon as they are loaded.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import type { Bundle } from './bundle';

// only these texts of each language are built in (named imports: the rest of app.json stays out of the page's code)
const glob = {
  loading: import.meta.glob<string>('../../../locales/*/app.json', { eager: true, import: 'loading' }),
  noConnection: import.meta.glob<string>('../../../locales/*/app.json', { eager: true, import: 'noConnection' }),
  errorTitle: import.meta.glob<string>('../../../locales/*/app.json', { eager: true, import: 'errorTitle' }),
  ok: import.meta.glob<string>('../../../locales/*/app.json', { eager: true, import: 'ok' }),
  close: import.meta.glob<string>('../../../locales/*/app.json', { eager: true, import: 'close' }),
};
const startupTexts: Record<string, { app: Record<string, string> }> = {};
for (const [key, byFile] of Object.entries(glob)) {
  for (const [path, text] of Object.entries(byFile)) ((startupTexts[path.split('/')[4]] ??= { app: {} }).app[key] = text);
}
/** The cookie the sign-in page's choice is kept in (server/config/languages.ts LANGUAGE_COOKIE). */
export const LANGUAGE_COOKIE = 'portal.lang';

function cookieLanguage(): string | undefined {
  if (typeof document === 'undefined') return undefined;
  const found = document.cookie.split(';').map((c) => c.trim().split('=')).find(([name]) => name === LANGUAGE_COOKIE);
  return found ? decodeURIComponent(found[1] ?? '') : undefined;
}

/**
 * The language to start in before the bundle says: the sign-in page's choice, else the browser's,
 * else the page's own (index.html's lang: the source language's).
 */
export function startLanguage(): string {
  const wanted = [cookieLanguage(), ...(typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language])];
  for (const tag of wanted) {
    const id = tag?.toLowerCase().split('-')[0];
    if (id && startupTexts[id]) return id;
  }
  const page = typeof document === 'undefined' ? '' : document.documentElement.lang;
  return startupTexts[page] ? page : Object.keys(startupTexts)[0];
}

/**
 * Keeps a language choice on this device (the sign-in page's, or the signed-in user's): the next
 * visit starts in it. Settled once the browser's cookie store holds it: the page is loaded again
 * in the language right after, and a cookie written to `document.cookie` reaches Chromium's store
 * on a way of its own, which that load may overtake (a busy CI run's page came back in Polish
 * after English was chosen). The Cookie Store API answers once it is stored; without it (an
 * insecure origin, an older browser) the cookie is only written as before.
 */
export async function rememberLanguage(id: string): Promise<void> {
  const value = encodeURIComponent(id);
  await window.cookieStore?.set({ name: LANGUAGE_COOKIE, value, path: '/', expires: Date.now() + 31_536e6, sameSite: 'lax' }).catch(() => undefined);
  document.cookie = `${LANGUAGE_COOKIE}=${value}; path=/; max-age=31536000; SameSite=Lax`;
}

// Texts are configuration loaded at run time (no typed resources), so i18next 27's default check of
// interpolation variables has nothing to check against and only stops `t` from being passed on as
// our `Translate` (key, vars?) => string: keep the v26 types.
declare module 'i18next' {
  interface CustomTypeOptions {
    strictInterpolationChecks: false;
  }
}

export const i18n = i18next.createInstance();

void i18n.use(initReactI18next).init({
  lng: startLanguage(),
  fallbackLng: false,
  resources: startupTexts,
  ns: ['app'],
  defaultNS: 'app',
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  // i18next 27 made an empty text count as missing (the key is shown); a variant or the studio may
  // blank a text on purpose, so an empty text stays empty, as before
  returnEmptyString: true,
  initAsync: false,
});

/** The language of a bundle: the one it names, else (a bundle from before issue 48) the one its texts are in. */
export const bundleLanguage = (bundle: Pick<Bundle, 'language' | 'locales'>): string => bundle.language ?? Object.keys(bundle.locales)[0];

/**
 * Replaces the texts with the bundle's locales (every namespace of the bundle) and switches to its
 * language: plurals follow that language's rules, and the page says which language it is in.
 */
export function applyBundleLocales(bundle: Bundle): void {
  const language = bundleLanguage(bundle);
  const namespaces = bundle.locales[language] ?? {};
  for (const [ns, texts] of Object.entries(namespaces)) i18n.addResourceBundle(language, ns, texts, true, true);
  i18n.options.ns = Object.keys(namespaces);
  if (i18n.language !== language) void i18n.changeLanguage(language);
  if (typeof document !== 'undefined') document.documentElement.lang = language;
}
