/**
 * The runtime's i18next instance. Texts come from the bundle's locales (GET /api/ui/config).
 * Before the bundle has arrived the only texts the runtime can need are the start-up ones
 * (loading, no connection); those are taken from locales/pl/app.json at build time, so that
 * 'Brak połączenia z serwerem' can be shown when the server cannot be reached at all. The bundle's
 * texts (which a client variant may change) replace them as soon as they are loaded.
 */
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
// only these texts are built in (named imports: the rest of app.json stays out of the page's code)
import { close, errorTitle, loading, noConnection, ok } from '../../../locales/pl/app.json';
import type { Bundle } from './bundle';

export const LANGUAGE = 'pl';

const startupTexts = { app: { loading, noConnection, errorTitle, ok, close } };

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
  lng: LANGUAGE,
  fallbackLng: false,
  resources: { [LANGUAGE]: startupTexts },
  ns: ['app'],
  defaultNS: 'app',
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
  // i18next 27 made an empty text count as missing (the key is shown); a variant or the studio may
  // blank a text on purpose, so an empty text stays empty, as before
  returnEmptyString: true,
  initAsync: false,
});

/** Replaces the start-up texts with the bundle's locales (every namespace of the bundle). */
export function applyBundleLocales(bundle: Bundle): void {
  const namespaces = bundle.locales[LANGUAGE] ?? {};
  for (const [ns, texts] of Object.entries(namespaces)) i18n.addResourceBundle(LANGUAGE, ns, texts, true, true);
  i18n.options.ns = Object.keys(namespaces);
}
