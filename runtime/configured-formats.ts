/**
 * The locale, zone and currency screens/app.json configures (config.locale, config.timeZone,
 * config.currency), built into the runtime as format-settings.ts's values before start-up sets
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
}

export function configuredFormats(projectDir: string): ConfiguredFormats {
  const config = JSON.parse(readFileSync(join(projectDir, 'screens/app.json'), 'utf8')).config ?? {};
  const missing = ['locale', 'timeZone', 'currency'].filter((key) => typeof config[key] !== 'string');
  if (missing.length) throw new Error(`screens/app.json config lacks ${missing.join(', ')}`);
  return { locale: config.locale, timeZone: config.timeZone, currency: config.currency };
}

/** The `define` entry of a Vite or Vitest configuration. */
export const formatDefaultsDefine = (projectDir: string) => ({ __FORMAT_DEFAULTS__: JSON.stringify(configuredFormats(projectDir)) });
