/**
 * Holds the merged configuration bundle and the server's translator. The bundle is loaded once,
 * by buildApp before anything is registered (its schemas are the API's), and handed in as
 * `initial`; reload() loads it again and replaces it as a whole, so a request sees either the old
 * or the new configuration, never a mix. Everything that depends on the configuration reads
 * `app.config` when it runs (the request validators and serializers too: config/bundle-compilers.ts).
 */
import fp from 'fastify-plugin';
import i18next from 'i18next';
import { ConditionEvaluator } from '../../runtime/core/conditions.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle, LoadOptions } from '../config/bundle.ts';
import { loadBundle } from '../config/load-bundle.ts';

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

export interface ConfigOptions {
  load: LoadOptions;
  /** The bundle buildApp loaded already (omitted: loaded here). */
  initial?: Bundle;
}

export default fp<ConfigOptions>(
  async (app, opts) => {
    const make = async (bundle = loadBundle(opts.load)): Promise<Omit<ConfigState, 'reload' | 'reloadError'>> => {
      return { bundle, conditions: new ConditionEvaluator(bundle.conditions), t: await translatorFor(bundle) };
    };
    let current = await make(opts.initial);
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
