/**
 * The Import API as this screen calls it (docs/integration.md, "Load your fleet"): the paths come
 * from the screen file (`endpoints`), the shapes are the contract's. Uploads go through the one API
 * client's signed multipart (api/client.ts), the errors file as a blob saved under the server's name.
 */
import type { ImportDeclarations, ImportError, ImportPreview, ImportRun as ImportRunBody, ImportRunCreated, ImportRunList } from '../../../core/generated/api';
import { api } from '../../api/client';
import { saveLink } from '../table/export';

/** The API's shapes, generated from its schemas (schemas/api/import-*.schema.json, `npm run gen`). */
export type ImportDeclaration = ImportDeclarations[number];
export type ImportField = ImportDeclaration['fields'][number];
export type FilePreview = ImportPreview;
export type ImportRun = ImportRunBody;
export type RunState = ImportRun['state'];
export type RowError = ImportError;

export interface RunOptions {
  declaration: string;
  mode: ImportRun['mode'];
  onError: string;
  missing: string;
  mapping: Record<string, string | null>;
  /** An import: the dry run it carries out, and the number of rows it retires typed back (issue 49). */
  dryRun?: number;
  confirmDeactivated?: string;
}

export interface ImportEndpoints {
  declarations: string;
  mapping: string;
  preview: string;
  runs: string;
  run: string;
  errorsFile: string;
}

export const FINISHED: ReadonlySet<RunState> = new Set(['succeeded', 'failed', 'cancelled']);

/** An endpoint with its {placeholders} filled (encoded). */
export function pathOf(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name] ?? '')));
}

async function filePart(file: File) {
  return { name: 'file', filename: file.name, content: new Uint8Array(await file.arrayBuffer()), type: file.type || 'text/csv' };
}

export function importApi(endpoints: ImportEndpoints) {
  return {
    declarations: (signal?: AbortSignal) => api.get<ImportDeclarations>(endpoints.declarations, { signal }),
    rememberMapping: (name: string, mapping: Record<string, string | null>) => api.put(pathOf(endpoints.mapping, { name }), { mapping }),
    preview: async (declaration: string, file: File) =>
      api.postMultipart<FilePreview>(endpoints.preview, [{ name: 'declaration', value: declaration }, await filePart(file)]),
    start: async (file: File, options: RunOptions) =>
      api.postMultipart<ImportRunCreated>(endpoints.runs, [
        { name: 'declaration', value: options.declaration },
        { name: 'mode', value: options.mode },
        { name: 'onError', value: options.onError },
        { name: 'missing', value: options.missing },
        { name: 'mapping', value: JSON.stringify(options.mapping) },
        ...(options.dryRun !== undefined ? [{ name: 'dryRun', value: String(options.dryRun) }] : []),
        ...(options.confirmDeactivated ? [{ name: 'confirmDeactivated', value: options.confirmDeactivated }] : []),
        await filePart(file),
      ]),
    // the poll is the page's own asking, not the user's: no loading bar for it
    run: (id: number, signal?: AbortSignal) => api.get<ImportRun>(pathOf(endpoints.run, { id }), { signal, background: true }),
    /** A page of the history; `mode`: only dry runs or only imports (issue 49). */
    runs: (page: number, size: number, signal?: AbortSignal, mode?: ImportRun['mode']) =>
      api.get<ImportRunList>(`${endpoints.runs}?page=${page}&size=${size}${mode ? `&mode=${mode}` : ''}`, { signal }),
    /** Saves the rows in error as .xlsx, named as the server names the file. */
    downloadErrors: async (id: number) => {
      let name = '';
      const blob = await api.get<Blob>(pathOf(endpoints.errorsFile, { id }), {
        responseType: 'blob',
        onHeaders: (headers) => (name = fileNameOf(headers.get('content-disposition'))),
      });
      const url = URL.createObjectURL(blob);
      saveLink(url, name || `import-${id}.xlsx`);
      // some browsers read the blob only after the click returns
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    },
  };
}

export type ImportApi = ReturnType<typeof importApi>;

/** The file name of a Content-Disposition header (filename* in UTF-8 first, as RFC 6266 says). */
export function fileNameOf(header: string | null): string {
  if (!header) return '';
  const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (star) {
    try {
      return decodeURIComponent(star.trim());
    } catch {
      // a malformed encoding: fall back to the plain name
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]?.trim() ?? '';
}
