/**
 * The locale of numbers and the time zone of instants: screens/app.json config.locale and
 * config.timeZone, set once at start-up (configureFormats, from config/startup.ts). Until then,
 * and in unit tests, screens/app.json's as built in (runtime/configured-formats.ts): the code names
 * no locale, zone or currency (tools/check-runtime-words.ts). A module apart from format.ts, which every signed-in
 * page formats with but the login page does not need (issue 33): start-up sets the settings here,
 * and format.ts reads them whenever it is loaded.
 */
export interface FormatSettings {
  locale: string;
  timeZone: string;
  /** ISO 4217 code of money amounts (config.currency); the locale writes its symbol. */
  currency: string;
}

const DEFAULTS: FormatSettings = { ...__FORMAT_DEFAULTS__ };

let settings = DEFAULTS;
const listeners = new Set<(settings: FormatSettings) => void>();

/** Sets the locale and time zone every value is shown in; values missing from `config` keep the defaults. */
export function configureFormats(config: Record<string, unknown>): FormatSettings {
  settings = {
    locale: typeof config.locale === 'string' ? config.locale : DEFAULTS.locale,
    timeZone: typeof config.timeZone === 'string' ? config.timeZone : DEFAULTS.timeZone,
    currency: typeof config.currency === 'string' ? config.currency : DEFAULTS.currency,
  };
  for (const listener of listeners) listener(settings);
  return settings;
}

/** The settings in force. */
export const formatSettings = (): FormatSettings => settings;

/** Called with the new settings whenever they are set again (format.ts makes its formatters anew). */
export function onFormatSettings(listener: (settings: FormatSettings) => void): void {
  listeners.add(listener);
}
