/**
 * The client variants one server process serves (issue 15, docs/variants.md): the default one
 * (PORTAL_VARIANT, or the base configuration) plus every folder of client-variants/ whose
 * variant.json claims host names (`hosts`) or clients (`clients`). A request is served by the
 * variant of its host name; a signed-in user whose client a variant claims gets that variant on
 * any host. Each variant is a whole bundle of its own (loadBundle), so no rule, text or screen of
 * one variant can reach another's users.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Bundle, ConfigProblem, LoadOptions } from './bundle.ts';
import { ConfigError, loadBundle } from './load-bundle.ts';

export interface VariantSet {
  /** The variant of a request that no host name or client chooses. */
  defaultVariant: string;
  bundles: ReadonlyMap<string, Bundle>;
  /** host name (lower case, no port) → variant */
  byHost: ReadonlyMap<string, string>;
  /** client symbol → variant */
  byClient: ReadonlyMap<string, string>;
}

interface Claims {
  hosts?: unknown;
  clients?: unknown;
}

/** The claims of each variant folder, read raw: loadBundle validates the file as a whole. */
function readClaims(root: string): { variant: string; file: string; claims: Claims }[] {
  const dir = join(root, 'client-variants');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => statSync(join(dir, name)).isDirectory() && existsSync(join(dir, name, 'variant.json')))
    .sort()
    .map((variant) => {
      const file = `client-variants/${variant}/variant.json`;
      try {
        return { variant, file, claims: JSON.parse(readFileSync(join(root, file), 'utf8')) as Claims };
      } catch (e) {
        throw new ConfigError([{ file, pointer: '', reason: `not valid JSON: ${(e as Error).message}` }]);
      }
    });
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/** Loads every served variant; a broken one, or a host or client claimed twice, fails the whole load. */
export function loadVariants(options: LoadOptions): VariantSet {
  const loads = variantLoads(options);
  for (let step = loads.next(); ; step = loads.next()) if (step.done) return step.value;
}

/**
 * loadVariants for a running server (a reload): the event loop serves other requests between two
 * variants' loads (~0.25 s each) instead of stalling for all of them at once.
 */
export async function loadVariantsYielding(options: LoadOptions): Promise<VariantSet> {
  const loads = variantLoads(options);
  for (let step = loads.next(); ; step = loads.next()) {
    if (step.done) return step.value;
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function* variantLoads(options: LoadOptions): Generator<void, VariantSet> {
  const defaultVariant = options.variant || 'default';
  const byHost = new Map<string, string>();
  const byClient = new Map<string, string>();
  const problems: ConfigProblem[] = [];
  const served = new Set<string>([defaultVariant]);

  for (const { variant, file, claims } of readClaims(options.root)) {
    const hosts = strings(claims.hosts);
    const clients = strings(claims.clients);
    hosts.forEach((host, i) => {
      const other = byHost.get(host.toLowerCase());
      if (other) problems.push({ file, pointer: `/hosts/${i}`, reason: `host "${host}" is claimed by client-variants/${other} too` });
      else byHost.set(host.toLowerCase(), variant);
    });
    clients.forEach((client, i) => {
      const other = byClient.get(client);
      if (other) problems.push({ file, pointer: `/clients/${i}`, reason: `client "${client}" is claimed by client-variants/${other} too` });
      else byClient.set(client, variant);
    });
    if (hosts.length || clients.length) served.add(variant);
  }

  const bundles = new Map<string, Bundle>();
  for (const variant of served) {
    yield;
    try {
      bundles.set(variant, loadBundle({ ...options, variant: variant === 'default' ? undefined : variant }));
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(...error.problems);
    }
  }
  // single sign-on creates accounts only for a client the variant serves (issue 36, meta/sso createUsers)
  for (const [variant, bundle] of bundles) {
    const client = (bundle.app.sso as { createUsers?: { client: string } } | undefined)?.createUsers?.client;
    const servedBy = client === undefined ? variant : byClient.get(client) ?? defaultVariant;
    if (servedBy !== variant) {
      problems.push({ file: variant === 'default' ? 'screens/app.json' : `client-variants/${variant}/variant.json`, pointer: '/app/sso/createUsers/client', reason: `client "${client}" is served by ${servedBy === 'default' ? 'the default variant' : `client-variants/${servedBy}`}, not by this variant` });
    }
  }
  if (problems.length) throw new ConfigError(problems);
  return { defaultVariant, bundles, byHost, byClient };
}

/** The variant serving a host name (the Host header's name, any port): its own, or the default. */
export function variantForHost(set: VariantSet, hostname: string | undefined): string {
  const name = (hostname ?? '').replace(/:\d+$/, '').replace(/^\[|\]$/g, '').toLowerCase();
  return set.byHost.get(name) ?? set.defaultVariant;
}

/** The variant a signed-in user's client is served by, if a variant claims that client. */
export function variantForClient(set: VariantSet, klientSymbol: string | null | undefined): string | undefined {
  return klientSymbol ? set.byClient.get(klientSymbol) : undefined;
}
