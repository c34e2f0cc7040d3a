/**
 * The locale of numbers, the time zone of instants and the day's pattern: screens/app.json
 * config.locale, config.timeZone, config.currency and config.datePattern (the language's), set once at start-up (configureFormats, from config/startup.ts). Until then,
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
  /** How the reader's language writes a day (config.datePattern, the language's: DD.MM.YYYY, DD/MM/YYYY). */
  datePattern: string;
}

const DEFAULTS: FormatSettings = { ...__FORMAT_DEFAULTS__ };

let settings = DEFAULTS;
const listeners = new Set<(settings: FormatSettings) => void>();

/** Sets the locale and time zone every value is shown in; values missing from `config` keep the defaults. */
export function configureFormats(config: Record<string, unknown>): FormatSettings {
  const next: Record<string, unknown> = { ...DEFAULTS };
  for (const key in next) if (typeof config[key] === 'string') next[key] = config[key];
  settings = next as unknown as FormatSettings;
  for (const listener of listeners) listener(settings);
  return settings;
}

/** The settings in force. */
export const formatSettings = (): FormatSettings => settings;

/** Called with the new settings whenever they are set again (format.ts makes its formatters anew). */
export function onFormatSettings(listener: (settings: FormatSettings) => void): void {
  listeners.add(listener);
}
