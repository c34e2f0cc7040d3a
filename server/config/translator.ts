/**
 * The texts of a bundle in one language as a function `t('ns:path', vars)`. One home for how the
 * server translates: the configuration plugin makes one per variant and language, and an import
 * run's row thread (imports/rows-worker.ts) makes its own from the same texts, since a function
 * does not cross to another thread. Plurals follow the language's rules (i18next's `_one`,
 * `_few`, … by Intl.PluralRules).
 */
import i18next, { type TOptions } from 'i18next';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle } from './bundle.ts';
import { SOURCE_LANGUAGE } from './languages.ts';

export async function translatorFor(locales: Bundle['locales'], language: string = SOURCE_LANGUAGE): Promise<Translate> {
  const texts = locales[language] ?? locales[SOURCE_LANGUAGE];
  const instance = i18next.createInstance();
  await instance.init({
    lng: language,
    fallbackLng: false,
    resources: { [language]: texts },
    ns: Object.keys(texts),
    interpolation: { escapeValue: false },
    returnNull: false,
    returnEmptyString: true, // as the runtime's (runtime/src/config/i18n.ts): an empty text stays empty
  });
  return (key, vars) => String(instance.t(key, vars as TOptions));
}

/** A translator per offered language of a bundle. */
export async function translatorsFor(bundle: Pick<Bundle, 'locales' | 'languages'>): Promise<Record<string, Translate>> {
  const out: Record<string, Translate> = {};
  for (const { id } of bundle.languages) out[id] = await translatorFor(bundle.locales, id);
  if (!out[SOURCE_LANGUAGE]) out[SOURCE_LANGUAGE] = await translatorFor(bundle.locales, SOURCE_LANGUAGE);
  return out;
}
