/**
 * The locale, zone and currency screens/app.json configures (config.locale, config.timeZone,
 * config.currency) and the default language's date pattern (config.languages[0].datePattern), built into the runtime as format-settings.ts's values before start-up sets
 * the loaded bundle's (and the values of the runtime's unit tests): the runtime's code names none
 * of them (tools/check-runtime-words.ts, issue 48). Read by runtime/vite.config.ts and
 * vitest.config.ts (`define: { __FORMAT_DEFAULTS__ }`).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface ConfiguredFormats {
  locale: string;
  timeZone: string;
  currency: string;
  datePattern: string;
}

export function configuredFormats(projectDir: string): ConfiguredFormats {
  const config = JSON.parse(readFileSync(join(projectDir, 'screens/app.json'), 'utf8')).config ?? {};
  const missing = ['locale', 'timeZone', 'currency'].filter((key) => typeof config[key] !== 'string');
  if (missing.length) throw new Error(`screens/app.json config lacks ${missing.join(', ')}`);
  const datePattern = config.languages?.[0]?.datePattern;
  if (typeof datePattern !== 'string') throw new Error('screens/app.json config.languages[0] lacks datePattern');
  return { locale: config.locale, timeZone: config.timeZone, currency: config.currency, datePattern };
}

/** The `define` entry of a Vite or Vitest configuration. */
export const formatDefaultsDefine = (projectDir: string) => ({ __FORMAT_DEFAULTS__: JSON.stringify(configuredFormats(projectDir)) });
