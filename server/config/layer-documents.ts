/**
 * The documents the configuration studio may create (issue 46): the folders where a document may
 * exist in the studio's layer only, no file having it (a new report). Declared here, in one place,
 * for the studio (server/studio/documents.ts: what it lists, creates and checks) and for the
 * configuration compiler (load-bundle.ts: which layer documents it reads without a file).
 * Everywhere else a layer entry is an overlay onto a file; in these folders the entry of a
 * document no file has is the whole document.
 */
import type { Json } from '../../runtime/core/merge.ts';

export const CREATABLE_FOLDERS: readonly string[] = ['schemas/reports'];

const FILE_NAME = /^[a-z][a-z0-9-]*\.json$/;

/** Whether a document path (in the base tree) is one the studio may create: `<folder>/<slug>.json`. */
export function isCreatablePath(path: string): boolean {
  return CREATABLE_FOLDERS.some((dir) => path.startsWith(`${dir}/`) && FILE_NAME.test(path.slice(dir.length + 1)));
}

/** The file names of a layer's documents directly under `prefix` (a layer folder such as `client-variants/t/schemas/reports`) in a creatable folder. */
export function layerFileNames(layer: Record<string, Json>, prefix: string, folder: string): string[] {
  if (!CREATABLE_FOLDERS.includes(folder)) return [];
  return Object.keys(layer)
    .filter((p) => p.startsWith(`${prefix}/`) && FILE_NAME.test(p.slice(prefix.length + 1)))
    .map((p) => p.slice(prefix.length + 1))
    .sort();
}
