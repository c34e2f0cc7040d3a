/**
 * What a runtime in one language is sent (issue 48): the bundle (or its visitor's part) with the
 * texts of that language alone — only the chosen language's texts load, so the sign-in page and the
 * table screen weigh the same in every language — the language itself, the offered languages (the
 * sign-in page's and Ustawienia → Język's choice), and the language's locale as `config.locale`,
 * and its date pattern as `config.datePattern`, so every date and number the runtime writes or reads
 * follows the language (runtime/src/format-settings.ts).
 */
import type { Bundle } from './bundle.ts';
import type { Language } from './languages.ts';

export type LanguageView<T> = Omit<T, 'locales'> & { language: string; languages: Pick<Language, 'id' | 'name' | 'locale'>[]; locales: Record<string, Record<string, unknown>> };

export function languageView<T extends { config: Record<string, unknown>; locales: Bundle['locales'] }>(
  body: T, language: Language, languages: Language[],
): LanguageView<T> {
  const texts = body.locales[language.id] ?? body.locales.pl;
  return {
    ...body,
    config: { ...body.config, locale: language.locale, datePattern: language.datePattern },
    language: language.id,
    languages: languages.map(({ id, name, locale }) => ({ id, name, locale })),
    locales: { [language.id]: texts },
  };
}

/** The ETag of a bundle in a language: the default language keeps the bundle's own. */
export const languageEtag = (bundle: Pick<Bundle, 'etag' | 'languages'>, language: Language): string =>
  language.id === bundle.languages[0]?.id ? bundle.etag : `${bundle.etag.slice(0, -1)}-${language.id}"`;
