/**
 * Holds the merged configuration bundles, one per served client variant (config/variants.ts), and
 * their translators. The bundles are loaded once, by buildApp before anything is registered (their
 * schemas are the API's), and handed in as `initial`; reload() loads them again and replaces them
 * as a whole, so a request sees either the old or the new configuration, never a mix.
 *
 * Which variant a request is served by is chosen as it arrives (its host name) and, once its
 * session is known, by the user's client (plugins/auth.ts calls `useClientVariant`). The choice is
 * kept in the request's async context (@fastify/request-context), so everything that reads
 * `app.config.bundle`, `.t` or `.conditions` while serving it — routes, services, the request
 * validators and serializers (config/bundle-compilers.ts) — reads that variant without being
 * handed it. Outside a request (start-up, timers) they read the default variant.
 */
import fp from 'fastify-plugin';
import { ConditionEvaluator } from '../../runtime/core/conditions.ts';
import type { Translate } from '../../runtime/core/validation-messages.ts';
import type { Bundle, LoadOptions } from '../config/bundle.ts';
import { translatorsFor } from '../config/translator.ts';
import { acceptedLanguages, chooseLanguage, cookieValue, LANGUAGE_COOKIE, type Language } from '../config/languages.ts';
import { fastifyRequestContext, requestContext } from '@fastify/request-context';
import { loadVariants, loadVariantsYielding, variantForClient, variantForHost, type VariantSet } from '../config/variants.ts';
import { ConfigError } from '../config/load-bundle.ts';
import { brokenEntries, servableLayer, type LayerProblem } from '../studio/check.ts';
import { overlaysOf, type Layer } from '../studio/documents.ts';

export interface ConfigState {
  /** The bundle of the variant serving the current request (the default one outside requests). */
  bundle: Bundle;
  conditions: ConditionEvaluator;
  /** The text of a key `ns:path` with {{vars}}, in the language of the current request's caller (issue 48). */
  t: Translate;
  /** The language the current request is answered in: its caller's (config/languages.ts), the default outside requests. */
  readonly language: Language;
  /**
   * Puts a language first for the rest of the current request: the signed-in user's own choice
   * (plugins/auth.ts), which wins over the sign-in page's cookie and the browser's Accept-Language.
   */
  preferLanguage(id: string | null | undefined): void;
  reload(): Promise<void>;
  /** Why the last reload was refused (the configuration in use is then older than the files); null after a good one. */
  readonly reloadError: string | null;
  /** The served variants' names, the default first. */
  readonly variants: string[];
  /** The configuration's folder: the variants' assets (logos) that documents the server makes carry. */
  readonly root: string;
  /** Serves the rest of the current request by the variant that claims this user's client, if one does. */
  useClientVariant(klientSymbol: string | null | undefined): void;
  /** Whether some variant is chosen by the user's client (then public calls that carry a session follow it). */
  readonly choosesByClient: boolean;
  /**
   * The configuration a user of this client is served by (the variant claiming the client, else the
   * default one), for work outside that user's requests: a notification is written and rendered
   * for its recipient by the recipient's variant (its texts, its name and logo).
   */
  forClient(klientSymbol: string | null | undefined, language?: string | null): LanguageState;
  /** The configuration of a served variant by its name (the default one for a name no longer served): work queued by a request of that variant (an import run). */
  forVariant(variant: string, language?: string | null): LanguageState;
  /**
   * Where the configuration studio's published layer comes from (issue 26, server/studio/): read
   * at every reload and merged over the files. A read that fails keeps the layer read last.
   */
  useLayer(read: () => Promise<StudioLayer | undefined>): void;
  /** Serves the rest of the current request by the newest configuration (the request that reloaded it answers in its words). */
  useNewest(): void;
  /** The studio's published layer in use: its version and the entries that could not be served. */
  readonly layer: { version: number | null; problems: LayerProblem[] };
}

/** The published layer as the studio stores it. */
export interface StudioLayer {
  version: number;
  entries: Layer;
}

/** A variant's configuration in one language: its translator and the language (with its locale). */
export type LanguageState = Pick<ConfigState, 'bundle' | 'conditions' | 't' | 'language'>;

declare module '@fastify/request-context' {
  interface RequestContextData {
    /** The languages the caller asks for, most wanted first (his account's, the sign-in page's cookie, Accept-Language). */
    languages: string[];
    variant: string;
    /** The configuration the request started on: a reload while it runs does not change it. */
    configuration: unknown;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    config: ConfigState;
  }
}

export interface ConfigOptions {
  load: LoadOptions;
  /** The variants buildApp loaded already, or one bundle alone (omitted: loaded here). */
  initial?: VariantSet | Bundle;
}

interface VariantState {
  bundle: Bundle;
  conditions: ConditionEvaluator;
  translators: Record<string, Translate>;
}

/** One bundle handed in alone (tests): it is the default and only variant. */
const asSet = (initial: VariantSet | Bundle): VariantSet =>
  'bundles' in initial
    ? initial
    : { defaultVariant: initial.variant, bundles: new Map([[initial.variant, initial]]), byHost: new Map(), byClient: new Map() };

export default fp<ConfigOptions>(
  async (app, opts) => {
    const make = async (set: VariantSet) => {
      const states = new Map<string, VariantState>();
      for (const [name, bundle] of set.bundles) {
        states.set(name, { bundle, conditions: new ConditionEvaluator(bundle.conditions), translators: await translatorsFor(bundle) });
      }
      return { set, states };
    };
    let current = await make(opts.initial ? asSet(opts.initial) : loadVariants(opts.load));
    let reloadError: string | null = null;
    let readLayer: (() => Promise<StudioLayer | undefined>) | undefined;
    let lastLayer: StudioLayer | undefined;
    let layerState: ConfigState['layer'] = { version: null, problems: [] };
    /**
     * The files with the studio's layer: its broken entries (the files changed under them) and any
     * the check refuses are left out and reported, so a layer never stops the portal.
     */
    const loadWithLayer = async (layer: StudioLayer | undefined): Promise<VariantSet> => {
      if (!layer || !Object.keys(layer.entries).length) {
        layerState = { version: layer?.version ?? null, problems: [] };
        return loadVariantsYielding(opts.load);
      }
      const broken = brokenEntries(opts.load.root, layer.entries);
      const failing = new Set(broken.map((p) => p.layerPath));
      const entries = Object.fromEntries(Object.entries(layer.entries).filter(([path]) => !failing.has(path)));
      try {
        const set = await loadVariantsYielding({ ...opts.load, layer: overlaysOf(entries) });
        layerState = { version: layer.version, problems: broken };
        return set;
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        const servable = await servableLayer(opts.load.root, entries);
        const set = await loadVariantsYielding({ ...opts.load, layer: servable.overlays }); // the files' own problems throw here
        layerState = { version: layer.version, problems: [...broken, ...servable.problems] };
        app.log.warn({ problems: layerState.problems }, 'configuration studio: entries of the published layer left out');
        return set;
      }
    };
    type Current = typeof current;
    const pinned = (): Current => (requestContext.get('configuration') as Current | undefined) ?? current;
    const serving = (): VariantState => {
      const name = requestContext.get('variant');
      const config = pinned();
      return (name !== undefined && config.states.get(name)) || config.states.get(config.set.defaultVariant)!;
    };
    /** A variant in a language: the first of `wanted` it offers, else its default. */
    const inLanguage = (variant: VariantState, wanted: readonly (string | null | undefined)[]): LanguageState => {
      const language = chooseLanguage(variant.bundle.languages, wanted);
      return { bundle: variant.bundle, conditions: variant.conditions, t: variant.translators[language.id] ?? Object.values(variant.translators)[0], language };
    };
    const wanted = () => requestContext.get('languages') ?? [];
    const state: ConfigState = {
      get bundle() { return serving().bundle; },
      get conditions() { return serving().conditions; },
      get t() { return inLanguage(serving(), wanted()).t; },
      get language() { return inLanguage(serving(), wanted()).language; },
      preferLanguage(id) {
        if (id) requestContext.set('languages', [id, ...wanted().filter((l) => l !== id)]);
      },
      get reloadError() { return reloadError; },
      root: opts.load.root,
      get variants() { return [current.set.defaultVariant, ...[...current.set.bundles.keys()].filter((v) => v !== current.set.defaultVariant)]; },
      get choosesByClient() { return current.set.byClient.size > 0; },
      forClient(klientSymbol, language) {
        const config = pinned();
        const variant = variantForClient(config.set, klientSymbol);
        return inLanguage((variant !== undefined && config.states.get(variant)) || config.states.get(config.set.defaultVariant)!, [language]);
      },
      forVariant(variant, language) {
        const config = pinned();
        return inLanguage(config.states.get(variant) ?? config.states.get(config.set.defaultVariant)!, [language]);
      },
      useClientVariant(klientSymbol) {
        const variant = variantForClient(pinned().set, klientSymbol);
        if (variant) requestContext.set('variant', variant);
      },
      useNewest() {
        requestContext.set('configuration', current);
      },
      useLayer(read) {
        readLayer = read;
      },
      get layer() {
        return layerState;
      },
      async reload() {
        try {
          if (readLayer) {
            try {
              lastLayer = await readLayer();
            } catch (error) {
              app.log.error({ err: error }, 'configuration studio: the published layer could not be read; the one read last is kept');
            }
          }
          current = await make(await loadWithLayer(lastLayer)); // throws ConfigError and keeps the old ones
          reloadError = null;
        } catch (error) {
          reloadError = error instanceof Error ? error.message : String(error);
          throw error;
        }
      },
    };
    app.decorate('config', state);
    // the request's variant lives in its async context from its first hook to its last
    await app.register(fastifyRequestContext);
    app.addHook('onRequest', async (request) => {
      requestContext.set('configuration', current);
      requestContext.set('variant', variantForHost(current.set, request.hostname));
      // the caller's languages before his account is known: the sign-in page's choice, then his browser's
      const chosen = cookieValue(request.headers.cookie, LANGUAGE_COOKIE);
      requestContext.set('languages', [...(chosen ? [chosen] : []), ...acceptedLanguages(request.headers['accept-language'])]);
    });
  },
  { name: 'config' },
);
