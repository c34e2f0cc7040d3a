/**
 * The configuration studio's documents (issue 26): which files an analyst may change, what the
 * files give a document in a scope (the base portal or a variant), and the layer's paths.
 *
 * A layer is merged in this order: base files → base layer → variant files → variant layer
 * (server/config/load-bundle.ts applies it), so a variant keeps what its own files say over a
 * change of the base portal, and the variant's studio changes come last.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { isPlainObject, mergeOverlay, type Json } from '../../runtime/core/merge.ts';
import type { StudioOverview } from '../../runtime/core/generated/api.ts';
import { applyOverlay, type Path } from '../../runtime/core/layer.ts';
import { CREATABLE_FOLDERS, isCreatablePath, layerFileNames } from '../config/layer-documents.ts';

export { isCreatablePath };

export type Scope = 'base' | string;
/** A document's change in a layer: the overlay onto what the files give, and the keys and ids it changes. */
export interface LayerEntry {
  overlay: Json;
  touches: Path[];
}
/** A whole layer: entries by layer path. */
export type Layer = Record<string, LayerEntry>;

/** The folders whose files the studio changes, and what kind of document each holds. */
const FOLDERS = [
  { dir: 'screens', kind: 'screen' },
  { dir: 'locales/pl', kind: 'locale' },
  { dir: 'schemas/entities', kind: 'schema' },
  { dir: 'schemas/api', kind: 'schema' },
  { dir: 'schemas/reports', kind: 'report' },
] as const;

/**
 * The texts of the other languages (issue 48): locales/<id> beside locales/pl, each file a
 * translation of the Polish namespace of its name. Documents of kind `translation`, with their
 * language; the studio edits them beside the Polish texts (Teksty) and in the JSON tab.
 */
const TRANSLATION_DIR = /^locales\/([a-z]{2,3})$/;
const SOURCE_DIR = 'locales/pl';

/** The languages with texts of their own beside Polish: the folders of locales/. */
export function translationLanguages(root: string): string[] {
  const dir = join(root, 'locales');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => TRANSLATION_DIR.test(`locales/${name}`) && `locales/${name}` !== SOURCE_DIR && statSync(join(dir, name)).isDirectory()).sort();
}

/** A document of the overview (schemas/api/studio-overview.schema.json, generated). */
export type DocumentInfo = StudioOverview['documents'][number];

const readJson = (file: string): Json => JSON.parse(readFileSync(file, 'utf8')) as Json;
const jsonNames = (dir: string) =>
  existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json') && statSync(join(dir, f)).isFile()).sort() : [];

/**
 * Every document of the base configuration the studio can change; with a layer, also the documents
 * it created that no file has (a creatable folder: server/config/layer-documents.ts), each with
 * `createdIn`, the scopes whose layer has it.
 */
export function listDocuments(root: string, layer: Layer = {}): DocumentInfo[] {
  const out: DocumentInfo[] = [];
  const folders: { dir: string; kind: DocumentInfo['kind']; language?: string }[] = [
    ...FOLDERS, ...translationLanguages(root).map((language) => ({ dir: `locales/${language}`, kind: 'translation' as const, language })),
  ];
  for (const { dir, kind, language } of folders) {
    for (const name of jsonNames(join(root, dir))) {
      const path = `${dir}/${name}`;
      let value: Json;
      try {
        value = readJson(join(root, path));
      } catch {
        continue; // a file that does not parse is the check's to report, not the studio's to offer
      }
      const info: DocumentInfo = { path, kind, id: kind === 'schema' ? name : basename(name, '.json'), ...(language ? { language } : {}) };
      if (isPlainObject(value)) {
        if (kind === 'screen' && typeof value.type === 'string') info.type = value.type;
        if (kind === 'screen' && typeof value.title === 'string') info.title = value.title;
        if (kind === 'schema' && typeof value.$id === 'string') info.schemaId = value.$id;
      }
      out.push(info);
    }
  }
  const created = new Map<string, DocumentInfo>();
  const overlays = overlaysOf(layer);
  for (const scope of ['base', ...variantNames(root)]) {
    for (const dir of CREATABLE_FOLDERS) {
      const kind = FOLDERS.find((f) => f.dir === dir)?.kind ?? 'schema';
      for (const name of layerFileNames(overlays, layerPathOf(scope, dir), dir)) {
        const path = `${dir}/${name}`;
        if (existsSync(join(root, path))) continue;
        const info = created.get(path) ?? { path, kind, id: basename(name, '.json'), createdIn: [] };
        info.createdIn!.push(scope);
        created.set(path, info);
      }
    }
  }
  return [...out, ...[...created.values()].sort((a, b) => a.path.localeCompare(b.path))];
}

/** The variant folders of client-variants/ (each is a scope besides 'base'). */
export function variantNames(root: string): string[] {
  const dir = join(root, 'client-variants');
  if (!existsSync(dir)) return [];
  return readdirSync(dir).filter((name) => statSync(join(dir, name)).isDirectory() && existsSync(join(dir, name, 'variant.json'))).sort();
}

/** A variant's name as its configuration gives it (variant.json `name`), else its folder name. */
export function variantTitle(root: string, scope: Scope): string {
  try {
    const variant = readJson(join(root, 'client-variants', scope, 'variant.json'));
    if (isPlainObject(variant) && typeof variant.name === 'string' && variant.name.trim()) return variant.name;
  } catch {
    // a variant.json that does not parse is the check's to report; the folder name stands in
  }
  return scope;
}

/** Where a scope's change of a document lives, as a file path of the repository. */
export const layerPathOf = (scope: Scope, path: string): string => (scope === 'base' ? path : `client-variants/${scope}/${path}`);

/** The scope and document of a layer path. */
export function parseLayerPath(layerPath: string): { scope: Scope; path: string } {
  const match = /^client-variants\/([^/]+)\/(.+)$/.exec(layerPath);
  return match ? { scope: match[1], path: match[2] } : { scope: 'base', path: layerPath };
}

/** Whether a path names a document the studio may change (no "..", one of its folders, a .json file). */
export function isDocumentPath(path: string): boolean {
  const file = /^[A-Za-z0-9._-]+\.json$/;
  const translation = /^(locales\/[a-z]{2,3})\/([^/]+)$/.exec(path);
  if (translation && TRANSLATION_DIR.test(translation[1]) && file.test(translation[2])) return true;
  return FOLDERS.some(({ dir }) => path.startsWith(`${dir}/`) && file.test(path.slice(dir.length + 1)));
}

const readIfExists = (file: string): Json | undefined => (existsSync(file) ? readJson(file) : undefined);

/**
 * What the files give a document in a scope, before that scope's layer: the base file; for a
 * variant also the base layer's change, the variant's own overlay file, and for the app settings
 * the "app" of its variant.json. Undefined when no file has the document.
 */
export function filesDocument(root: string, scope: Scope, path: string, overlays: Record<string, Json>): Json | undefined {
  let doc = readIfExists(join(root, path));
  if (scope === 'base') return doc;
  doc = applyOverlay(doc, overlays[path]);
  const own = readIfExists(join(root, 'client-variants', scope, path));
  if (own !== undefined) doc = mergeOverlay(doc, own);
  if (path === 'screens/app.json') {
    const variant = readIfExists(join(root, 'client-variants', scope, 'variant.json'));
    if (isPlainObject(variant) && variant.app !== undefined) doc = mergeOverlay(doc, variant.app);
  }
  return doc;
}

/** The overlays of a layer, by layer path (what loadBundle takes). */
export const overlaysOf = (layer: Layer): Record<string, Json> =>
  Object.fromEntries(Object.entries(layer).map(([path, entry]) => [path, entry.overlay]));

/** A document in a scope with the layer's change: what users of that scope are served. */
export function effectiveDocument(root: string, scope: Scope, path: string, layer: Layer): Json | undefined {
  const overlays = overlaysOf(layer);
  return applyOverlay(filesDocument(root, scope, path, overlays), overlays[layerPathOf(scope, path)]);
}
