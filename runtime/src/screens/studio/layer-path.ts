/**
 * Where a scope's change of a document lives (docs/config-studio-api.md "Layer path"): the
 * document's path for the base portal, client-variants/<scope>/<path> for a variant. Problems of
 * the checks name their place by it.
 */
export const layerPathOf = (scope: string, path: string) => (scope === 'base' ? path : `client-variants/${scope}/${path}`);

/** A text key's locale document: `car:fields.rejestr` → locales/pl/car.json. */
export const localePathOf = (key: string) => `locales/pl/${key.slice(0, key.indexOf(':'))}.json`;

/** The scope of a layer path (server/studio/documents.ts parseLayerPath): a variant's folder, or the base portal. */
export const scopeOfLayerPath = (layerPath: string): string => /^client-variants\/([^/]+)\//.exec(layerPath)?.[1] ?? 'base';

/** The scopes a draft's layer paths change, the base portal first. */
export const scopesOf = (layerPaths: readonly string[]): string[] =>
  [...new Set(layerPaths.map(scopeOfLayerPath))].sort((a, b) => Number(b === 'base') - Number(a === 'base') || a.localeCompare(b));
