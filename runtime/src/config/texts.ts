/**
 * The runtime's `useTranslation`, with its text keys checked by TypeScript (issue 48): a literal
 * key (`t('app:loading')`) must be one of locales/pl's — the generated TextKey of
 * runtime/core/generated/text-keys.ts (`npm run gen`; `npm run check` fails while it is stale) —
 * so a misspelt or removed key fails `tsc`, not a screen. A key made at run time (a configured
 * label, `` `${ns}:title` ``) is a string and is not checked here: tools/check-locales.ts and the
 * configuration's checks answer for those. Every runtime module takes `useTranslation` from here
 * (tools/text-keys.test.ts); it is react-i18next's own, only typed, so it costs the page nothing.
 */
import type { i18n as I18n } from 'i18next';
import { useTranslation as useI18nextTranslation } from 'react-i18next';
import type { TextKey } from '../../core/generated/text-keys';

/**
 * `K` itself when it is no literal (a `string`, a template with `${string}`), else `K` when it is a
 * known key, else every known key (so that the error names what was expected).
 */
export type CheckedKey<K extends string> = {} extends Record<K, true> ? K : K extends TextKey ? K : TextKey;

/** `t`: a text by its key, with {{values}}, plural `count`, `defaultValue`… */
export type Texts = <K extends string>(key: K & CheckedKey<K>, options?: Record<string, unknown>) => string;

export const useTranslation = useI18nextTranslation as unknown as (ns?: string | readonly string[]) => { t: Texts; i18n: I18n; ready: boolean };
