/**
 * The languages the portal speaks (issue 48): screens/app.json `config.languages`, a list a client
 * variant overlays by id like any other (add one, `$remove` one). Polish is the source of every
 * text (locales/pl); another language is offered once its folder (locales/<id>, or the variant's
 * client-variants/<v>/locales/<id>) has texts, so a language named before its texts are written
 * is simply not offered yet. The first offered language is the default: the one a visitor gets
 * when nothing he sends names an offered one.
 *
 * Which one a caller reads: his account's choice (app_user.language) when signed in, else the
 * language chosen on the sign-in page (the `portal.lang` cookie), else his browser's
 * Accept-Language (an integration key's answers follow that header). Each language names the
 * locale its dates and numbers are written in; amounts stay in the configured currency and times
 * in the configured zone.
 */
import type { Bundle, Language } from './bundle.ts';

export type { Language } from './bundle.ts';
import { DEFAULT_DATE_PATTERN, DEFAULT_LOCALE } from './locale.ts';

/** The language every text is written in first (locales/pl): the others are checked against it. */
export const SOURCE_LANGUAGE = 'pl';
/** The cookie the sign-in page's language choice is kept in (read by the server for visitors). */
export const LANGUAGE_COOKIE = 'portal.lang';

/** The configured languages (config.languages); without any, the source language alone in config.locale. */
export function configuredLanguages(config: Bundle['config']): Language[] {
  const list = Array.isArray(config.languages) ? (config.languages as Language[]) : [];
  if (list.length) return list.map((l) => ({ ...l, datePattern: l.datePattern ?? DEFAULT_DATE_PATTERN }));
  return [{ id: SOURCE_LANGUAGE, locale: typeof config.locale === 'string' ? config.locale : DEFAULT_LOCALE, name: SOURCE_LANGUAGE, datePattern: DEFAULT_DATE_PATTERN }];
}

/**
 * The languages asked for, most wanted first, from an Accept-Language header
 * (`uk-UA,uk;q=0.9,en;q=0.8`): tags by their q, each followed by its primary subtag.
 */
export function acceptedLanguages(header: string | undefined): string[] {
  if (!header) return [];
  const tags = header
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
      return { tag: tag.trim().toLowerCase(), q: q === undefined ? 1 : Number(q), index };
    })
    .filter((t) => t.tag && t.tag !== '*' && t.q > 0)
    .sort((a, b) => b.q - a.q || a.index - b.index);
  const out: string[] = [];
  for (const { tag } of tags) for (const id of [tag, tag.split('-')[0]]) if (!out.includes(id)) out.push(id);
  return out;
}

/** The value of one cookie of a Cookie header. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

/** The first wanted language the bundle offers, else its default (the first offered). */
export function chooseLanguage(offered: readonly Language[], wanted: readonly (string | null | undefined)[]): Language {
  for (const id of wanted) {
    const found = id ? offered.find((l) => l.id === id.toLowerCase()) : undefined;
    if (found) return found;
  }
  return offered[0];
}

/** How a language of the bundle writes a day (its datePattern); the default language's for an id it does not offer. */
export function datePatternFor(bundle: Pick<Bundle, 'languages'>, id?: string | null): string {
  return (bundle.languages.find((l) => l.id === id) ?? bundle.languages[0])?.datePattern ?? DEFAULT_DATE_PATTERN;
}
