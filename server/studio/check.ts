/**
 * The studio's layer checked as `npm run check` checks the files (issue 26): every variant's bundle
 * is loaded with the layer (meta-schemas, cross-references, `$remove` of ids that do not exist), and
 * each problem the layer brings is named by its layer path and its JSON pointer in the document the
 * studio shows, with the place in words.
 *
 * A problem is the layer's when it names a layer document (`studio:<layer path>`, load-bundle.ts)
 * or, naming a file, it does not occur without the layer (a removed text that a screen still uses).
 * Besides, an entry whose touched keys or ids the files no longer have is broken: the files changed
 * under it. Serving drops broken and failing entries and keeps the rest (`servableLayer`), so the
 * portal always starts; publishing refuses any problem.
 */
import { ConfigError, LAYER_PREFIX, loadBundle } from '../config/load-bundle.ts';
import type { ConfigProblem } from '../config/bundle.ts';
import type { Json } from '../../runtime/core/merge.ts';
import { missingTouches, pathOf, pathWords, pointerOf } from '../../runtime/core/layer.ts';
import { effectiveDocument, filesDocument, isCreatablePath, layerPathOf, overlaysOf, parseLayerPath, variantNames, type Layer } from './documents.ts';

export interface LayerProblem {
  /** `<layer path>#<pointer>`, as the error body's `errors[].field`. */
  field: string;
  message: string;
  scope: string;
  path: string;
  layerPath: string;
  pointer: string;
  /** The place in words: `columns › rejestr › width`. */
  where: string;
  /** The files changed under the entry (a key or id it changes is gone), rather than the entry being wrong. */
  broken?: boolean;
  /** A broken entry's reason as a text key (studio:broken.*), so the message can be worded again in a reader's language. */
  text?: string;
}

/** Words a text key of the studio's own reasons in the caller's language (the loader's reasons are developers' English). */
export type Word = (key: string) => string;

/** A broken entry's problem worded in a reader's language (its `where` and reason; others as they are). */
export const wordedFor = (problem: LayerProblem, word: Word): LayerProblem =>
  (problem.text ? { ...problem, message: `${problem.where}: ${word(problem.text)}` } : problem);

const problemKey = (p: ConfigProblem) => `${p.file}\u0000${p.pointer}\u0000${p.reason}`;

function loadProblems(root: string, variant: string, layer: Record<string, Json> | undefined): ConfigProblem[] {
  try {
    loadBundle({ root, variant, layer });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
}

/** The layer path a problem names: the last layer document of its file (`a + studio:b + studio:c`). */
function layerPathNamed(file: string): string | undefined {
  const named = file.split(' + ').filter((f) => f.startsWith(LAYER_PREFIX));
  return named.length ? named[named.length - 1].slice(LAYER_PREFIX.length) : undefined;
}

function describe(root: string, layer: Layer, layerPath: string, pointer: string, reason: string, broken = false): LayerProblem {
  const { scope, path } = parseLayerPath(layerPath);
  let doc: Json | undefined;
  try {
    doc = effectiveDocument(root, scope, path, layer);
  } catch {
    doc = undefined;
  }
  const where = pathWords(pathOf(doc, pointer)) || path;
  return { field: `${layerPath}#${pointer}`, message: `${where}: ${reason}`, scope, path, layerPath, pointer, where, broken };
}

/**
 * The entries whose touched keys or ids are gone from the files, one problem per missing one, its
 * reason worded by `word` (studio:broken.*: the caller's language; without a request, the key,
 * worded again when a reader is given it — wordedFor).
 */
export function brokenEntries(root: string, layer: Layer, word: Word = (key) => key): LayerProblem[] {
  const overlays = overlaysOf(layer);
  const out: LayerProblem[] = [];
  for (const [layerPath, entry] of Object.entries(layer)) {
    const { scope, path } = parseLayerPath(layerPath);
    let files: Json | undefined;
    try {
      files = filesDocument(root, scope, path, overlays);
    } catch {
      files = undefined;
    }
    // a document the studio created (a creatable folder) is its entry whole: no file to lose
    if (files === undefined && isCreatablePath(path)) continue;
    if (files === undefined) {
      const text = 'studio:broken.fileGone';
      out.push({ ...describe(root, layer, layerPath, '', word(text), true), where: path, message: `${path}: ${word(text)}`, text });
      continue;
    }
    for (const missing of missingTouches(files, entry.touches)) {
      const pointer = pointerOf(files, missing);
      const text = 'studio:broken.entryGone';
      out.push({
        field: `${layerPath}#${pointer}`,
        message: `${pathWords(missing)}: ${word(text)}`,
        scope, path, layerPath, pointer, where: pathWords(missing), broken: true, text,
      });
    }
  }
  return out;
}

/**
 * Which entry of the layer a file's problem comes from: the texts' namespace a missing text key
 * names, else the only entry this variant has, else the file's own path in the variant's scope.
 */
function causeOf(layer: Layer, variant: string, p: ConfigProblem): string {
  const scope = variant === 'default' ? 'base' : variant;
  const inVariant = Object.keys(layer).filter((lp) => ['base', scope].includes(parseLayerPath(lp).scope));
  const ns = /text key "([A-Za-z0-9._-]+):/.exec(p.reason)?.[1];
  const texts = ns && [layerPathOf(scope, `locales/pl/${ns}.json`), `locales/pl/${ns}.json`].find((lp) => lp in layer);
  if (texts) return texts;
  if (inVariant.length === 1) return inVariant[0];
  return layerPathOf(scope, p.file.split(' + ')[0]);
}

/** Every problem of the layer, over the base portal and every variant (the variants a layer path names only). */
export async function checkLayer(root: string, layer: Layer, scopes?: string[], word?: Word): Promise<LayerProblem[]> {
  const found = new Map<string, LayerProblem>();
  for (const p of brokenEntries(root, layer, word)) found.set(p.field + p.message, p);
  const overlays = overlaysOf(layer);
  const variants = ['default', ...variantNames(root)];
  // a change of the base portal reaches every variant; a variant's change only its own
  const touched = new Set(Object.keys(layer).map((lp) => parseLayerPath(lp).scope));
  const wanted = scopes ?? (touched.has('base') ? variants : variants.filter((v) => touched.has(v === 'default' ? 'base' : v)));
  for (const variant of wanted) {
    // a load takes ~0.2 s of the event loop: other requests are served between two variants
    await new Promise((resolve) => setImmediate(resolve));
    const withLayer = loadProblems(root, variant, overlays);
    if (!withLayer.length) continue;
    let withoutLayer: Set<string> | undefined;
    for (const p of withLayer) {
      const layerPath = layerPathNamed(p.file);
      let problem: LayerProblem;
      if (layerPath) problem = describe(root, layer, layerPath, p.pointer, p.reason);
      else {
        // a file's problem the layer caused (it is not there without the layer): named where it shows
        withoutLayer ??= new Set(loadProblems(root, variant, undefined).map(problemKey));
        if (withoutLayer.has(problemKey(p))) continue;
        const cause = causeOf(layer, variant, p);
        const where = `${p.file}${p.pointer ? ` ${p.pointer}` : ''}`;
        problem = { ...describe(root, layer, cause, '', p.reason), where, message: `${where}: ${p.reason}` };
      }
      found.set(problem.field + problem.message, problem);
    }
  }
  return [...found.values()];
}

/**
 * The part of a published layer the portal can serve: without the broken entries and those the
 * check refuses (the files changed under them since they were published). Never throws for the
 * layer's sake; the files' own problems are loadVariants' to report.
 */
export async function servableLayer(root: string, layer: Layer): Promise<{ overlays: Record<string, Json>; problems: LayerProblem[] }> {
  const problems: LayerProblem[] = [];
  let rest: Layer = { ...layer };
  for (let round = 0; round <= Object.keys(layer).length; round++) {
    const found = await checkLayer(root, rest);
    if (!found.length) break;
    problems.push(...found);
    const failing = new Set(found.map((p) => p.layerPath));
    const next = Object.fromEntries(Object.entries(rest).filter(([path]) => !failing.has(path)));
    if (Object.keys(next).length === Object.keys(rest).length) break; // nothing of the layer's to drop
    rest = next;
  }
  return { overlays: overlaysOf(rest), problems };
}
