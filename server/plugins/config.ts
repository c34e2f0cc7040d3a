/**
 * Holds the merged configuration bundle and the server's translator. The bundle is replaced as a
 * whole by reload(), so a request sees either the old or the new configuration, never a mix.
 */
import fp from 'fastify-plugin';
import i18next from 'i18next';
import { ConditionEvaluator } from '../../runtime/core/conditions.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import { loadBundle, type Bundle, type LoadOptions } from '../config/load-bundle.ts';

export interface ConfigState {
  bundle: Bundle;
  conditions: ConditionEvaluator;
  /** Polish text of a key `ns:path` with {{vars}}. */
  t: Translate;
  reload(): Promise<void>;
  /** Why the last reload was refused (the configuration in use is then older than the files); null after a good one. */
  readonly reloadError: string | null;
}

async function translatorFor(bundle: Bundle): Promise<Translate> {
  const instance = i18next.createInstance();
  await instance.init({
    lng: 'pl',
    fallbackLng: false,
    resources: { pl: bundle.locales.pl },
    ns: Object.keys(bundle.locales.pl),
    interpolation: { escapeValue: false },
    returnNull: false,
  });
  return (key, vars) => String(instance.t(key, vars as any));
}

declare module 'fastify' {
  interface FastifyInstance {
    config: ConfigState;
  }
}

export default fp<{ load: LoadOptions }>(
  async (app, opts) => {
    const make = async (): Promise<Omit<ConfigState, 'reload' | 'reloadError'>> => {
      const bundle = loadBundle(opts.load);
      return { bundle, conditions: new ConditionEvaluator(bundle.conditions), t: await translatorFor(bundle) };
    };
    let current = await make();
    let reloadError: string | null = null;
    const state: ConfigState = {
      get bundle() { return current.bundle; },
      get conditions() { return current.conditions; },
      get t() { return current.t; },
      get reloadError() { return reloadError; },
      async reload() {
        try {
          current = await make(); // throws ConfigError and keeps the old one
          reloadError = null;
        } catch (error) {
          reloadError = error instanceof Error ? error.message : String(error);
          throw error;
        }
      },
    };
    app.decorate('config', state);
  },
  { name: 'config' },
);
