/**
 * The Polish texts of a bundle as a function `t('ns:path', vars)`. One home for how the server
 * translates: the configuration plugin makes one per variant, and an import run's row thread
 * (imports/rows-worker.ts) makes its own from the same texts, since a function does not cross
 * to another thread.
 */
import i18next from 'i18next';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle } from './bundle.ts';

export async function translatorFor(locales: Bundle['locales']): Promise<Translate> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: 'pl',
    fallbackLng: false,
    resources: { pl: locales.pl },
    ns: Object.keys(locales.pl),
    interpolation: { escapeValue: false },
    returnNull: false,
    returnEmptyString: true, // as the runtime's (runtime/src/config/i18n.ts): an empty text stays empty
  });
  return (key, vars) => String(instance.t(key, vars as any));
}
